// This module's packages (swift-numerics, CSV.swift) come with the Verify
// trait (Package.swift): say so, before "no such module".
#if !Verify
    #error(
        "KineticsVerify and KineticsCompare need the Kinetics package's Verify trait: depend on it with .package(url: …, from: …, traits: [\"Verify\"]); in this package, build with --traits Tools"
    )
#endif

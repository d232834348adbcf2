// malloc-interposer comes with the Bench trait (Package.swift): say so,
// before "no such module".
#if !Bench
    #error(
        "KineticsBench needs the Kinetics package's Bench trait: depend on it with .package(url: …, from: …, traits: [\"Bench\"]); in this package, build with --traits Tools"
    )
#endif

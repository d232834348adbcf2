// argument-parser and Plot come with the Tools trait (Package.swift): say
// so, before "no such module".
#if !Tools
    #error(
        "the kinetics command and BenchSuite need the Kinetics package's Tools trait: depend on it with .package(url: …, from: …, traits: [\"Tools\"]); in this package, build with --traits Tools (scripts/kinetics.sh and scripts/test.sh do)"
    )
#endif

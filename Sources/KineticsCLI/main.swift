// The `kinetics` executable; its commands live in KineticsCommandLine.
import KineticsCommandLine

KineticsProgram.main()

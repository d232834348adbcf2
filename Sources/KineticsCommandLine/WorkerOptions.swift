import ArgumentParser

/// How engine libraries are run, for `bench`, `gate` and `verify
/// --engine-library`: each in a worker process of its own (``EngineWorker``)
/// unless `--in-process` says otherwise.
struct WorkerOptions: ParsableArguments {
    @Flag(
        help:
            "Load the engine libraries in this process, not each in a worker process of its own: a crash in one ends the run with no report."
    )
    var inProcess = false
    @Option(
        parsing: .unconditional,
        help:
            "The address space each engine library's worker may take, in GiB, in [1, 1024] (Linux; default half the machine's memory): an engine that allocates without end ends its worker, not the run."
    )
    var workerMemory: Double?

    init() {}

    func validate() throws {
        if let workerMemory, !(workerMemory >= 1 && workerMemory <= 1_024) {
            throw ValidationError("--worker-memory must be a number of GiB in [1, 1024], got \(workerMemory)")
        }
        if inProcess && workerMemory != nil {
            throw ValidationError("--worker-memory limits the workers, and --in-process starts none: give one")
        }
    }

    /// The address space of a worker, in bytes.
    var memory: Double { workerMemory.map { $0 * 1_073_741_824 } ?? EngineWorker.defaultMemory }
}

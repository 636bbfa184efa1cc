/// How a world runs its steps: on how many workers, whether it times their phases, and the
/// thresholds below which a step keeps its work on one thread or asks for no data ahead
/// (tests lower them, so that every path runs on small worlds). None of them changes a result.
struct StepOptions {
    /// `World.workerCount`.
    var workerCount = World.defaultWorkerCount
    /// `World.isProfiling`.
    var isProfiling = false
    /// Worlds with fewer bodies step on one thread: below about 1 000 bodies one thread is
    /// faster than waking others (the result is the same either way).
    var minBodiesForParallel = 1000
    /// From this many contacts, the step asks for contact data and bodies ahead
    /// (`World.defaultPrefetchingContacts`; tests set it to 0 to check that asking changes no
    /// result).
    var prefetchingContacts = World.defaultPrefetchingContacts

    /// The workers of a step of a world of `bodies` bodies: `workerCount`, or 1 for a small world.
    @inline(__always) func workers(bodies: Int) -> Int { bodies < minBodiesForParallel ? 1 : workerCount }

    /// The least work worth splitting for a phase whose usual threshold is `n`; tests that set
    /// `minBodiesForParallel` to 0 split everything, so every parallel path runs on small worlds.
    @inline(__always) func parallelMin(_ n: Int) -> Int { minBodiesForParallel == 0 ? 1 : n }
}

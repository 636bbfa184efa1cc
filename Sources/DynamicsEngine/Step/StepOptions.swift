#if canImport(Glibc)
import Glibc
#endif

/// How a world runs its steps: on how many workers, whether it times their phases, and the
/// thresholds below which a step keeps its work on one thread or asks for no data ahead
/// (tests lower them, so that every path runs on small worlds). None of them changes a result.
struct StepOptions {
    /// `World.workerCount`.
    var workerCount = World.defaultWorkerCount
    /// `World.isProfiling`.
    var isProfiling = false
    /// Worlds with less work — bodies, awake contacts and joints counted together — step on
    /// one thread, the others on `workerCount` (the result is the same either way). On two
    /// cores, pile 1 000 and mix 1 000 (about 3 000) ran at 0.80 × their one-thread speed with a
    /// second thread, chains 40 (about 4 500–6 500) at 0.92–0.99 ×, pile 4 000 and tumbler
    /// (12 000) at 1.21 ×.
    var minWorkForParallel = 8000
    /// From this many contacts, the step asks for contact data and bodies ahead
    /// (`World.defaultPrefetchingContacts`; tests set it to 0 to check that asking changes no
    /// result).
    var prefetchingContacts = World.defaultPrefetchingContacts
    /// Extra preparations of the contact constraints per step (`World.repeatPrepareFromEnvironment`);
    /// 0: none, and the step does not look further.
    var repeatPrepare = StepOptions.environmentRepeatPrepare

    /// `DYNAMICS_REPEAT_PREPARE`, read once per process: a non-negative number, 0 when unset or empty.
    static let environmentRepeatPrepare: Double = {
        #if canImport(Glibc)
        guard let raw = getenv("DYNAMICS_REPEAT_PREPARE") else { return 0 }
        let text = String(cString: raw)
        if text.isEmpty { return 0 }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            preconditionFailure("DYNAMICS_REPEAT_PREPARE must be a non-negative number of extra contact preparations per step (got '\(text)')")
        }
        return value
        #else
        return 0
        #endif
    }()

    /// The workers of a step of a world with `work` bodies, contacts and joints: `workerCount`,
    /// or 1 for a small world.
    @inline(__always) func workers(work: Int) -> Int { work < minWorkForParallel ? 1 : workerCount }

    /// The least work worth splitting for a phase whose usual threshold is `n`; tests that set
    /// `minWorkForParallel` to 0 split everything, so every parallel path runs on small worlds.
    @inline(__always) func parallelMin(_ n: Int) -> Int { minWorkForParallel == 0 ? 1 : n }
}

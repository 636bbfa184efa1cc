#if canImport(Glibc)
import Glibc
#endif

/// Wall time spent in each phase of `World.step`, summed over steps while
/// `World.isProfiling` is on (seconds). Off by default: it costs two clock reads a phase.
public struct StepProfile: Sendable, Equatable {
    /// Finding the new pairs of shapes whose boxes overlap.
    public var broadPhase: Double = 0
    /// Part of `broadPhase`: emitting the pairs from the grids.
    public var pairEmission: Double = 0
    /// Matching this step's pairs with last step's contacts.
    public var merge: Double = 0
    /// `narrowPhase`: computing the contacts' manifolds and their begin and end events;
    /// `islands`: grouping awake bodies into islands; `prepare`: colouring and preparing the
    /// contact and joint constraints (counted inside `solve`'s call, reported apart).
    public var narrowPhase: Double = 0, islands: Double = 0, prepare: Double = 0
    /// Part of `prepare`: colouring the islands and laying out their batches (nothing when the
    /// step kept last step's islands).
    public var coloring: Double = 0
    /// `solve`: the sub-steps, restitution and placing the islands' bodies, without
    /// `prepare`; `finalize`: placing the other bodies, sleep, the continuous step and the
    /// begin events.
    public var solve: Double = 0, finalize: Double = 0
    /// How many steps the sums cover (steps at rest included).
    public var steps: Int = 0
    /// An empty profile (all zero).
    public init() {}

    /// (name, seconds) for every phase, in step order.
    public var phases: [(String, Double)] {
        [("broad_phase", broadPhase), ("merge", merge), ("narrow_phase", narrowPhase), ("islands", islands),
         ("prepare", prepare), ("solve", solve), ("finalize", finalize)]
    }

    @inline(__always) static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

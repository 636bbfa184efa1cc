import Foundation

/// One benchmark result: a (scene, items, threads) configuration measured `repeats` times.
///
/// The JSON keys are snake_case and written sorted. The fields the CLI has always printed
/// (`scene`, `items`, `bodies`, `steps`, `threads`, `steps_per_second`, `escaped`,
/// `kinetic_energy`, `max_height`, …) keep their names; `steps_per_second` is the median over
/// the repeats. Only `scene`, `items`, `threads` and `steps_per_second` are required when a file
/// is read, so results from older versions of the CLI (one object per line) still load.
public struct BenchRecord: Codable, Sendable, Equatable {
    public var scene: String
    public var items: Int
    public var threads: Int
    /// Median steps per second over the repeats.
    public var stepsPerSecond: Double

    public var bodies: Int?
    public var staticBodies: Int?
    /// Joints alive at the end of the run (engine scenes).
    public var joints: Int?
    public var steps: Int?
    public var warmup: Int?
    public var seed: UInt64?
    public var subSteps: Int?
    public var sleepEnabled: Bool?
    /// The rolling resistance every dynamic shape was given (`--rolling-resistance`; nil: none).
    public var rollingResistance: Double?
    public var msPerStep: Double?
    public var stepSeconds: Double?
    public var buildSeconds: Double?
    public var escaped: Int?
    public var kineticEnergy: Double?
    public var maxHeight: Double?
    public var avgHeight: Double?
    public var initialMaxHeight: Double?
    public var touchingContacts: Int?
    public var contacts: Int?
    public var checks: [String: Bool]?
    public var metrics: [String: Double]?
    public var passed: Bool?
    public var failures: [String]?

    // Repeats.
    public var repeats: Int?
    public var stepsPerSecondMedian: Double?
    public var stepsPerSecondMin: Double?
    public var stepsPerSecondMax: Double?
    /// Steps per second of every repeat, in run order.
    public var stepsPerSecondRuns: [Double]?
    /// Touching contacts per timed step, averaged over the timed steps.
    public var contactsPerStep: Double?
    /// Box2D's benchmark figure: the smallest total time over the repeats of the timed steps
    /// after the first one of each repeat (ms). Box2D's `benchmark` app leaves the first step
    /// of a run out of its timing ("can be expensive and skew benchmark").
    public var box2dMilliseconds: Double?

    /// Timed steps per second of CPU time of the whole process (all threads) over the timed
    /// steps, median over the repeats. Unlike `stepsPerSecond` it does not count time the
    /// process waited for a CPU, so it varies less on a shared machine (what `ab` compares).
    public var cpuStepsPerSecond: Double?
    /// Set only when the environment variable `DYNAMICS_REPEAT_PREPARE` made every step
    /// prepare its contacts this many extra times (`World.repeatPrepareFromEnvironment`): a
    /// build slower on purpose, with the same results.
    public var repeatPrepare: Double?

    // Memory (jemalloc statistics).
    /// The allocator the figures come from, e.g. "jemalloc 5.3.0-0-g54eaed1d…".
    public var allocator: String?
    /// Live heap bytes the built scene holds after the timed steps (stats.allocated, minus the
    /// figure before the scene was built).
    public var heapBytes: Int?
    /// `heapBytes / bodies`.
    public var heapBytesPerBody: Double?
    /// Largest jemalloc `stats.resident` seen during the run (sampled after build, warm-up and
    /// each timed loop), in bytes.
    public var residentPeakBytes: Int?
    /// Peak resident set size of the whole process so far (getrusage), in bytes.
    public var maxRssBytes: Int?
    /// Bytes allocated per timed step by the stepping thread (jemalloc `thread.allocated`),
    /// worst repeat. jemalloc counts bytes per thread, not allocation events.
    public var threadAllocBytesPerStep: Double?
    /// Allocation events per timed step in the whole process (jemalloc arena `nrequests`,
    /// small + large, all threads), worst repeat.
    public var processAllocsPerStep: Double?
    /// Change of the process's live heap bytes (`stats.allocated`) over the timed steps,
    /// worst repeat.
    public var processAllocatedDeltaBytes: Int?
    /// Component scenes: allocation events (process) per show / hide toggle, counted over one
    /// extra untimed toggle cycle after the timed steps, worst repeat.
    public var allocsPerToggle: Double?
    /// Component scenes: allocation events per step outside the toggles (clocks, animators,
    /// worlds, view animations) over the same cycle, worst repeat.
    public var allocsPerStepBetweenToggles: Double?
    /// Component scenes: toggles per step in that cycle.
    public var togglesPerStep: Double?
    /// The final world state's digest (`World.stateDigest()`, 16 hex digits), when asked
    /// (`run --state-digest` or a checkpoint option): a resumed run's equals the uninterrupted one's.
    public var stateDigest: String?
    /// Bodies awake at the end of the run (`World.awakeBodyCount`; not for animator scenes).
    public var awakeBodies: Int?
    /// With sleeping on: the simulated seconds (steps of 1/60 s, warm-up included) until no
    /// body was awake, or null when some body was still awake at the end. Absent with
    /// sleeping off and for animator scenes.
    public var secondsToRest: RestTime?
    /// With sleeping on, when the world came to rest: how deep two touching shapes overlapped
    /// at most then (pt; `World.deepestTouchingPenetration`).
    public var penetrationAtRest: Double?
    /// With `--profile`: wall time per timed step in each phase of the engine's step (µs), from
    /// the last repeat (`StepProfile.phases`' names).
    public var phaseMicroseconds: [String: Double]?
    /// The step of the checkpoint a resumed run continued from.
    public var resumedFromStep: Int?

    public init(scene: String, items: Int, threads: Int, stepsPerSecond: Double) {
        self.scene = scene; self.items = items; self.threads = threads
        self.stepsPerSecond = stepsPerSecond
    }

    /// The identity of the configuration: what `compare` matches on.
    public var key: BenchKey { BenchKey(scene: scene, items: items, threads: threads) }

    /// The median steps per second (falls back to `steps_per_second`).
    public var median: Double { stepsPerSecondMedian ?? stepsPerSecond }
    /// The slowest repeat (falls back to the median when the file has no spread).
    public var minimum: Double { stepsPerSecondMin ?? stepsPerSecondRuns?.min() ?? median }
    /// The fastest repeat (falls back to the median when the file has no spread).
    public var maximum: Double { stepsPerSecondMax ?? stepsPerSecondRuns?.max() ?? median }

    enum CodingKeys: String, CodingKey {
        case scene, items, bodies, joints, steps, warmup, threads, seed, escaped, contacts, checks, metrics, passed, failures
        case staticBodies = "static_bodies", subSteps = "sub_steps", sleepEnabled = "sleep_enabled"
        case rollingResistance = "rolling_resistance"
        case stepsPerSecond = "steps_per_second", msPerStep = "ms_per_step", stepSeconds = "step_seconds"
        case buildSeconds = "build_seconds", kineticEnergy = "kinetic_energy", maxHeight = "max_height"
        case avgHeight = "avg_height", initialMaxHeight = "initial_max_height"
        case touchingContacts = "touching_contacts"
        case repeats
        case stepsPerSecondMedian = "steps_per_second_median", stepsPerSecondMin = "steps_per_second_min"
        case stepsPerSecondMax = "steps_per_second_max", stepsPerSecondRuns = "steps_per_second_runs"
        case contactsPerStep = "contacts_per_step", box2dMilliseconds = "box2d_ms"
        case allocator, repeatPrepare = "repeat_prepare", cpuStepsPerSecond = "cpu_steps_per_second"
        case heapBytes = "heap_bytes", heapBytesPerBody = "heap_bytes_per_body"
        case residentPeakBytes = "resident_peak_bytes", maxRssBytes = "max_rss_bytes"
        case threadAllocBytesPerStep = "thread_alloc_bytes_per_step"
        case processAllocsPerStep = "process_allocs_per_step"
        case processAllocatedDeltaBytes = "process_allocated_delta_bytes"
        case allocsPerToggle = "allocs_per_toggle"
        case allocsPerStepBetweenToggles = "allocs_per_step_between_toggles"
        case togglesPerStep = "toggles_per_step"
        case stateDigest = "state_digest"
        case awakeBodies = "awake_bodies", secondsToRest = "seconds_to_rest", phaseMicroseconds = "phase_microseconds"
        case penetrationAtRest = "penetration_at_rest"
        case resumedFromStep = "resumed_from_step"
    }

    /// One line of JSON with sorted keys.
    public func json() throws -> String {
        String(decoding: try BenchJSON.encoder(pretty: false).encode(self), as: UTF8.self)
    }
}

/// What identifies a result across files: scene, size parameter and worker threads.
public struct BenchKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var scene: String
    public var items: Int
    public var threads: Int

    public init(scene: String, items: Int, threads: Int) {
        self.scene = scene; self.items = items; self.threads = threads
    }

    public static func < (a: BenchKey, b: BenchKey) -> Bool {
        (a.scene, a.items, a.threads) < (b.scene, b.items, b.threads)
    }

    public var description: String { "\(scene) \(items) ×\(threads)" }
}

/// The JSON settings shared by every file the CLI writes or reads.
public enum BenchJSON {
    public static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}

/// Median, with the mean of the two middle values for an even count; 0 for no values.
public func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return 0 }
    let m = s.count / 2
    return s.count % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2
}

extension BenchRecord {
    /// One record from single-repeat records of the same configuration measured in turns
    /// (`--interleave`): steps/s is the median of all their runs, min and max span them,
    /// allocation and memory figures are the worst seen, the check passes only if every part
    /// passed; descriptive fields come from the last part.
    /// - Precondition: `parts` is not empty and all share scene, items and threads.
    public static func combining(_ parts: [BenchRecord]) -> BenchRecord {
        precondition(!parts.isEmpty, "BenchRecord.combining: no records")
        var r = parts[parts.count - 1]
        precondition(parts.allSatisfy { $0.key == r.key }, "BenchRecord.combining: records of different configurations")
        let runs = parts.flatMap { $0.stepsPerSecondRuns ?? [$0.stepsPerSecond] }
        let med = BenchSupport.median(runs)
        r.stepsPerSecond = med
        r.stepsPerSecondMedian = med
        r.stepsPerSecondMin = runs.min()
        r.stepsPerSecondMax = runs.max()
        r.stepsPerSecondRuns = runs
        r.repeats = runs.count
        r.msPerStep = med.isFinite && med > 0 ? 1000 / med : 0
        r.stepSeconds = BenchSupport.median(parts.compactMap(\.stepSeconds))
        let cpu = parts.compactMap(\.cpuStepsPerSecond)
        r.cpuStepsPerSecond = cpu.isEmpty ? nil : BenchSupport.median(cpu)
        r.buildSeconds = BenchSupport.median(parts.compactMap(\.buildSeconds))
        r.box2dMilliseconds = parts.compactMap(\.box2dMilliseconds).min()
        r.threadAllocBytesPerStep = parts.compactMap(\.threadAllocBytesPerStep).max()
        r.processAllocsPerStep = parts.compactMap(\.processAllocsPerStep).max()
        r.processAllocatedDeltaBytes = parts.compactMap(\.processAllocatedDeltaBytes).max()
        r.allocsPerToggle = parts.compactMap(\.allocsPerToggle).max()
        r.allocsPerStepBetweenToggles = parts.compactMap(\.allocsPerStepBetweenToggles).max()
        r.togglesPerStep = parts.compactMap(\.togglesPerStep).max()
        r.residentPeakBytes = parts.compactMap(\.residentPeakBytes).max()
        r.maxRssBytes = parts.compactMap(\.maxRssBytes).max()
        var failures: [String] = []
        for p in parts { for f in p.failures ?? [] where !failures.contains(f) { failures.append(f) } }
        r.failures = failures
        r.passed = parts.allSatisfy { $0.passed != false }
        return r
    }
}

/// `BenchRecord.secondsToRest`: a number of seconds, or null in JSON when the world never came
/// to rest.
public struct RestTime: Codable, Sendable, Equatable {
    /// Simulated seconds until no body was awake; nil: never within the run.
    public var seconds: Double?

    public init(seconds: Double?) { self.seconds = seconds }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        seconds = c.decodeNil() ? nil : try c.decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let seconds { try c.encode(seconds) } else { try c.encodeNil() }
    }
}

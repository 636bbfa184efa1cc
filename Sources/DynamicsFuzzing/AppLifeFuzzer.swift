import DynamicsEngine
import DynamicsKit
#if canImport(Glibc)
import Glibc
#endif

/// A randomized "app life" test of the DynamicsKit public API: each sequence builds an animator
/// with a few views, then makes random but legal calls — behaviors of every kind added,
/// changed, removed and re-added, items joining and leaving, views moved, time advanced in
/// every way an app advances it, and changes made from delegate calls, actions and animation
/// completions — checking invariants after every call (finite placement, items kept inside
/// their reference-bounds boundary, balanced and well-formed contact calls, velocities kept
/// across structural changes, pause/resume calls in step with `isRunning`); two cards'
/// `ViewPropertyAnimator`s get random start / pause / scrub / reverse / stop / finish /
/// continue calls (`PropertyAnimatorFuzz`: finite presentations, one completion per run, the
/// model values UIKit leaves). At the end every behavior is removed and every `began` must
/// have had its `ended`.
///
/// Everything is deterministic: a run's seed and a sequence's index give the sequence's own
/// seed, so a failing sequence replays alone (`Violation.replayCommand`).
public struct AppLifeFuzzer {
    /// What to run.
    public struct Options: Sendable {
        /// The default `callsPerSequence` (replay commands mention `--calls` only otherwise).
        public static let defaultCalls = 40
        /// The default run seed.
        public static let defaultSeed: UInt64 = 0xA9_9115_EF00

        /// The run's seed; sequence k uses `AppLifeFuzzer.sequenceSeed(run: seed, index: k)`.
        public var seed: UInt64
        /// How many sequences (with `minutes`, an upper bound; nil: no bound).
        public var sequences: Int?
        /// The mean number of random calls per sequence (each makes between half and 1.5×).
        public var callsPerSequence: Int
        /// Stop starting new sequences after this many minutes (nil: no time limit).
        public var minutes: Double?
        /// Log every call of every sequence through `log`.
        public var verbose: Bool
        /// Stop after this many failing sequences (nil: never).
        public var maxFailingSequences: Int?
        /// Receives progress lines (about every `progressInterval` seconds) and verbose logs.
        public var log: (@Sendable (String) -> Void)?
        /// Seconds between progress lines.
        public var progressInterval: Double
        /// Run each sequence in a forked child process, so that a crash becomes a violation
        /// (kind "crash: …") and the run goes on.
        public var isolate = false

        public init(seed: UInt64 = Options.defaultSeed, sequences: Int? = 2_000, callsPerSequence: Int = Options.defaultCalls,
                    minutes: Double? = nil, verbose: Bool = false, maxFailingSequences: Int? = nil,
                    progressInterval: Double = 5, log: (@Sendable (String) -> Void)? = nil) {
            self.seed = seed
            self.sequences = sequences
            self.callsPerSequence = callsPerSequence
            self.minutes = minutes
            self.verbose = verbose
            self.maxFailingSequences = maxFailingSequences
            self.progressInterval = progressInterval
            self.log = log
        }
    }

    /// One broken invariant (or, at the end of a sequence, a missing `ended`).
    public struct Violation: Sendable, CustomStringConvertible {
        /// The failing sequence's own seed (what `--replay` takes).
        public let sequenceSeed: UInt64
        /// The sequence's `callsPerSequence` (needed to replay it).
        public let callsPerSequence: Int
        /// The call after which it was seen (0-based; -1: during set-up; the number of calls:
        /// the final clean-up).
        public let callIndex: Int
        /// A short category, the same for every occurrence of one kind of failure.
        public let kind: String
        /// What went wrong, in one line.
        public let message: String

        /// The shell command that replays this sequence alone, printing every call.
        public var replayCommand: String {
            AppLifeFuzzer.replayCommand(seed: sequenceSeed, calls: callsPerSequence)
        }

        public var description: String {
            "\(kind): \(message) [sequence \(hex(sequenceSeed)), call \(callIndex)] — replay: \(replayCommand)"
        }
    }

    /// What a run did.
    public struct Report: Sendable {
        public var sequences = 0
        public var calls = 0
        public var violations: [Violation] = []
        /// Sequences with at least one violation.
        public var failingSequences = 0
        public var seconds: Double = 0

        /// One violation per distinct `kind`, in the order first seen.
        public var distinctViolations: [Violation] { FuzzCampaign.firstOfEachKind(violations, kind: \.kind) }
    }

    /// The seed of sequence `index` of a run seeded with `run`.
    public static func sequenceSeed(run: UInt64, index: Int) -> UInt64 {
        FuzzCampaign.caseSeed(run: run, index: index, multiplier: 0xD1B5_4A32_D192_ED03)
    }

    /// The command that replays one sequence.
    public static func replayCommand(seed: UInt64, calls: Int) -> String {
        FuzzCampaign.replayCommand(script: "fuzz-api", seed: seed, option: "--calls", value: calls, default: Options.defaultCalls)
    }

    /// Runs sequences until `options.sequences` are done or `options.minutes` have passed.
    public static func run(_ options: Options) -> Report {
        var report = Report()
        report.seconds = FuzzCampaign.run(
            count: options.sequences, minutes: options.minutes, verbose: options.verbose,
            progressInterval: options.progressInterval, log: options.log,
            runCase: { index, log in
                let seed = sequenceSeed(run: options.seed, index: index)
                let result = options.isolate ? runIsolated(seed: seed, calls: options.callsPerSequence, log: log)
                                             : runSequenceCountingCalls(seed: seed, calls: options.callsPerSequence, log: log)
                report.sequences += 1
                report.calls += result.calls
                return FuzzCampaign.record(result.violations, into: &report.violations, failing: &report.failingSequences,
                                           maxFailing: options.maxFailingSequences)
            },
            progress: { progressLine(report, seconds: $0) })
        return report
    }

    /// Runs one sequence (replayable from its seed alone) and returns what it broke.
    public static func runSequence(seed: UInt64, calls: Int = Options.defaultCalls, log: ((String) -> Void)? = nil) -> [Violation] {
        runSequenceCountingCalls(seed: seed, calls: calls, log: log).violations
    }

    /// `runSequence`, also returning how many calls it made.
    public static func runSequenceCountingCalls(seed: UInt64, calls: Int, log: ((String) -> Void)?) -> (violations: [Violation], calls: Int) {
        CrashReplay.setLine("replay: \(replayCommand(seed: seed, calls: calls))")
        defer { CrashReplay.clear() }
        let sequence = AppLifeSequence(seed: seed, calls: calls, log: log)
        sequence.run()
        return (sequence.violations, sequence.callsMade)
    }

    /// Runs one sequence in a forked child whose stderr and results come back through a pipe;
    /// a child that dies gives one "crash" violation with the runtime's message.
    public static func runIsolated(seed: UInt64, calls: Int, log: ((String) -> Void)?) -> (violations: [Violation], calls: Int) {
        guard let outcome = ForkedChild.run({
            let result = runSequenceCountingCalls(seed: seed, calls: calls, log: log)
            var out = "C\t\(result.calls)\n"
            for v in result.violations { out += "V\t\(v.callIndex)\t\(v.kind)\t\(v.message)\n" }
            return out
        }) else { return runSequenceCountingCalls(seed: seed, calls: calls, log: log) }
        var violations: [Violation] = []
        var made = 0
        var other: [String] = []
        for line in outcome.lines {
            let f = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            if f.count == 2 && f[0] == "C" { made = Int(f[1]) ?? 0 }
            else if f.count == 4 && f[0] == "V" {
                violations.append(Violation(sequenceSeed: seed, callsPerSequence: calls, callIndex: Int(f[1]) ?? -1, kind: f[2], message: f[3]))
            } else {
                other.append(line)
                log?(line)
            }
        }
        if let crash = outcome.crash(otherLines: other) {
            violations.append(Violation(sequenceSeed: seed, callsPerSequence: calls, callIndex: -1, kind: crash.kind,
                                        message: "the sequence's process \(crash.how)"))
        }
        return (violations, made)
    }

    static func progressLine(_ r: Report, seconds s: Double) -> String {
        "fuzz-api: \(r.sequences) sequences, \(r.calls) calls, \(r.violations.count) violations (\(r.failingSequences) failing sequences), \(String(format: "%.1f", s)) s"
    }
}

/// `0x` and 16 hex digits.
func hex(_ v: UInt64) -> String {
    let digits = String(v, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
}

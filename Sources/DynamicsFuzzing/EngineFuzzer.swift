import DynamicsEngine
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A randomized test of the `DynamicsEngine` public API: each world is a closed
/// container of four static boxes (`EngineFuzzWorld.wallThickness` thick) holding random bodies
/// — boxes, circles, ellipses and convex polygons from 1 to 600 pt, densities 0.1–10, friction
/// 0–1.5, restitution 0–1, a few kinematic bodies — and random joints of every type; between
/// steps bodies are created, destroyed, teleported, kicked and launched at 2 000–20 000 pt/s,
/// joints made and broken, sleep switched on and off. Every world runs twice in lockstep, on
/// 1 worker and on N (2…8), with the same calls.
///
/// After every step: every body's placement and velocity finite; no dynamic body's centre of
/// mass beyond the far side of a wall ("escape"; a centre inside a wall but not beyond it is a
/// warning, counted apart); every handle the fuzzer holds valid and the world's body and joint
/// counts equal to what it holds; the two runs bit-identical.
///
/// A share of the worlds (`Options.sleepFraction`) are sleep-heavy instead (`SleepFuzzWorld`):
/// piles, stacks and chains that settle and fall asleep, disturbed while asleep by kicks,
/// teleports, joints, destroyed and new bodies, gravity and settings changes and restored
/// snapshots; each runs three times in lockstep — the shortcut steps of worlds asleep and at
/// rest on 1 worker and on N, and a twin taking every step in full — and the runs must stay
/// bit-identical (`World.stateDigest()`).
///
/// Deterministic: a run's seed and a world's index give the world's own seed, and that seed
/// alone replays the world (`Violation.replayCommand`; a sleep-heavy world's says `--sleep`).
public struct EngineFuzzer {
    /// What to run.
    public struct Options: Sendable {
        /// The default steps per world (replay commands mention `--steps` only otherwise).
        public static let defaultSteps = 240
        /// The default steps per sleep-heavy world: 10 s, time for several rounds of falling
        /// asleep and being woken.
        public static let defaultSleepSteps = 600
        /// The default run seed.
        public static let defaultSeed: UInt64 = 0xE9_6135_F022

        /// The run's seed; world k uses `EngineFuzzer.worldSeed(run: seed, index: k)`.
        public var seed: UInt64
        /// How many worlds (with `minutes`, an upper bound; nil: no bound).
        public var worlds: Int?
        /// Steps of 1/60 s per world.
        public var steps: Int
        /// Stop starting new worlds after this many minutes (nil: no time limit).
        public var minutes: Double?
        /// Log every call of every world through `log`.
        public var verbose: Bool
        /// Stop after this many failing worlds (nil: never).
        public var maxFailingWorlds: Int?
        /// The share of "crowd" worlds: 1 050–1 150 small bodies, enough that `World.step`
        /// really splits its work over the N workers (smaller worlds step on one thread).
        public var crowdFraction: Double
        /// The share of sleep-heavy worlds (`SleepFuzzWorld`), chosen by a draw apart from the
        /// world's own generator; 0: none (the runs before they came), 1: only those.
        public var sleepFraction: Double = 0.15
        /// Steps of 1/60 s per sleep-heavy world.
        public var sleepSteps: Int = Options.defaultSleepSteps
        /// Called on every world right after it is made (the test target uses it to make
        /// small worlds split their work too).
        public var prepareWorld: (@Sendable (World) -> Void)?
        /// Receives progress lines (about every `progressInterval` seconds) and verbose logs.
        public var log: (@Sendable (String) -> Void)?
        /// Seconds between progress lines.
        public var progressInterval: Double
        /// Run each world in a forked child process, so that a crash becomes a violation
        /// (kind "crash: …") and the run goes on.
        public var isolate = false
        /// Wall-clock seconds after which a world stops early (counted as a warning, its seed
        /// listed); nil: no limit. Bounds a run when some worlds get very slow.
        public var worldTimeLimit: Double? = 20

        public init(seed: UInt64 = Options.defaultSeed, worlds: Int? = 2_000, steps: Int = Options.defaultSteps,
                    minutes: Double? = nil, verbose: Bool = false, maxFailingWorlds: Int? = nil,
                    crowdFraction: Double = 0.04, prepareWorld: (@Sendable (World) -> Void)? = nil,
                    progressInterval: Double = 5, log: (@Sendable (String) -> Void)? = nil) {
            self.seed = seed
            self.worlds = worlds
            self.steps = steps
            self.minutes = minutes
            self.verbose = verbose
            self.maxFailingWorlds = maxFailingWorlds
            self.crowdFraction = crowdFraction
            self.prepareWorld = prepareWorld
            self.progressInterval = progressInterval
            self.log = log
        }
    }

    /// One broken invariant.
    public struct Violation: Sendable, CustomStringConvertible {
        /// The failing world's own seed (what `--replay` takes).
        public let worldSeed: UInt64
        /// The world's steps (needed to replay it).
        public let steps: Int
        /// The step after which it was seen (0-based; -1: during set-up or a crash).
        public let step: Int
        /// A short category, the same for every occurrence of one kind of failure.
        public let kind: String
        /// What went wrong, in one line.
        public let message: String

        /// Seen in a sleep-heavy world (its replay needs `--sleep`).
        public let isSleepWorld: Bool

        public init(worldSeed: UInt64, steps: Int, step: Int, kind: String, message: String, isSleepWorld: Bool = false) {
            self.worldSeed = worldSeed; self.steps = steps; self.step = step; self.kind = kind; self.message = message
            self.isSleepWorld = isSleepWorld
        }

        /// The shell command that replays this world alone, printing every call.
        public var replayCommand: String { EngineFuzzer.replayCommand(seed: worldSeed, steps: steps, sleep: isSleepWorld) }

        public var description: String {
            "\(kind): \(message) [world \(hex(worldSeed)), step \(step)] — replay: \(replayCommand)"
        }
    }

    /// What one world did.
    public struct WorldResult: Sendable {
        public var violations: [Violation] = []
        public var steps = 0
        /// Warnings by kind (body-steps), e.g. "in-wall": a dynamic centre inside a wall.
        public var warnings: [String: Int] = [:]
        /// `World.continuousHits` of the 1-worker run at the end.
        public var continuousHits = 0
        /// Bodies and joints the world held at its largest.
        public var maxBodies = 0
        public var jointsMade = 0
        public var isCrowd = false
        /// A sleep-heavy world (`SleepFuzzWorld`); then: steps its 1-worker run took as a
        /// world asleep (doing nothing), steps after which every body was asleep, bursts of
        /// calls' events, and snapshots restored.
        public var isSleep = false
        public var asleepSteps = 0
        public var allAsleepSteps = 0
        public var events = 0
        public var restores = 0
        /// Wall-clock seconds the world took, and (isolated runs) its process's peak resident
        /// memory in MB (0 when not measured).
        public var seconds: Double = 0
        public var peakResidentMB: Double = 0
    }

    /// What a run did.
    public struct Report: Sendable {
        public var worlds = 0
        public var steps = 0
        public var violations: [Violation] = []
        /// Worlds with at least one violation.
        public var failingWorlds = 0
        /// Warnings by kind (body-steps) and the worlds that had each kind, with a few seeds.
        public var warnings: [String: Int] = [:]
        public var warningWorlds: [String: Int] = [:]
        public var warningSeeds: [String: [UInt64]] = [:]
        public var continuousHits = 0
        public var crowdWorlds = 0
        public var jointsMade = 0
        /// Sleep-heavy worlds, and their totals (`WorldResult`).
        public var sleepWorlds = 0
        public var sleepSteps = 0
        public var asleepSteps = 0
        public var allAsleepSteps = 0
        public var events = 0
        public var restores = 0
        public var seconds: Double = 0

        /// One violation per distinct `kind`, in the order first seen.
        public var distinctViolations: [Violation] { FuzzCampaign.firstOfEachKind(violations, kind: \.kind) }
    }

    /// A world slower than this (seconds) or with a larger peak resident memory (MB, isolated
    /// runs) is reported as a warning.
    public static let slowWorldSeconds = 5.0
    public static let bigWorldMB = 400.0

    /// The seed of world `index` of a run seeded with `run`.
    public static func worldSeed(run: UInt64, index: Int) -> UInt64 {
        FuzzCampaign.caseSeed(run: run, index: index, multiplier: 0x9FB2_1C65_1E98_DF25)
    }

    /// Is world `seed` a crowd world (drawn apart from the world's own generator, so a caller
    /// can skip crowd worlds and still replay the others with the default fraction)?
    public static func isCrowd(seed: UInt64, crowdFraction: Double = 0.04) -> Bool {
        var s = SplitMix64(seed: seed ^ 0xC0_0D0C_0D0C)
        return Double(s.next() >> 11) * 0x1p-53 < crowdFraction
    }

    /// Is world `seed` a sleep-heavy world in a run whose share of them is `fraction` (drawn
    /// apart from the world's own generator and from the crowd draw)?
    public static func isSleepWorld(seed: UInt64, fraction: Double = 0.15) -> Bool {
        if fraction >= 1 { return true }
        var s = SplitMix64(seed: seed ^ 0x51_EE95_1EE9)
        return Double(s.next() >> 11) * 0x1p-53 < fraction
    }

    /// The command that replays one world (`sleep`: a sleep-heavy one).
    public static func replayCommand(seed: UInt64, steps: Int, sleep: Bool = false) -> String {
        FuzzCampaign.replayCommand(script: "fuzz", seed: seed, flags: sleep ? "--sleep" : "", option: "--steps", value: steps,
                                   default: sleep ? Options.defaultSleepSteps : Options.defaultSteps)
    }

    /// Runs worlds until `options.worlds` are done or `options.minutes` have passed.
    public static func run(_ options: Options) -> Report {
        var report = Report()
        report.seconds = FuzzCampaign.run(
            count: options.worlds, minutes: options.minutes, verbose: options.verbose,
            progressInterval: options.progressInterval, log: options.log,
            runCase: { index, log in
                let seed = worldSeed(run: options.seed, index: index)
                let sleep = options.sleepFraction > 0 && isSleepWorld(seed: seed, fraction: options.sleepFraction)
                let steps = sleep ? options.sleepSteps : options.steps
                var result = options.isolate
                    ? runIsolated(seed: seed, steps: steps, sleep: sleep, crowdFraction: options.crowdFraction, prepare: options.prepareWorld, timeLimit: options.worldTimeLimit, log: log)
                    : runWorld(seed: seed, steps: steps, sleep: sleep, crowdFraction: options.crowdFraction, prepare: options.prepareWorld, timeLimit: options.worldTimeLimit, log: log)
                // Slow or memory-hungry worlds are warnings (the seeds are listed).
                if result.seconds > Self.slowWorldSeconds { result.warnings["slow world (> \(Int(Self.slowWorldSeconds)) s)", default: 0] += 1 }
                if result.peakResidentMB > Self.bigWorldMB { result.warnings["big world (peak resident > \(Int(Self.bigWorldMB)) MB)", default: 0] += 1 }
                report.worlds += 1
                report.steps += result.steps
                report.continuousHits += result.continuousHits
                report.jointsMade += result.jointsMade
                if result.isCrowd { report.crowdWorlds += 1 }
                if result.isSleep {
                    report.sleepWorlds += 1; report.sleepSteps += result.steps; report.asleepSteps += result.asleepSteps
                    report.allAsleepSteps += result.allAsleepSteps; report.events += result.events; report.restores += result.restores
                }
                for (k, n) in result.warnings {
                    report.warnings[k, default: 0] += n
                    report.warningWorlds[k, default: 0] += 1
                    if report.warningSeeds[k, default: []].count < 5 { report.warningSeeds[k, default: []].append(seed) }
                }
                return FuzzCampaign.record(result.violations, into: &report.violations, failing: &report.failingWorlds,
                                           maxFailing: options.maxFailingWorlds)
            },
            progress: { progressLine(report, seconds: $0) })
        return report
    }

    /// Runs one world (replayable from its seed alone; `sleep`: a sleep-heavy world) and
    /// returns what it broke.
    public static func runWorld(seed: UInt64, steps: Int = Options.defaultSteps, sleep: Bool = false, crowdFraction: Double = 0.04,
                                prepare: (@Sendable (World) -> Void)? = nil, timeLimit: Double? = nil,
                                log: ((String) -> Void)? = nil) -> WorldResult {
        CrashReplay.setLine("replay: \(replayCommand(seed: seed, steps: steps, sleep: sleep))")
        defer { CrashReplay.clear() }
        let clock = ContinuousClock()
        let start = clock.now
        var r: WorldResult
        if sleep {
            let world = SleepFuzzWorld(seed: seed, steps: steps, prepare: prepare, log: log)
            world.timeLimit = timeLimit
            world.run()
            r = world.result
        } else {
            let world = EngineFuzzWorld(seed: seed, steps: steps, crowdFraction: crowdFraction, prepare: prepare, log: log)
            world.timeLimit = timeLimit
            world.run()
            r = world.result
        }
        r.seconds = FuzzCampaign.seconds(clock.now - start)
        return r
    }

    /// Runs one world in a forked child whose stderr and results come back through a pipe; a
    /// child that dies gives one "crash" violation with the runtime's message.
    public static func runIsolated(seed: UInt64, steps: Int, sleep: Bool = false, crowdFraction: Double,
                                   prepare: (@Sendable (World) -> Void)?, timeLimit: Double? = nil, log: ((String) -> Void)?) -> WorldResult {
        guard let outcome = ForkedChild.run({
            let r = runWorld(seed: seed, steps: steps, sleep: sleep, crowdFraction: crowdFraction, prepare: prepare, timeLimit: timeLimit, log: log)
            var out = "S\t\(r.steps)\t\(r.continuousHits)\t\(r.jointsMade)\t\(r.isCrowd ? 1 : 0)\t\(r.seconds)\n"
            if r.isSleep { out += "Z\t\(r.asleepSteps)\t\(r.allAsleepSteps)\t\(r.events)\t\(r.restores)\n" }
            for (k, n) in r.warnings { out += "W\t\(n)\t\(k)\n" }
            for v in r.violations { out += "V\t\(v.step)\t\(v.kind)\t\(v.message)\n" }
            return out
        }) else { return runWorld(seed: seed, steps: steps, sleep: sleep, crowdFraction: crowdFraction, prepare: prepare, timeLimit: timeLimit, log: log) }
        var r = WorldResult()
        r.isSleep = sleep
        r.peakResidentMB = outcome.peakResidentMB
        var other: [String] = []
        for line in outcome.lines {
            let f = line.split(separator: "\t", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
            if f.count == 6 && f[0] == "S" {
                r.steps = Int(f[1]) ?? 0; r.continuousHits = Int(f[2]) ?? 0; r.jointsMade = Int(f[3]) ?? 0; r.isCrowd = f[4] == "1"
                r.seconds = Double(f[5]) ?? 0
            } else if f.count == 5 && f[0] == "Z" {
                r.asleepSteps = Int(f[1]) ?? 0; r.allAsleepSteps = Int(f[2]) ?? 0; r.events = Int(f[3]) ?? 0; r.restores = Int(f[4]) ?? 0
            } else if f.count == 3 && f[0] == "W" {
                r.warnings[f[2], default: 0] += Int(f[1]) ?? 0
            } else if f.count >= 4 && f[0] == "V" {
                let message = f.dropFirst(3).joined(separator: "\t")
                r.violations.append(Violation(worldSeed: seed, steps: steps, step: Int(f[1]) ?? -1, kind: f[2], message: message, isSleepWorld: sleep))
            } else {
                other.append(line)
                log?(line)
            }
        }
        if let crash = outcome.crash(otherLines: other) {
            r.violations.append(Violation(worldSeed: seed, steps: steps, step: -1, kind: crash.kind + (sleep ? " [sleep world]" : ""),
                                          message: "the world's process \(crash.how)", isSleepWorld: sleep))
        }
        return r
    }

    static func progressLine(_ r: Report, seconds s: Double) -> String {
        "fuzz: \(r.worlds) worlds, \(r.steps) steps, \(r.violations.count) violations (\(r.failingWorlds) failing worlds), \(String(format: "%.1f", s)) s"
    }
}

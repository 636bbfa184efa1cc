import Testing
@testable import DynamicsEngine
import DynamicsFuzzing
#if canImport(Glibc)
import Glibc
#endif

/// The engine fuzzer (`EngineFuzzer`, `dynamics-bench fuzz`) on fixed-seed slices, run in a
/// child process (an exit test) so that a crash prints its replay line into this test's failure.
/// The slice skips the "crowd" worlds (over 1 000 bodies: slow in a debug build) and instead
/// makes its small worlds split their work as a big one would (`StepOptions.minWorkForParallel = 0`), so
/// the 1-worker and N-worker runs really take different paths. A second slice runs the first
/// sleep-heavy worlds (`dynamics-bench fuzz --sleep`): their shortcut steps — worlds asleep,
/// steps at rest — are taken in this debug build too, against a twin taking every step in full.
@Suite("EngineFuzz: random engine worlds in a closed container", .serialized)
struct EngineFuzzTests {
    /// Worlds in the slice, their steps, and the run seed their own seeds come from.
    static let sliceWorlds = 6
    static let sliceSteps = EngineFuzzer.Options.defaultSteps
    static let sliceSeed: UInt64 = EngineFuzzer.Options.defaultSeed

    /// The slice's world seeds: the first non-crowd worlds of the default run.
    static var sliceWorldSeeds: [UInt64] {
        (0..<200).lazy.map { EngineFuzzer.worldSeed(run: sliceSeed, index: $0) }
            .filter { !EngineFuzzer.isCrowd(seed: $0) }.prefix(sliceWorlds).map { $0 }
    }

    /// Violation kinds the engine is known to break: reported
    /// as known issues, not failures, so the slice still guards everything else. Remove a kind
    /// once the engine keeps it.
    static let knownKinds: [String] = []
    static let knownPrefix = "known: "

    /// The sleep-heavy slice: the first worlds of `dynamics-bench fuzz --sleep` (two of them
    /// small worlds that take steps at rest; snapshots restored in all), at their full length.
    static let sleepSliceWorlds = 4
    static let sleepSliceSteps = EngineFuzzer.Options.defaultSleepSteps
    static var sleepSliceWorldSeeds: [UInt64] { (0..<sleepSliceWorlds).map { EngineFuzzer.worldSeed(run: sliceSeed, index: $0) } }

    static func runSleepSlice() -> Never {
        let out = ChildReport(name: "engine-sleep-slice")
        let clock = ContinuousClock()
        let start = clock.now
        var steps = 0, violations = 0, asleep = 0, restores = 0
        for seed in sleepSliceWorldSeeds {
            let r = EngineFuzzer.runWorld(seed: seed, steps: sleepSliceSteps, sleep: true, prepare: { $0.options.minWorkForParallel = 0 })
            steps += r.steps
            asleep += r.asleepSteps
            restores += r.restores
            violations += r.violations.count
            for v in r.violations.prefix(5) { out.line(AppLifeTests.violationPrefix + v.description) }
        }
        // The slice is there for the shortcut steps: it must take some.
        if asleep == 0 { out.line(AppLifeTests.violationPrefix + "no world of the sleep-heavy slice took an asleep step"); violations += 1 }
        out.line("worlds: \(sleepSliceWorlds), steps: \(steps), asleep steps: \(asleep), snapshots restored: \(restores), violations: \(violations), \(clock.now - start)")
        exit(violations == 0 ? 0 : 1)
    }

    static func runSlice() -> Never {
        let out = ChildReport(name: "engine-slice")
        let clock = ContinuousClock()
        let start = clock.now
        var steps = 0, violations = 0, known = 0, hits = 0
        for seed in sliceWorldSeeds {
            let r = EngineFuzzer.runWorld(seed: seed, steps: sliceSteps, prepare: { $0.options.minWorkForParallel = 0 })
            steps += r.steps
            hits += r.continuousHits
            let isKnown = { (v: EngineFuzzer.Violation) in knownKinds.contains { v.kind.hasPrefix($0) } }
            let strict = r.violations.filter { !isKnown($0) }
            violations += strict.count
            known += r.violations.count - strict.count
            for v in strict.prefix(5) { out.line(AppLifeTests.violationPrefix + v.description) }
            for v in r.violations.filter(isKnown).prefix(2) { out.line(knownPrefix + v.description) }
        }
        out.line("worlds: \(sliceWorlds), steps: \(steps), violations: \(violations) (+ \(known) known), continuous hits: \(hits), \(clock.now - start)")
        exit(violations == 0 ? 0 : 1)
    }

    @Test("a fixed-seed slice of random engine worlds: finite, inside the container, valid handles, 1 = N workers")
    func fixedSeedSlice() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            EngineFuzzTests.runSlice()
        }
        // Known violations (the child passed, so ChildReport would not read its report).
        let path = ChildReport.path(name: "engine-slice", parent: getpid())
        if result != nil, let text = try? String(contentsOfFile: path, encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix(Self.knownPrefix) {
                withKnownIssue { Issue.record(Comment(rawValue: "engine fuzz slice: " + line.dropFirst(Self.knownPrefix.count))) }
            }
        }
        ChildReport.check(result, name: "engine-slice", what: "engine fuzz slice (seed 0x\(String(Self.sliceSeed, radix: 16)), \(Self.sliceWorlds) worlds)")
    }

    @Test("a fixed-seed slice of sleep-heavy worlds: asleep and rest steps bit for bit with full steps, awake counts right, sleepers still, snapshots continue")
    func sleepSlice() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            EngineFuzzTests.runSleepSlice()
        }
        ChildReport.check(result, name: "engine-sleep-slice", what: "engine sleep-heavy fuzz slice (seed 0x\(String(Self.sliceSeed, radix: 16)), \(Self.sleepSliceWorlds) worlds)")
    }

    @Test("replaying a world gives the same calls", arguments: [false, true])
    func replayIsDeterministic(sleep: Bool) {
        let seed = sleep ? Self.sleepSliceWorldSeeds[0] : Self.sliceWorldSeeds[0]
        var a: [String] = [], b: [String] = []
        _ = EngineFuzzer.runWorld(seed: seed, steps: sleep ? 120 : 20, sleep: sleep, log: { a.append($0) })
        _ = EngineFuzzer.runWorld(seed: seed, steps: sleep ? 120 : 20, sleep: sleep, log: { b.append($0) })
        #expect(a.count > 5)
        #expect(a == b)
    }

    @Test("a sleep-heavy world's replay command says --sleep (and its steps only when not the default)")
    func sleepReplayCommand() {
        let v = EngineFuzzer.Violation(worldSeed: 0x1234, steps: EngineFuzzer.Options.defaultSleepSteps, step: 3, kind: "k", message: "m", isSleepWorld: true)
        #expect(v.replayCommand == "./scripts/fuzz --replay 0x0000000000001234 --sleep --verbose")
        let w = EngineFuzzer.Violation(worldSeed: 0x1234, steps: 100, step: 3, kind: "k", message: "m")
        #expect(w.replayCommand == "./scripts/fuzz --replay 0x0000000000001234 --verbose --steps 100")
    }
}

import Testing
@testable import DynamicsEngine
import DynamicsFuzzing
#if canImport(Glibc)
import Glibc
#endif

/// The engine fuzzer (`EngineFuzzer`, `dynamics-bench fuzz`) on a fixed-seed slice, run in a
/// child process (an exit test) so that a crash prints its replay line into this test's failure.
/// The slice skips the "crowd" worlds (over 1 000 bodies: slow in a debug build) and instead
/// makes its small worlds split their work as a big one would (`StepOptions.minBodiesForParallel = 0`), so
/// the 1-worker and N-worker runs really take different paths.
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

    static func runSlice() -> Never {
        let out = ChildReport(name: "engine-slice")
        let clock = ContinuousClock()
        let start = clock.now
        var steps = 0, violations = 0, known = 0, hits = 0
        for seed in sliceWorldSeeds {
            let r = EngineFuzzer.runWorld(seed: seed, steps: sliceSteps, prepare: { $0.options.minBodiesForParallel = 0 })
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

    @Test("replaying a world gives the same calls")
    func replayIsDeterministic() {
        let seed = Self.sliceWorldSeeds[0]
        var a: [String] = [], b: [String] = []
        _ = EngineFuzzer.runWorld(seed: seed, steps: 20, log: { a.append($0) })
        _ = EngineFuzzer.runWorld(seed: seed, steps: 20, log: { b.append($0) })
        #expect(a.count > 5)
        #expect(a == b)
    }
}

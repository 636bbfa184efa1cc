import BenchSupport
import Testing

/// `--interleave` measures each configuration in single-repeat turns and combines the turns.
@Suite("Interleaved repeats")
struct InterleaveTests {
    static func part(_ rate: Double, allocs: Double, rss: Int, passed: Bool = true, failure: String? = nil) -> BenchRecord {
        var r = BenchRecord(scene: "pile", items: 1000, threads: 2, stepsPerSecond: rate)
        r.stepsPerSecondRuns = [rate]
        r.repeats = 1
        r.processAllocsPerStep = allocs
        r.maxRssBytes = rss
        r.stepSeconds = 300 / rate
        r.passed = passed
        r.failures = failure.map { [$0] } ?? []
        return r
    }

    @Test func combinesRunsIntoMedianSpreadAndWorstFigures() {
        let r = BenchRecord.combining([Self.part(100, allocs: 20, rss: 7), Self.part(140, allocs: 25, rss: 9),
                                       Self.part(120, allocs: 18, rss: 8)])
        #expect(r.stepsPerSecondRuns == [100, 140, 120])
        #expect(r.stepsPerSecond == 120 && r.stepsPerSecondMedian == 120)
        #expect(r.stepsPerSecondMin == 100 && r.stepsPerSecondMax == 140)
        #expect(r.repeats == 3)
        #expect(abs((r.msPerStep ?? 0) - 1000.0 / 120) < 1e-9)
        #expect(r.processAllocsPerStep == 25 && r.maxRssBytes == 9)
        #expect(r.passed == true && r.failures == [])
    }

    @Test func oneFailedTurnFailsTheConfiguration() {
        let r = BenchRecord.combining([Self.part(100, allocs: 0, rss: 1),
                                       Self.part(90, allocs: 0, rss: 1, passed: false, failure: "escaped 3"),
                                       Self.part(95, allocs: 0, rss: 1, passed: false, failure: "escaped 3")])
        #expect(r.passed == false)
        #expect(r.failures == ["escaped 3"])
        #expect(r.stepsPerSecond == 95)
    }
}

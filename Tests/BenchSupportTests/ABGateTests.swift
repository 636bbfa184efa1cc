import BenchSupport
import Foundation
import Testing

/// The statistics of `dynamics-bench ab` against textbook values, and its rules on made-up runs.
@Suite struct RankStatisticsTests {
    @Test func exactDistributionMatchesHandCounts() {
        // m = n = 2: the 6 arrangements give U = 0, 1, 2, 2, 3, 4.
        #expect(MannWhitney.distribution(2, 2) == [1, 1, 2, 1, 1])
        // m = n = 3 (20 arrangements), the textbook table of counts.
        #expect(MannWhitney.distribution(3, 3) == [1, 1, 2, 3, 3, 3, 3, 2, 1, 1])
        // Asymmetric sizes: symmetric in U, and the counts sum to C(m + n, m).
        let d = MannWhitney.distribution(7, 4)
        #expect(d.count == 29 && d.reduce(0, +) == 330 && d == d.reversed())
        #expect(MannWhitney.distribution(10, 10).reduce(0, +) == 184_756)
        #expect(MannWhitney.distribution(0, 3) == [1])
    }

    /// The printed tables of critical values of U (two-tailed; reject when U ≤ the value).
    @Test func criticalValuesMatchPrintedTables() {
        let table05: [(Int, Int, Int)] = [(5, 5, 2), (6, 6, 5), (8, 8, 13), (10, 10, 23), (6, 9, 10), (20, 20, 127)]
        for (m, n, u) in table05 { #expect(MannWhitney.criticalValue(m, n, alpha: 0.05) == u, "\(m),\(n)") }
        let table01: [(Int, Int, Int)] = [(5, 5, 0), (6, 6, 2), (8, 8, 7), (10, 10, 16), (6, 9, 5), (20, 20, 105)]
        for (m, n, u) in table01 { #expect(MannWhitney.criticalValue(m, n, alpha: 0.01) == u, "\(m),\(n)") }
        // 3 against 3 cannot reach 5 % two-sided (the smallest two-sided p is 2/20).
        #expect(MannWhitney.criticalValue(3, 3, alpha: 0.05) == nil)
    }

    @Test func exactPValuesOfSmallSamplesMatchTheirArrangementCounts() {
        // Complete separation of 3 and 3: U = 9, one arrangement in 20.
        let t = MannWhitney([1, 2, 3], [4, 5, 6])
        #expect(t.exact && t.u == 9)
        #expect(abs(t.upperTail - 1.0 / 20) < 1e-12 && t.lowerTail == 1)
        #expect(abs(t.twoSided - 0.1) < 1e-12)
        // The other direction, and order within a sample does not matter.
        let r = MannWhitney([6, 4, 5], [3, 1, 2])
        #expect(r.u == 0 && abs(r.lowerTail - 1.0 / 20) < 1e-12)
        // 10 against 10, every candidate below every baseline: p = 2 / C(20, 10).
        let s = MannWhitney((0..<10).map { 100 + Double($0) }, (0..<10).map { 50 + Double($0) })
        #expect(s.u == 0 && abs(s.twoSided - 2.0 / 184_756) < 1e-15)
    }

    /// Ties: normal approximation with the tie-corrected variance and continuity correction
    /// (the values scipy.stats.mannwhitneyu(y, x, method="asymptotic") gives: U = 54.5,
    /// greater 0.009553591120506733, less 0.9928562551821358, two-sided 0.019107182241013466).
    @Test func tiedSamplesUseCorrectedNormalApproximation() {
        let x: [Double] = [1, 2, 2, 3, 4, 4, 4, 5], y: [Double] = [2, 4, 5, 5, 6, 7, 7, 8]
        let t = MannWhitney(x, y)
        #expect(!t.exact && t.u == 54.5)
        #expect(abs(t.upperTail - 0.009553591120506733) < 1e-9)
        #expect(abs(t.lowerTail - 0.9928562551821358) < 1e-9)
        #expect(abs(t.twoSided - 0.019107182241013466) < 1e-9)
        // All values tied: no evidence.
        #expect(MannWhitney([3, 3, 3], [3, 3]).twoSided == 1)
    }

    @Test func normalQuantileAndCDFMatchReferenceValues() {
        #expect(abs(MannWhitney.normalQuantile(0.975) - 1.959963984540054) < 1e-9)
        #expect(abs(MannWhitney.normalQuantile(0.995) - 2.5758293035489) < 1e-9)
        #expect(abs(MannWhitney.normalQuantile(0.001) + 3.090232306167813) < 1e-9)
        #expect(abs(MannWhitney.normalCDF(1.959963984540054) - 0.975) < 1e-12)
        #expect(abs(MannWhitney.normalCDF(0) - 0.5) < 1e-15)
    }

    /// y = x + 3 for x = 1…10: the 100 differences are 3 + (j − i), value 3 + k occurring 10 − |k|
    /// times. The estimate is 3; with the critical value 23 the 95 % interval is the 24th and
    /// 77th smallest difference, 0 and 6 (cumulative counts 21 up to k = −4, 28 up to k = −3).
    @Test func hodgesLehmannByHand() {
        let x = (1...10).map(Double.init), y = x.map { $0 + 3 }
        let hl = HodgesLehmann(x, y)
        #expect(hl.estimate == 3 && hl.rank == 24)
        #expect(hl.lower == 0 && hl.upper == 6)
        // Too few values for the level: an unbounded interval, not a made-up one.
        let small = HodgesLehmann([1, 2], [3, 4])
        #expect(small.rank == 0 && small.lower == -.infinity && small.upper == .infinity)
    }
}

@Suite struct ABGateRuleTests {
    let config = ABConfig(scene: "pile", items: 1000, threads: 1)
    let five = RegressionThreshold(fraction: 0.05)
    /// Baseline rounds: 1000 … 1045 steps/s.
    var base: [Double] { (0..<10).map { 1000 + 5 * Double($0) } }

    @Test func tenPercentSlowerRegresses() {
        let row = ABGate.judge(config, baseline: base, candidate: base.map { $0 * 0.9 }, threshold: five)
        #expect(row.verdict == .regressed)
        #expect(abs(row.ratio - 0.9) < 0.01 && row.ratioLow < 0.9 + 1e-9 && row.ratioHigh > 0.9 - 1e-9)
        #expect(row.pValue < 0.01 && row.exact)
        #expect(ABGate.exitStatus([row]) == 1)
    }

    @Test func smallSlowdownWithinThresholdPasses() {
        let row = ABGate.judge(config, baseline: base, candidate: base.map { $0 * 0.98 }, threshold: five)
        #expect(row.verdict == .ok && abs(row.ratio - 0.98) < 0.01)
        #expect(ABGate.exitStatus([row]) == 0)
        // The same slowdown fails a 1 % threshold (the rounds agree: it is significant).
        let strict = ABGate.judge(config, baseline: base, candidate: base.map { $0 * 0.95 },
                                  threshold: RegressionThreshold(fraction: 0.01))
        #expect(strict.verdict == .regressed)
    }

    @Test func identicalRunsPass() {
        let row = ABGate.judge(config, baseline: base, candidate: base, threshold: five)
        #expect(row.verdict == .ok && row.ratio == 1 && row.pValue == 1)
    }

    @Test func fasterIsReportedAndPasses() {
        let row = ABGate.judge(config, baseline: base, candidate: base.map { $0 * 1.2 }, threshold: five)
        #expect(row.verdict == .faster && ABGate.exitStatus([row]) == 0)
        // Much faster but spread: the interval is wide, yet entirely above 1 − 5 %: passes.
        let spread = (0..<10).map { $0 % 2 == 0 ? 1300.0 : 1600.0 }
        let wide = ABGate.judge(config, baseline: base, candidate: spread, threshold: five)
        #expect(wide.spread > 0.1 && wide.ratioLow > 0.95 && wide.verdict == .faster, "\(wide)")
    }

    /// Rounds that swing ±40 %: the 95 % interval is far wider than 2 × 5 %, so neither a pass
    /// nor a regression can be claimed.
    @Test func wildSpreadIsInconclusive() {
        let wild = (0..<10).map { $0 % 2 == 0 ? 600.0 : 1400.0 }
        let row = ABGate.judge(config, baseline: base, candidate: wild, threshold: five)
        #expect(row.verdict == .inconclusive && row.spread > 0.1)
        #expect(ABGate.exitStatus([row]) == 3)
        // A regression elsewhere outranks it.
        let bad = ABGate.judge(config, baseline: base, candidate: base.map { $0 * 0.8 }, threshold: five)
        #expect(ABGate.exitStatus([row, bad]) == 1)
        #expect(ABGate.render(ABReport(baseline: "a", candidate: "b", rounds: 10, steps: 300, maxRegression: 0.05,
                                       machine: nil, results: [row])).contains("INCONCLUSIVE: the rounds disagree"))
    }

    /// Slower than the threshold by the estimate, but the rounds overlap too much for p < 0.01:
    /// passes, labelled as such.
    @Test func slowerButNotSignificantPasses() {
        let b: [Double] = [100, 101, 102, 103, 104, 105, 106, 107, 108, 109]
        // Two candidate rounds above every baseline round: U = 20, exact two-sided p = 0.0232
        // (scipy: mannwhitneyu(c, b, method="exact")); ratio 0.868, 95 % interval 0.833–0.922.
        let c: [Double] = [85, 86, 87, 89, 90, 91, 93, 94, 110, 111]
        let row = ABGate.judge(config, baseline: b, candidate: c, threshold: RegressionThreshold(fraction: 0.05))
        #expect(row.u == 20 && abs(row.pValue - 0.023230639329710537) < 1e-9)
        #expect(abs(row.ratio - 0.8679118780368107) < 1e-9)
        #expect(abs(row.ratioLow - 0.8333333333333338) < 1e-9 && abs(row.ratioHigh - 0.9215686274509807) < 1e-9)
        #expect(row.verdict == .slowerNotSignificant)
        #expect(ABGate.exitStatus([row]) == 0)
    }

    @Test func orderAlternatesEachRound() {
        #expect(ABGate.order(round: 0) == [.baseline, .candidate])
        #expect(ABGate.order(round: 1) == [.candidate, .baseline])
        #expect(ABGate.order(round: 6) == [.baseline, .candidate])
    }

    @Test func sceneListsParseBadOnesAreUsageErrorsAndRunsGetTheirArguments() throws {
        let s = try ABGate.parseScenes("pile:1000, pyramid:20,mix,pile:1000")
        #expect(s.map(\.scene) == ["pile", "pyramid", "mix"] && s.map(\.items) == [1000, 20, nil])
        for bad in ["", "pile:", "pile:0", "pile:x", ":5", "a:1:2", "pile,,mix"] {
            #expect(throws: BenchUsageError.self, "\(bad)") { try ABGate.parseScenes(bad) }
        }
        #expect(ABConfig(scene: "mix", items: nil, threads: 2).runArguments(steps: 50)
                == ["run", "mix", "--steps", "50", "--threads", "2", "--repeat", "1", "--format", "json"])
    }

    @Test func reportRoundTripsAsJSON() throws {
        let row = ABGate.judge(config, baseline: base, candidate: base.map { $0 * 0.9 }, threshold: five)
        let report = ABReport(date: "d", baseline: "a", candidate: "b", rounds: 10, steps: 300, maxRegression: 0.05,
                              machine: nil, results: [row])
        let data = try report.encoded()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format"] as? String == "dynamics-bench-ab" && object["exit_status"] as? Int == 1)
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.first?["verdict"] as? String == "regressed" && results.first?["ratio_ci95_low"] != nil)
        #expect(try JSONDecoder().decode(ABReport.self, from: data) == report)
    }
}

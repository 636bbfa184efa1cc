import BenchSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The pure logic of `dynamics-bench soak`: the flatness rule on made-up samples, the loop with
/// made-up closures, the samples file and the chart. Nothing here is timed: the speeds in the
/// samples are invented numbers.
@Suite("Soak rule")
struct SoakRuleTests {
    static let mib: Double = 1_048_576

    /// Samples every 1 000 steps up to `count × 1 000`; heap and resident and CPU speed from the
    /// functions of the step.
    static func samples(_ count: Int = 100, heap: (Int) -> Double, resident: ((Int) -> Double)? = nil,
                        speed: (Int) -> Double = { _ in 1000 }) -> [SoakSample] {
        (1...count).map { k in
            let step = k * 1000
            return SoakSample(step: step, simulatedSeconds: Double(step) / 60, wallSeconds: Double(step) / 1000,
                              allocatedBytes: UInt64(heap(step)), residentBytes: UInt64((resident.map { $0(step) } ?? heap(step)) * 2),
                              stepsPerSecond: speed(step) * 0.9, stepsPerCPUSecond: speed(step),
                              bodies: 1000, contacts: 2000, replaced: step / 6)
        }
    }

    static var rule: SoakRule { SoakRule(warmupSteps: 10_000) }

    /// Small deterministic wobble: ±(amplitude) in a saw pattern.
    static func wobble(_ step: Int, _ amplitude: Double) -> Double { Double((step / 1000 * 7) % 11 - 5) / 5 * amplitude }

    @Test func flatMemoryWithNoisePasses() {
        let v = SoakVerdict.judge(Self.samples(heap: { 10 * Self.mib + Self.wobble($0, 100_000) }), rule: Self.rule)
        #expect(v.passed, "\(v.failures)")
        #expect(v.checks.count == 5)
    }

    @Test func steadyLeakFailsBothMemoryChecks() {
        // 10 MiB growing by 1 MiB over the run: 10 %, twice the 5 % allowed.
        let v = SoakVerdict.judge(Self.samples(heap: { 10 * Self.mib + Double($0) / 100_000 * Self.mib }), rule: Self.rule)
        #expect(!v.passed)
        #expect(v.failures.map(\.name).contains("heap trend after warm-up"))
        #expect(v.failures.map(\.name).contains("heap last window − first window (max)"))
        // resident (twice the heap here) grows by 2 MiB of 20: fails too
        #expect(v.failures.map(\.name).contains("resident trend after warm-up"))
    }

    @Test func smallLeakUnderTheFloorPasses() {
        // 2 MiB growing by 300 KiB: 15 %, but under the 512 KiB floor.
        let v = SoakVerdict.judge(Self.samples(heap: { 2 * Self.mib + Double($0) / 100_000 * 300 * 1024 }, resident: { _ in 2 * Self.mib }), rule: Self.rule)
        #expect(v.passed, "\(v.failures)")
        var strict = Self.rule
        strict.memoryFloorBytes = 64 * 1024
        #expect(!SoakVerdict.judge(Self.samples(heap: { 2 * Self.mib + Double($0) / 100_000 * 300 * 1024 }, resident: { _ in 2 * Self.mib }), rule: strict).passed)
    }

    @Test func lateJumpFailsTheWindowCheck() {
        // Flat at 10 MiB, then +1.5 MiB for the last 10 samples: the last window's max grows by
        // all of it.
        let v = SoakVerdict.judge(Self.samples(heap: { 10 * Self.mib + ($0 > 90_000 ? 1.5 * Self.mib : 0) }, resident: { _ in 10 * Self.mib }), rule: Self.rule)
        #expect(v.failures.map(\.name).contains("heap last window − first window (max)"))
        #expect(!v.failures.map(\.name).contains { $0.hasPrefix("resident") })
    }

    @Test func growthDuringWarmUpIsIgnored() {
        let heap = { (step: Int) in step <= 10_000 ? Double(step) / 10_000 * 8 * Self.mib : 8 * Self.mib }
        #expect(SoakVerdict.judge(Self.samples(heap: heap), rule: Self.rule).passed)
        // The same growth counts without the warm-up.
        #expect(!SoakVerdict.judge(Self.samples(heap: heap), rule: SoakRule(warmupSteps: 0)).passed)
    }

    @Test func shrinkingMemoryPasses() {
        #expect(SoakVerdict.judge(Self.samples(heap: { 20 * Self.mib - Double($0) / 100_000 * 5 * Self.mib }), rule: Self.rule).passed)
    }

    @Test func slowdownFailsAndNoiseDoesNot() {
        let flat = { (s: Int) in 10 * Self.mib + 0 * Double(s) }
        // 40 % slower by the end.
        let slow = SoakVerdict.judge(Self.samples(heap: flat, speed: { 1000 - 400 * Double($0) / 100_000 }), rule: Self.rule)
        #expect(slow.failures.count == 1)
        #expect(slow.failures.first?.name.hasPrefix("steps/s (CPU)") == true)
        // ±20 % noise around a flat speed.
        let noisy = SoakVerdict.judge(Self.samples(heap: flat, speed: { 1000 + Self.wobble($0, 200) }), rule: Self.rule)
        #expect(noisy.passed, "\(noisy.failures)")
        // The slowdown is not judged when speed is not (the test slice).
        var untimed = Self.rule
        untimed.judgeSpeed = false
        let v = SoakVerdict.judge(Self.samples(heap: flat, speed: { 1000 - 400 * Double($0) / 100_000 }), rule: untimed)
        #expect(v.passed && v.checks.count == 4)
    }

    @Test func wallClockSpeedIsJudgedWhenAsked() {
        // CPU speed flat, wall-clock speed halves (another program took the core).
        var s = Self.samples(heap: { _ in 10 * Self.mib })
        for k in s.indices where k >= 50 { s[k].stepsPerSecond /= 2 }
        #expect(SoakVerdict.judge(s, rule: Self.rule).passed)
        var wall = Self.rule
        wall.judgeWallClock = true
        #expect(!SoakVerdict.judge(s, rule: wall).passed)
    }

    @Test func tooFewSamplesAfterWarmUpFail() {
        let v = SoakVerdict.judge(Self.samples(12, heap: { _ in Self.mib }), rule: Self.rule)
        #expect(!v.passed)
        #expect(v.checks.map(\.name) == ["samples after warm-up"])
    }

    @Test func medianAndSlopeIncludingEmptyAndVerticalData() {
        #expect(SoakVerdict.median([3, 1, 2]) == 2)
        #expect(SoakVerdict.median([4, 1, 2, 3]) == 2.5)
        #expect(SoakVerdict.median([]).isNaN)
        #expect(abs(SoakVerdict.slope(x: [0, 1, 2, 3], y: [1, 3, 5, 7]) - 2) < 1e-12)
        #expect(SoakVerdict.slope(x: [1, 1, 1], y: [1, 2, 3]) == 0)
    }

    // MARK: the loop (made-up closures, nothing timed)

    @Test func loopSamplesEveryNStepsAndAfterTheLast() {
        var stepped = 0
        let out = SoakLoop.run(steps: 1050, sampleEvery: 100, dt: 1.0 / 60, step: { stepped += 1 }, check: { nil },
                               memory: { SoakMemory(allocated: UInt64(stepped), resident: 7) },
                               counts: { SoakCounts(bodies: 3, contacts: 4, replaced: stepped / 10) })
        #expect(stepped == 1050 && out.steps == 1050 && out.problem == nil)
        #expect(out.samples.map(\.step) == Array(stride(from: 100, through: 1000, by: 100)) + [1050])
        #expect(out.samples.map(\.allocatedBytes) == out.samples.map { UInt64($0.step) })
        #expect(out.samples.last?.replaced == 105)
        #expect(abs((out.samples.last?.simulatedSeconds ?? 0) - 17.5) < 1e-9)
    }

    @Test func loopStopsAtTheFirstFailedCheck() {
        var stepped = 0
        let out = SoakLoop.run(steps: 1000, sampleEvery: 100, dt: 1.0 / 60, step: { stepped += 1 },
                               check: { stepped == 250 ? "escaped: body 7" : nil },
                               memory: { SoakMemory(allocated: 1, resident: 1) }, counts: { SoakCounts(bodies: 1, contacts: 0, replaced: 0) })
        #expect(stepped == 250 && out.steps == 250)
        #expect(out.problem?.step == 250 && out.problem?.message == "escaped: body 7")
        #expect(out.samples.map(\.step) == [100, 200, 250])
    }

    // MARK: files

    @Test func csvRowsAndJSONFileCarryEverySampleAndTheRule() throws {
        let s = Self.samples(20, heap: { _ in Self.mib })
        let csv = SoakFile.csv(s).split(separator: "\n")
        #expect(csv.count == 21)
        #expect(csv[0] == Substring(SoakSample.csvHeader))
        #expect(csv[1].split(separator: ",").count == SoakSample.csvHeader.split(separator: ",").count)
        #expect(csv[1].hasPrefix("1000,16.6667,1.000,1048576,2097152,900.00,1000.00,1000,2000,166"))
        let rule = SoakRule(warmupSteps: 2000)
        let file = SoakFile(date: "d", command: "dynamics-bench soak", gitCommit: nil, items: 1000, steps: 20_000, stepsRun: 20_000,
                            churnPerSecond: 0.01, seed: "1", workers: 1, memorySource: "test", rule: rule,
                            verdict: SoakVerdict.judge(s, rule: rule), problem: nil, samples: s)
        let object = try #require(try JSONSerialization.jsonObject(with: file.jsonData()) as? [String: Any])
        #expect(object["format"] as? String == "dynamics-bench-soak")
        #expect(object["passed"] as? Bool == true)
        #expect((object["samples"] as? [Any])?.count == 20)
        let first = try #require((object["samples"] as? [[String: Any]])?.first)
        #expect(first["allocated_bytes"] as? Int == 1_048_576)
        #expect(first["steps_per_cpu_s"] as? Double == 1000)
        #expect((object["rule"] as? [String: Any])?["warmup_steps"] as? Int == 2000)
    }

    @Test func plotIsWellFormedSVGWithFourSeries() throws {
        let s = Self.samples(50, heap: { 10 * Self.mib + Self.wobble($0, 100_000) }, speed: { 1000 + Self.wobble($0, 100) })
        let svg = SoakPlot.svg(s, warmupSteps: 5000, title: "soak <test> & more", subtitle: "sub")
        let doc = try XMLDocument(data: Data(svg.utf8))
        let root = try #require(doc.rootElement())
        #expect(root.name == "svg")
        let lines = try doc.nodes(forXPath: "//*[local-name()='polyline']")
        #expect(lines.count == 4)
        for chunk in svg.components(separatedBy: #"points=""#).dropFirst() {
            let points = chunk.prefix { $0 != "\"" }.split(separator: " ")
            #expect(points.count == 50)
            #expect(points.allSatisfy { $0.split(separator: ",").count == 2 && $0.split(separator: ",").allSatisfy { Double($0) != nil } })
        }
        #expect(svg.contains("soak &lt;test&gt; &amp; more"))
        #expect(svg.contains("warm-up"))
    }

    // MARK: the executable (no timing: speed is not judged)

    /// Runs the built `dynamics-bench` with `arguments`; its exit status, stdout and stderr.
    static func bench(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BenchCLITests.runCapturing(arguments)
    }

    @Test func runPrintsBox2DCSV() throws {
        let r = try Self.bench(["run", "many_pyramids", "--items", "1", "--steps", "3", "--repeat", "2",
                                "--threads", "1,2", "--format", "box2d-csv", "--quiet"])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first == "threads,ms")
        for (k, line) in lines.dropFirst().enumerated() {
            let fields = line.split(separator: ",")
            #expect(fields.count == 2 && fields[0] == "\(k + 1)", "\(line)")
            #expect((Double(fields.last ?? "") ?? -1) >= 0, "\(line)")
        }
    }

    @Test func soakRejectsBadInputWithExitTwo() throws {
        let cases: [([String], String)] = [
            (["soak", "--items", "0"], "--items must be a positive integer (got 0)"),
            (["soak", "--steps", "-5"], "--steps must be a positive integer (got -5)"),
            (["soak", "--churn", "lots"], "--churn must be a rate per simulated second like 1% or 0.01 (got 'lots')"),
            (["soak", "--seed", "0xZZ"], "--seed must be a 64-bit number"),
            (["soak", "--steps", "1000", "--sample-every", "500"], "only 2 samples would come after warm-up"),
            (["soak", "--warmup", "2000000"], "--warmup must be at least 0 and less than --steps"),
            (["soak", "--out", "/nonexistent/dir/s.json"], "--out: folder '/nonexistent/dir' does not exist"),
        ]
        for (args, message) in cases {
            let r = try Self.bench(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.err.hasPrefix("dynamics-bench: error: " + message), "\(args): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1)
        }
    }

    @Test func shortSoakWritesSamplesAndPlotAndPasses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("soak-cli-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("s.json").path
        let csv = dir.appendingPathComponent("s.csv").path, svg = dir.appendingPathComponent("s.svg").path
        let r = try Self.bench(["soak", "--items", "20", "--steps", "600", "--sample-every", "30", "--churn", "20%",
                                "--speed-tolerance", "100", "--out", json])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("soak: pass — 600 steps"))
        // --from judges the saved samples again (here into CSV and a chart) without running.
        let again = try Self.bench(["soak", "--from", json, "--speed-tolerance", "100", "--out", csv, "--plot", svg])
        #expect(again.status == 0, "\(again.out)\(again.err)")
        #expect(again.out.contains("soak: judging 20 samples"))
        // …and by other tolerances: with no memory allowance at all the warm heap still passes
        // only if it did not move; either way the verdict is printed and the status follows it.
        let strict = try Self.bench(["soak", "--from", json, "--speed-tolerance", "0", "--memory-floor-kib", "0", "--memory-tolerance", "0"])
        #expect(strict.status == (strict.out.contains("FAIL") ? 1 : 0))
        let notSoak = try Self.bench(["soak", "--from", csv])
        #expect(notSoak.status == 2 && notSoak.err.hasPrefix("dynamics-bench: error: "))
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 21)
        #expect(lines.last?.hasPrefix("600,10.0000,") == true)
        #expect(lines.last?.split(separator: ",").last == "40")  // 20 bodies × 20 % × 10 s
        #expect(try String(contentsOfFile: svg, encoding: .utf8).hasPrefix("<svg"))
    }
}

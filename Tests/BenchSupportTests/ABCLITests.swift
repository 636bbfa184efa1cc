import BenchSupport
import Foundation
import Testing

/// `dynamics-bench ab` end to end with stand-in executables (shell scripts that answer
/// `run … --format json` with steps/s from a fixed list), so the verdicts do not depend on
/// this machine's speed; and the shard-and-merge path with parallel processes.
@Suite struct ABCLITests {
    /// A directory with fake executables `base` and `cand`; each logs "NAME ARGS" to `log`
    /// and prints a result whose steps/s is the next value of its list (from the start again
    /// after the last), after sleeping `sleep` seconds.
    struct Fakes {
        let dir: URL
        var log: URL { dir.appendingPathComponent("log") }
        var base: String { dir.appendingPathComponent("base").path }
        var cand: String { dir.appendingPathComponent("cand").path }

        init(base: [Double], cand: [Double], failCandidate: Bool = false, sleep: Double = 0) throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("ab-fakes-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try write("base", base, fail: false, sleep: sleep)
            try write("cand", cand, fail: failCandidate, sleep: sleep)
        }

        private func write(_ name: String, _ speeds: [Double], fail: Bool, sleep: Double) throws {
            let list = speeds.map { String($0) }.joined(separator: " ")
            let script = """
                #!/bin/sh
                echo "\(name) $*" >> '\(log.path)'
                \(fail ? "echo 'dynamics-bench: error: unknown scene' >&2; exit 2" : "")
                \(sleep > 0 ? "sleep \(sleep)" : "")
                n=$(( ($(grep -c '^\(name) ' '\(log.path)') - 1) % \(speeds.count) + 1 ))
                set -- \(list)
                eval "speed=\\${$n}"
                printf '{"scene":"pile","items":10,"threads":1,"steps_per_second":%s,"cpu_steps_per_second":%s,"passed":true}\\n' "$speed" "$speed"
                """
            let url = dir.appendingPathComponent(name)
            try Data(script.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }

        func calls() throws -> [String] {
            try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        func remove() { try? FileManager.default.removeItem(at: dir) }
    }

    static let args = ["--scenes", "pile:10", "--rounds", "6", "--steps", "5"]

    /// 20 % slower in every round: measured past --rounds 6 until the rule can say so (9
    /// rounds for one configuration at --false-alarm 1 %), in alternating order.
    @Test func separatedRunsFailWithExitOneInAlternatingOrder() throws {
        let f = try Fakes(base: (0..<6).map { 1000 + Double($0) }, cand: (0..<6).map { 800 + Double($0) })
        defer { f.remove() }
        let r = try SoakRuleTests.bench(["ab", f.base, f.cand] + Self.args)
        #expect(r.status == 1, "\(r.out)\(r.err)")
        #expect(r.out.contains("REGRESSED") && r.out.contains("\nFAIL: pile 10 ×1 is 20.0% slower (ratio 0.800, interval "))
        let calls = try f.calls()
        #expect(calls.map { String($0.prefix(4)) } == ["base", "cand", "cand", "base", "base", "cand", "cand", "base",
                                                       "base", "cand", "cand", "base", "base", "cand", "cand", "base",
                                                       "base", "cand"])
        #expect(calls.first == "base run pile --items 10 --steps 5 --threads 1 --repeat 1 --format json")
    }

    @Test func interleavedEqualRunsPassAndWriteTheReport() throws {
        let speeds = (0..<6).map { 1000 + Double($0) }
        let f = try Fakes(base: speeds, cand: speeds.reversed())
        defer { f.remove() }
        let out = f.dir.appendingPathComponent("report.json").path
        let r = try SoakRuleTests.bench(["ab", f.base, f.cand, "--format", "json", "--out", out] + Self.args)
        #expect(r.status == 0, "\(r.out)\(r.err)")
        let report = try JSONDecoder().decode(ABReport.self, from: Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(report.exitStatus == 0 && report.rounds == 6 && report.maxRounds == 40 && report.results.count == 1)
        #expect(report.stop == .decided && report.results[0].rounds == 9 && report.results[0].verdict == .ok)
        #expect(report.results[0].baselineRuns == speeds + speeds.prefix(3) && report.results[0].metric == .cpu)
        #expect(try JSONDecoder().decode(ABReport.self, from: Data(r.out.utf8)) == report)
    }

    /// --format markdown: the table for a CI job summary, the verdict line last.
    @Test func markdownEndsWithTheVerdictLine() throws {
        let f = try Fakes(base: [1000, 1001, 1002], cand: [900, 901, 902])
        defer { f.remove() }
        let r = try SoakRuleTests.bench(["ab", f.base, f.cand, "--format", "markdown"] + Self.args)
        #expect(r.status == 1, "\(r.out)\(r.err)")
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "| configuration | baseline steps/s | candidate steps/s | ratio | interval | rounds | verdict |")
        #expect(lines.contains { $0.hasPrefix("| pile 10 ×1 | 1001.0 | 901.0 | 0.900 (−10.0%) | ") && $0.hasSuffix(" | 9 | REGRESSED |") })
        #expect(r.out.hasSuffix("\n") && lines.dropLast().last?.hasPrefix("FAIL: pile 10 ×1 is 10.0% slower") == true, "\(r.out)")
    }

    /// Rounds that never agree: undecided at --max-rounds, and when --budget would be overrun.
    @Test func anUndecidedComparisonRunsOutOfBudgetWithExitThree() throws {
        let f = try Fakes(base: (0..<6).map { 1000 + Double($0) }, cand: [600, 1400, 610, 1410, 620, 1420])
        defer { f.remove() }
        let r = try SoakRuleTests.bench(["ab", f.base, f.cand, "--max-rounds", "12"] + Self.args)
        #expect(r.status == 3, "\(r.out)\(r.err)")
        #expect(r.out.contains("\nINCONCLUSIVE: 12 rounds (--max-rounds) did not decide: pile 10 ×1 (ratio "), "\(r.out)")
        #expect(try f.calls().count == 24)
        // Each run sleeps 0.1 s: a 2 s budget stops it after about 9 rounds, undecided.
        let slow = try Fakes(base: (0..<6).map { 1000 + Double($0) }, cand: [600, 1400, 610, 1410, 620, 1420], sleep: 0.1)
        defer { slow.remove() }
        let out = slow.dir.appendingPathComponent("report.json").path
        let b = try SoakRuleTests.bench(["ab", slow.base, slow.cand, "--budget", "2", "--out", out] + Self.args)
        #expect(b.status == 3, "\(b.out)\(b.err)")
        #expect(b.out.contains("\nINCONCLUSIVE: the 2 s budget ran out: pile 10 ×1"), "\(b.out)")
        let report = try JSONDecoder().decode(ABReport.self, from: Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(report.stop == .budget && report.budgetSeconds == 2 && report.seconds <= 2.5 && report.results[0].rounds < 12)
    }

    @Test func usageErrorsAndFailedRunsExitTwo() throws {
        let f = try Fakes(base: [1000, 1001, 1002, 1003, 1004, 1005], cand: [1000, 1001, 1002, 1003, 1004, 1005],
                          failCandidate: true)
        defer { f.remove() }
        let cases: [([String], String)] = [
            (["ab", f.base, f.cand] + Self.args, "candidate run failed (exit 2): "),
            (["ab", f.base, "/nonexistent/dynamics-bench"] + Self.args, "candidate executable '/nonexistent/dynamics-bench' does not exist"),
            (["ab", f.base, f.base, "--rounds", "4"], "--rounds must be at least 5"),
            (["ab", f.base, f.base, "--rounds", "12", "--max-rounds", "10"], "--max-rounds (10) must be at least --rounds (12)"),
            (["ab", f.base, f.base, "--rounds", "8", "--max-rounds", "10"],
             "--max-rounds 10 can never decide: at --false-alarm 1% with 3 configuration(s) a pass needs at least 9 rounds and a regression 11"),
            (["ab", f.base, f.base, "--budget", "0"], "--budget must be a positive number of seconds"),
            (["ab", f.base, f.base, "--false-alarm", "x"], "bad --false-alarm 'x'"),
            (["ab", f.base, f.base, "--max-regression", "x"], "bad --max-regression 'x'"),
            (["ab", f.base, f.base, "--max-regression", "0"], "--max-regression must be above 0%"),
            (["ab", f.base, f.base, "--scenes", "pile:0"], "bad --scenes 'pile:0'"),
            (["ab", f.base, f.base, "--threads", "0"], "--threads must be a positive integer"),
            (["ab", f.base], "Missing expected argument"),
        ]
        for (args, message) in cases {
            let r = try SoakRuleTests.bench(args)
            #expect(r.status == 2, "\(args): \(r.err)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
        }
    }

    /// Every run reports `cpu_steps_per_second`. `DYNAMICS_REPEAT_PREPARE` (the slower builds
    /// of `scripts/calibrate-gate`) is recorded in the result and changes no figure of the
    /// physics; a bad value stops the process with a message. (Speed is not judged here.)
    @Test func runReportsCPUSpeedAndMarksRepeatedPreparation() throws {
        let base = ["run", "pile", "--items", "100", "--steps", "30", "--warmup", "30", "--repeat", "1", "--format", "json"]
        let plain = try Self.bench(base, environment: [:])
        #expect(plain.status == 0, "\(plain.err)")
        let p = try #require(ResultFile.parse(Data(plain.out.utf8)).results.first)
        #expect((p.cpuStepsPerSecond ?? 0) > 0 && p.repeatPrepare == nil)
        let slowed = try Self.bench(base, environment: ["DYNAMICS_REPEAT_PREPARE": "2"])
        #expect(slowed.status == 0, "\(slowed.err)")
        let s = try #require(ResultFile.parse(Data(slowed.out.utf8)).results.first)
        #expect(s.repeatPrepare == 2 && (s.cpuStepsPerSecond ?? 0) > 0)
        #expect(s.kineticEnergy == p.kineticEnergy && s.maxHeight == p.maxHeight && s.avgHeight == p.avgHeight)
        #expect(s.touchingContacts == p.touchingContacts && s.passed == true)
        for bad in ["-1", "x", "nan"] {
            let r = try Self.bench(base, environment: ["DYNAMICS_REPEAT_PREPARE": bad])
            #expect(r.status != 0 && r.err.contains("DYNAMICS_REPEAT_PREPARE must be a non-negative number"), "\(bad): \(r.err)")
        }
    }

    /// `dynamics-bench ARGS` with `environment` added to this process's.
    static func bench(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, out: String, err: String) {
        try BenchCLITests.runCapturing(arguments, environment: environment)
    }

    // MARK: shard and merge with parallel processes

    /// Three `run … --shard K/3` processes at once, merged by `merge`, give the configurations
    /// of the unsharded run, each once, with the same deterministic results (bodies, contacts,
    /// energy, heights, checks); only timing may differ.
    @Test func parallelShardsMergeToTheUnshardedRun() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let exe = try #require(BenchCLITests.builtExecutable(), "dynamics-bench is not in the build folder; run swift build --build-tests")
        let sweep = ["run", "pyramid", "--items", "3,4", "--threads", "1,2", "--steps", "20", "--warmup", "5",
                     "--repeat", "1", "--quiet"]
        func start(_ args: [String]) throws -> Process {
            let p = Process()
            p.executableURL = exe
            p.arguments = args
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
        let parts = (1...3).map { dir.appendingPathComponent("part\($0).json").path }
        let whole = dir.appendingPathComponent("whole.json").path
        var processes = try (1...3).map { try start(sweep + ["--shard", "\($0)/3", "--out", parts[$0 - 1]]) }
        processes.append(try start(sweep + ["--out", whole]))
        for p in processes { p.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })

        let merged = dir.appendingPathComponent("merged.json").path
        let m = try SoakRuleTests.bench(["merge"] + parts + ["--out", merged])
        #expect(m.status == 0 && m.err.isEmpty, "\(m.err)")

        let a = try ResultFile.load(path: merged).results, b = try ResultFile.load(path: whole).results
        #expect(a.count == 4 && b.count == 4)
        #expect(Set(a.map(\.key)) == Set(b.map(\.key)) && ResultFile.duplicateKeys(a).isEmpty)
        for r in b {
            let s = try #require(a.first { $0.key == r.key })
            #expect(s.bodies == r.bodies && s.steps == r.steps && s.seed == r.seed, "\(r.key)")
            #expect(s.kineticEnergy == r.kineticEnergy && s.maxHeight == r.maxHeight && s.avgHeight == r.avgHeight, "\(r.key)")
            #expect(s.touchingContacts == r.touchingContacts && s.contacts == r.contacts, "\(r.key)")
            #expect(s.checks == r.checks && s.passed == r.passed, "\(r.key)")
        }
        // Each shard file names its shard; the merged one lists its parts.
        #expect(try (1...3).map { try ResultFile.load(path: parts[$0 - 1]).shard } == ["1/3", "2/3", "3/3"])
        #expect(try ResultFile.load(path: merged).mergedFrom == parts)
    }
}

import BenchSupport
import Foundation
import Testing

/// `dynamics-bench ab` end to end with stand-in executables (shell scripts that answer
/// `run … --format json` with steps/s from a fixed list), so the verdicts do not depend on
/// this machine's speed; and the shard-and-merge path with parallel processes.
@Suite struct ABCLITests {
    /// A directory with fake executables `base` and `cand`; each logs "NAME ARGS" to `log`
    /// and prints a result whose steps/s is the next value of its list.
    struct Fakes {
        let dir: URL
        var log: URL { dir.appendingPathComponent("log") }
        var base: String { dir.appendingPathComponent("base").path }
        var cand: String { dir.appendingPathComponent("cand").path }

        init(base: [Double], cand: [Double], failCandidate: Bool = false) throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("ab-fakes-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try write("base", base, fail: false)
            try write("cand", cand, fail: failCandidate)
        }

        private func write(_ name: String, _ speeds: [Double], fail: Bool) throws {
            let list = speeds.map { String($0) }.joined(separator: " ")
            let script = """
                #!/bin/sh
                echo "\(name) $*" >> '\(log.path)'
                \(fail ? "echo 'dynamics-bench: error: unknown scene' >&2; exit 2" : "")
                n=$(grep -c '^\(name) ' '\(log.path)')
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

    @Test func separatedRunsFailWithExitOneInAlternatingOrder() throws {
        let f = try Fakes(base: (0..<6).map { 1000 + Double($0) }, cand: (0..<6).map { 800 + Double($0) })
        defer { f.remove() }
        let r = try SoakRuleTests.bench(["ab", f.base, f.cand] + Self.args)
        #expect(r.status == 1, "\(r.out)\(r.err)")
        #expect(r.out.contains("REGRESSED") && r.out.contains("FAIL:"))
        let calls = try f.calls()
        #expect(calls.map { String($0.prefix(4)) } == ["base", "cand", "cand", "base", "base", "cand",
                                                       "cand", "base", "base", "cand", "cand", "base"])
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
        #expect(report.exitStatus == 0 && report.rounds == 6 && report.results.count == 1)
        #expect(report.results[0].baselineRuns == speeds && report.results[0].metric == .cpu)
        #expect(try JSONDecoder().decode(ABReport.self, from: Data(r.out.utf8)) == report)
    }

    @Test func wildRoundsAreInconclusiveWithExitThree() throws {
        let f = try Fakes(base: (0..<6).map { 1000 + Double($0) }, cand: [600, 1400, 610, 1410, 620, 1420])
        defer { f.remove() }
        let r = try SoakRuleTests.bench(["ab", f.base, f.cand] + Self.args)
        #expect(r.status == 3, "\(r.out)\(r.err)")
        #expect(r.out.contains("INCONCLUSIVE: the rounds disagree too much to decide") && r.out.contains("points"))
    }

    @Test func usageErrorsAndFailedRunsExitTwo() throws {
        let f = try Fakes(base: [1000, 1001, 1002, 1003, 1004, 1005], cand: [1000, 1001, 1002, 1003, 1004, 1005],
                          failCandidate: true)
        defer { f.remove() }
        let cases: [([String], String)] = [
            (["ab", f.base, f.cand] + Self.args, "candidate run failed (exit 2): "),
            (["ab", f.base, "/nonexistent/dynamics-bench"] + Self.args, "candidate executable '/nonexistent/dynamics-bench' does not exist"),
            (["ab", f.base, f.base, "--rounds", "4"], "--rounds must be at least 5"),
            (["ab", f.base, f.base, "--max-regression", "x"], "bad --max-regression 'x'"),
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

    /// Every run reports `cpu_steps_per_second`; the hidden calibration option is recorded in
    /// the result and checked like any other count (speed itself is not judged here).
    @Test func runReportsCPUSpeedAndMarksCalibrationRuns() throws {
        let base = ["run", "pyramid", "--items", "3", "--steps", "5", "--warmup", "0", "--repeat", "1", "--format", "json"]
        let plain = try SoakRuleTests.bench(base)
        #expect(plain.status == 0, "\(plain.err)")
        let p = try #require(ResultFile.parse(Data(plain.out.utf8)).results.first)
        #expect((p.cpuStepsPerSecond ?? 0) > 0 && p.calibrationSlowdown == nil)
        let slowed = try SoakRuleTests.bench(base + ["--calibration-slowdown", "20"])
        #expect(slowed.status == 0, "\(slowed.err)")
        let s = try #require(ResultFile.parse(Data(slowed.out.utf8)).results.first)
        #expect(s.calibrationSlowdown == 0.2 && (s.cpuStepsPerSecond ?? 0) > 0)
        for bad in ["100", "-1", "nan"] {
            let r = try SoakRuleTests.bench(base + ["--calibration-slowdown", bad])
            #expect(r.status == 2 && r.err.hasPrefix("dynamics-bench: error: --calibration-slowdown must be a percentage"), "\(bad): \(r.err)")
        }
        let help = try SoakRuleTests.bench(["run", "--help"])
        #expect(help.status == 0 && !help.out.contains("calibration"))
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

import BenchSupport
import Foundation
import Testing

/// The pure logic of `dynamics-bench`: the regression gate, shards, merge and the result file.
/// Nothing here is timed.
@Suite("BenchCLI")
struct BenchCLITests {
    /// A result with a median and a spread.
    static func record(_ scene: String = "pile", items: Int = 1000, threads: Int = 1,
                       median: Double, min: Double? = nil, max: Double? = nil, passed: Bool = true) -> BenchRecord {
        var r = BenchRecord(scene: scene, items: items, threads: threads, stepsPerSecond: median)
        r.stepsPerSecondMedian = median
        r.stepsPerSecondMin = min ?? median
        r.stepsPerSecondMax = max ?? median
        r.repeats = 3
        r.passed = passed
        return r
    }

    static let fivePercent = try! RegressionThreshold(parsing: "5%")

    // MARK: compare

    @Test func tenPercentRegressionFailsAtFivePercent() {
        let report = Comparison.compare(baseline: [Self.record(median: 1000, min: 995, max: 1005)],
                                        current: [Self.record(median: 900, min: 895, max: 905)],
                                        threshold: Self.fivePercent)
        #expect(report.rows.count == 1)
        #expect(abs((report.rows[0].ratio ?? 0) - 0.9) < 1e-12)
        #expect(report.rows[0].status == .regressed)
        #expect(report.failed)
    }

    @Test func threePercentRegressionPassesAtFivePercent() {
        let report = Comparison.compare(baseline: [Self.record(median: 1000, min: 995, max: 1005)],
                                        current: [Self.record(median: 970, min: 965, max: 975)],
                                        threshold: Self.fivePercent)
        #expect(report.rows[0].status == .ok)
        #expect(!report.failed)
    }

    @Test func regressionWithinTheSpreadIsNoise() {
        // 10 % slower median, but the baseline's own repeats went as low as 850.
        let report = Comparison.compare(baseline: [Self.record(median: 1000, min: 850, max: 1010)],
                                        current: [Self.record(median: 900, min: 890, max: 910)],
                                        threshold: Self.fivePercent)
        #expect(report.rows[0].status == .noise)
        #expect(!report.failed)
        #expect(Comparison.render(report).contains("within noise"))
    }

    @Test func currentSpreadCoveringTheBaselineMedianIsNoise() {
        let report = Comparison.compare(baseline: [Self.record(median: 1000)],
                                        current: [Self.record(median: 900, min: 700, max: 1000)],
                                        threshold: Self.fivePercent)
        #expect(report.rows[0].status == .noise)
    }

    @Test func singleRepeatsAreNeverNoise() {
        let report = Comparison.compare(baseline: [Self.record(median: 1000)], current: [Self.record(median: 940)],
                                        threshold: Self.fivePercent)
        #expect(report.rows[0].status == .regressed)
    }

    @Test func aFasterRowIsFasterAndAFailedCheckFailsTheComparison() {
        let report = Comparison.compare(
            baseline: [Self.record(median: 1000), Self.record("mix", median: 1000)],
            current: [Self.record(median: 1200), Self.record("mix", median: 1000, passed: false)],
            threshold: Self.fivePercent)
        #expect(report.rows.map(\.status) == [.faster, .failedCheck])
        #expect(report.failed)
    }

    @Test func matchesByKeyAndReportsMissingSides() {
        let report = Comparison.compare(
            baseline: [Self.record(threads: 1, median: 1000), Self.record(threads: 2, median: 1500),
                       Self.record("pyramid", items: 20, median: 3000)],
            current: [Self.record(threads: 2, median: 1480), Self.record(threads: 1, median: 1010),
                      Self.record("islands", items: 1000, median: 100)],
            threshold: Self.fivePercent)
        let byKey = Dictionary(uniqueKeysWithValues: report.rows.map { ($0.key, $0) })
        #expect(byKey[BenchKey(scene: "pile", items: 1000, threads: 1)]?.status == .ok)
        #expect(byKey[BenchKey(scene: "pile", items: 1000, threads: 2)]?.status == .ok)
        #expect(byKey[BenchKey(scene: "pyramid", items: 20, threads: 1)]?.status == .missingInCurrent)
        #expect(byKey[BenchKey(scene: "islands", items: 1000, threads: 1)]?.status == .missingInBaseline)
        #expect(report.matched == 2)
        #expect(!report.failed)
    }

    @Test func thresholdsParseWithOrWithoutPercentAndJunkIsAUsageError() throws {
        #expect(try RegressionThreshold(parsing: "5%").fraction == 0.05)
        #expect(try RegressionThreshold(parsing: "5").fraction == 0.05)
        #expect(try RegressionThreshold(parsing: " 2.5 % ").fraction == 0.025)
        for bad in ["", "abc", "-5%", "100%", "5%%"] {
            #expect(throws: BenchUsageError.self) { try RegressionThreshold(parsing: bad) }
        }
    }

    @Test func medianOfOddEvenAndEmptyLists() {
        #expect(median([3, 1, 2]) == 2)
        #expect(median([4, 1, 3, 2]) == 2.5)
        #expect(median([]) == 0)
    }

    // MARK: shards

    @Test(arguments: [1, 2, 3, 4, 7, 20])
    func shardsCoverEveryConfigurationExactlyOnce(n: Int) throws {
        let configs = Sweep.configurations([("pile", [1000, 4000, 10000]), ("pyramid", [20, 100]), ("mix", [1000])],
                                           threads: [1, 2, 4])
        #expect(configs.count == 18)
        var seen: [BenchConfig: Int] = [:]
        for k in 1...n {
            let part = try Shard(parsing: "\(k)/\(n)").select(configs)
            // Balanced: parts differ by at most one configuration.
            #expect(part.count == configs.count / n || part.count == configs.count / n + 1)
            for c in part { seen[c, default: 0] += 1 }
        }
        #expect(seen.count == configs.count)
        #expect(seen.values.allSatisfy { $0 == 1 })
        #expect(Set(configs) == Set(seen.keys))
    }

    @Test func shardTakesEveryNthFromK() throws {
        #expect(try Shard(parsing: "2/3").select(Array(0..<8)) == [1, 4, 7])
        #expect(try Shard(parsing: "1/1").select(Array(0..<3)) == [0, 1, 2])
    }

    @Test func badShardSpecsAreUsageErrors() {
        for bad in ["", "1", "0/3", "4/3", "1/0", "-1/2", "a/b", "1/2/3", "2/-1"] {
            #expect(throws: BenchUsageError.self) { try Shard(parsing: bad) }
        }
    }

    @Test func countListsRejectZeroNegativeAndJunk() throws {
        #expect(try BenchArguments.positiveList("1000,4000,1000", option: "--items") == [1000, 4000])
        for bad in ["0", "-5", "1,,2", "x", ""] {
            #expect(throws: BenchUsageError.self) { try BenchArguments.positiveList(bad, option: "--items") }
        }
    }

    // MARK: merge and file format

    static func file(_ results: [BenchRecord], shard: String? = nil) -> ResultFile {
        ResultFile(date: "2026-11-22T00:00:00Z",
                   machine: MachineInfo(hostname: "h", os: "linux", arch: "x86_64", cpu: "c", cores: 2, memoryBytes: 1),
                   swiftVersion: "6.3", gitCommit: "abc", command: "dynamics-bench", shard: shard, results: results)
    }

    @Test func mergeKeepsAllResultsInOrder() throws {
        let a = Self.file([Self.record(threads: 1, median: 1), Self.record("mix", median: 2)], shard: "1/2")
        let b = Self.file([Self.record(threads: 2, median: 3), Self.record(threads: 1, median: 4)], shard: "2/2")
        let merged = ResultFile.merge([a, b], names: ["a.json", "b.json"])
        #expect(merged.results == a.results + b.results)
        #expect(merged.mergedFrom == ["a.json", "b.json"])
        #expect(merged.shard == nil)
        #expect(ResultFile.duplicateKeys(merged.results) == [BenchKey(scene: "pile", items: 1000, threads: 1)])
        // And it survives a round trip through the file format.
        let reread = try ResultFile.parse(try merged.encoded())
        #expect(reread == merged)
    }

    @Test func shardsMergeBackToTheWholeSweep() throws {
        let configs = Sweep.configurations([("pile", [1000, 4000]), ("mix", [1000])], threads: [1, 2])
        let parts = try (1...3).map { k in
            Self.file(try Shard(parsing: "\(k)/3").select(configs).map {
                Self.record($0.scene, items: $0.items, threads: $0.threads, median: 1)
            })
        }
        let merged = ResultFile.merge(parts, names: ["1", "2", "3"])
        #expect(Set(merged.results.map(\.key)) == Set(configs.map(\.key)))
        #expect(merged.results.count == configs.count)
    }

    @Test func fileFormatHasMetadataAndResults() throws {
        let data = try Self.file([Self.record(median: 812.5, min: 800, max: 820)]).encoded()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format"] as? String == "dynamics-bench-results")
        #expect(object["version"] as? Int == 1)
        for key in ["date", "machine", "swift_version", "git_commit", "results"] { #expect(object[key] != nil, "\(key)") }
        let first = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(first["steps_per_second"] as? Double == 812.5)
        #expect(first["steps_per_second_min"] as? Double == 800)
        #expect(first["steps_per_second_max"] as? Double == 820)
        #expect(first["scene"] as? String == "pile")
    }

    @Test func box2dCSVHasAThreadsMsRowPerResult() throws {
        var one = Self.record("many_pyramids", items: 20, threads: 1, median: 10)
        one.box2dMilliseconds = 1234.5678
        var two = Self.record("many_pyramids", items: 20, threads: 2, median: 20)
        two.box2dMilliseconds = 700
        let noFigure = Self.record("many_pyramids", items: 20, threads: 3, median: 30)
        // Box2D prints `%d,%g`: six significant digits, no trailing zeros.
        #expect(ResultRendering.box2dCSV([one, two, noFigure]) == "threads,ms\n1,1234.57\n2,700")
        #expect(ResultRendering.box2dCSV([]) == "threads,ms")
        // The figure survives the result file, and interleaved parts keep the smallest.
        let reread = try ResultFile.parse(try Self.file([one]).encoded())
        #expect(reread.results[0].box2dMilliseconds == 1234.5678)
        var slower = one
        slower.box2dMilliseconds = 2000
        #expect(BenchRecord.combining([slower, one, slower]).box2dMilliseconds == 1234.5678)
    }

    @Test func oldJSONLinesOutputStillLoads() throws {
        let lines = """
            {"scene":"pile","items":1000,"bodies":1000,"steps":300,"threads":1,"steps_per_second":950.5,"escaped":0,"passed":true}
            {"scene":"mix","items":1000,"bodies":1000,"steps":300,"threads":1,"steps_per_second":1100,"escaped":0,"passed":true}
            """
        let file = try ResultFile.parse(Data(lines.utf8))
        #expect(file.results.map(\.scene) == ["pile", "mix"])
        #expect(file.results[0].minimum == 950.5 && file.results[0].maximum == 950.5)
    }

    @Test func malformedBaselinesAreUsageErrors() throws {
        let bad = [
            "", "not json", "[1, 2]", "42", #"{"hello": 1}"#,
            #"{"format":"dynamics-bench-results","version":1,"date":"","results":[{"scene":"pile"}]}"#,
            #"{"format":"something-else","version":1,"date":"","results":[]}"#,
            #"{"format":"dynamics-bench-results","version":2,"date":"","results":[]}"#,
            #"{"scene":"pile","items":"many","threads":1,"steps_per_second":1}"#,
        ]
        for text in bad {
            #expect(throws: BenchUsageError.self, "\(text)") { try ResultFile.parse(Data(text.utf8), name: "baseline") }
        }
        let error = #expect(throws: BenchUsageError.self) {
            try ResultFile.load(path: "/nonexistent/baseline.json", role: "baseline")
        }
        #expect(error?.message == "cannot read baseline file '/nonexistent/baseline.json': no such file")
        #expect(error?.message.contains("\n") == false)
    }

    // MARK: end to end (no timing): the built executable rejects an unknown scene with exit 2.

    @Test func executableRejectsUnknownSceneWithExitTwo() throws {
        let (text, status) = try Self.runExecutable(["run", "no-such-scene"], readingStandardError: true)
        #expect(status == 2)
        #expect(text.hasPrefix("dynamics-bench: error: unknown scene 'no-such-scene'"))
        #expect(text.split(separator: "\n").count == 1)
    }

    /// Runs the built executable with `arguments`; its standard output (or, when
    /// `readingStandardError`, its standard error) and exit status.
    static func runExecutable(_ arguments: [String], readingStandardError: Bool = false) throws -> (String, Int32) {
        let exe = try #require(Self.builtExecutable(), "dynamics-bench is not in the build folder; run swift build --build-tests")
        let p = Process()
        p.executableURL = exe
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = readingStandardError ? FileHandle.nullDevice : pipe
        p.standardError = readingStandardError ? pipe : FileHandle.nullDevice
        try p.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (text, p.terminationStatus)
    }

    /// Runs the built `dynamics-bench` with `arguments` and `environment` added to this
    /// process's; its exit status, standard output and standard error.
    static func runCapturing(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let exe = try #require(Self.builtExecutable(), "dynamics-bench is not in the build folder; run swift build --build-tests")
        let p = Process()
        p.executableURL = exe
        p.arguments = arguments
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test func runWithSleepReportsAwakeBodiesAndTheTimeToRest() throws {
        // A pyramid of 10 rows (55 boxes) falls asleep within 6 s; without --sleep it stays awake.
        let (slept, status) = try Self.runExecutable(["run", "pyramid", "--items", "10", "--sleep", "--warmup", "300",
                                                      "--steps", "60", "--repeat", "1", "--quiet", "--format", "json"])
        #expect(status == 0)
        let r = try BenchJSON.decoder().decode(BenchRecord.self, from: Data(slept.utf8))
        #expect(r.sleepEnabled == true && r.awakeBodies == 0)
        let seconds = try #require(r.secondsToRest?.seconds, "a resting pyramid reports when it came to rest")
        #expect(seconds > 0.5 && seconds <= 5, "came to rest after \(seconds) s")
        #expect(slept.contains("\"seconds_to_rest\":"))
        // At rest, no box is sunk into another deeper than the linear slop (0.5 pt).
        let sunk = try #require(r.penetrationAtRest, "a resting pyramid reports how deep its boxes overlap")
        #expect(sunk > 0 && sunk <= 0.5, "overlap at rest \(sunk) pt")
        let (awake, _) = try Self.runExecutable(["run", "pyramid", "--items", "10", "--warmup", "0", "--steps", "30",
                                                 "--repeat", "1", "--quiet", "--format", "json"])
        let a = try BenchJSON.decoder().decode(BenchRecord.self, from: Data(awake.utf8))
        #expect(a.sleepEnabled == false && a.awakeBodies == 55 && a.secondsToRest == nil)
        #expect(!awake.contains("seconds_to_rest"))
    }

    @Test func animatorScenesWithSleepToggleOnceAndComeToRest() throws {
        // With --sleep, each of 4 menus is shown once in the first 1.5 s (frames 0–89) and then
        // left alone: it slides in, rests against its side and its animator pauses 0.5 s later.
        let (text, status) = try Self.runExecutable(["run", "menus", "--items", "4", "--sleep", "--warmup", "300",
                                                     "--steps", "30", "--repeat", "1", "--quiet", "--format", "json"])
        #expect(status == 0)
        let r = try BenchJSON.decoder().decode(BenchRecord.self, from: Data(text.utf8))
        #expect(r.sleepEnabled == true && r.awakeBodies == 0 && r.passed == true)
        let seconds = try #require(r.secondsToRest?.seconds, "menus left alone come to rest")
        // Menu 3 is shown at frame 87; it then moves for a while and rests for 0.5 s.
        #expect(seconds > 87.0 / 60 + 0.5 && seconds < 5, "came to rest after \(seconds) s")
        // Without --sleep the menus keep toggling: something is always moving.
        let (moving, _) = try Self.runExecutable(["run", "menus", "--items", "4", "--warmup", "300", "--steps", "30",
                                                  "--repeat", "1", "--quiet", "--format", "json"])
        let m = try BenchJSON.decoder().decode(BenchRecord.self, from: Data(moving.utf8))
        #expect(m.sleepEnabled == false && m.secondsToRest == nil && (m.awakeBodies ?? 0) > 0)
    }

    @Test func springsRunsItsListAndCountsCellsEnteringAndLeaving() throws {
        // 100 000 cells, one drag and fling each way in 900 steps: the check passes, the list
        // came to rest twice, and the extra cycle counts cells entering or leaving the springs.
        let (text, status) = try Self.runExecutable(["run", "springs", "--items", "100000", "--warmup", "600", "--steps", "300",
                                                     "--repeat", "1", "--quiet", "--format", "json"])
        #expect(status == 0)
        let r = try BenchJSON.decoder().decode(BenchRecord.self, from: Data(text.utf8))
        #expect(r.passed == true && r.checks?["order_kept"] == true && r.checks?["at_rest_in_place"] == true)
        #expect(r.metrics?["rests"] == 2 && (r.metrics?["springs_max"] ?? 0) <= 40)
        #expect((r.togglesPerStep ?? 0) > 0 && r.allocsPerToggle != nil)
    }

    @Test func sleepingBlockStaysAsleepBesideTheSceneAndProfileTimesEveryPhase() throws {
        let (text, status) = try Self.runExecutable(["run", "pyramid", "--items", "10", "--sleeping", "400", "--profile",
                                                     "--warmup", "5", "--steps", "20", "--repeat", "1", "--quiet", "--format", "json"])
        #expect(status == 0)
        let r = try BenchJSON.decoder().decode(BenchRecord.self, from: Data(text.utf8))
        // The scene's 55 boxes are awake and checked as before; the 400 added ones sleep.
        #expect(r.bodies == 55 && r.awakeBodies == 55 && r.passed == true)
        let phases = try #require(r.phaseMicroseconds)
        #expect(Set(phases.keys) == Set(StepPhaseNames.inStepOrder))
        #expect(phases.values.allSatisfy { $0 >= 0 } && phases.values.reduce(0, +) > 0)
        let (_, bad) = try Self.runExecutable(["run", "menus", "--items", "1", "--sleeping", "10", "--steps", "1", "--repeat", "1", "--quiet"])
        #expect(bad == 2, "animator scenes have no engine world to add sleeping bodies to")
    }

    @Test func rollingResistanceReachesTheMetreScenesAndIsRefusedElsewhere() throws {
        func run(_ extra: [String]) throws -> BenchRecord {
            let (text, status) = try Self.runExecutable(["run", "mix", "--items", "100", "--warmup", "120", "--steps", "10",
                                                         "--repeat", "1", "--quiet", "--format", "json"] + extra)
            #expect(status == 0)
            return try BenchJSON.decoder().decode(BenchRecord.self, from: Data(text.utf8))
        }
        let plain = try run([]), rough = try run(["--rolling-resistance", "0.5"])
        #expect(plain.rollingResistance == nil && rough.rollingResistance == 0.5)
        // The balls roll against the resistance: the pile moves otherwise than without it.
        #expect(rough.kineticEnergy != plain.kineticEnergy)
        let (_, other) = try Self.runExecutable(["run", "chains", "--items", "2", "--steps", "1", "--repeat", "1", "--quiet",
                                                 "--rolling-resistance", "0.1"])
        #expect(other == 2, "chains' shapes have materials of their own")
        let (_, negative) = try Self.runExecutable(["run", "mix", "--items", "10", "--steps", "1", "--repeat", "1", "--quiet",
                                                    "--rolling-resistance", "-1"])
        #expect(negative == 2)
    }

    @Test func secondsToRestIsNullWhenTheWorldNeverRests() throws {
        var r = BenchRecord(scene: "pile", items: 10, threads: 1, stepsPerSecond: 1)
        r.secondsToRest = RestTime(seconds: nil)
        #expect(try r.json().contains("\"seconds_to_rest\":null"))
        r.secondsToRest = RestTime(seconds: 2.5)
        #expect(try r.json().contains("\"seconds_to_rest\":2.5"))
    }

    /// `dynamics-bench` next to the test bundle in the build folder.
    static func builtExecutable() -> URL? {
        var candidates: [URL] = []
        if let exe = Bundle.main.executableURL { candidates.append(exe.deletingLastPathComponent()) }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for dir in candidates {
            var d = dir
            for _ in 0..<4 {
                let url = d.appendingPathComponent("dynamics-bench")
                if FileManager.default.isExecutableFile(atPath: url.path) { return url }
                d = d.deletingLastPathComponent()
            }
        }
        return nil
    }
}

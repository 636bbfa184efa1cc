import BenchSupport
import Foundation
import Testing

/// The pure logic of `dynamics-bench peers`: reading a driver's result line, the size plan and
/// the ratios, the drivers' command lines. No driver is compiled or run here (Box2D and Chipmunk
/// need not be installed).
@Suite("Peers")
struct PeersTests {
    /// A line as Peers/box2d_driver.cpp prints it.
    static let box2dLine = #"{"engine":"box2d","version":"2.4.0","scene":"pyramid","items":20,"bodies":210,"static_bodies":1,"steps":600,"warmup":100,"steps_per_sec":1415.98,"ms_per_step":0.706223,"seconds":0.423734,"build_seconds":0.00034154,"escaped":0,"max_height":19.7573,"initial_max_height":19.5,"avg_height":6.93085,"max_speed":0.000399577,"mean_speed":0.000125459,"kinetic_energy":2.56738e-06,"awake":210,"touching_contacts":589,"standing":true,"settings":"8 velocity / 3 position iterations, sleeping off"}"#

    static func run(_ engine: String, _ scene: String = "pile", items: Int = 4000, rate: Double,
                    escaped: Int = 0) -> PeerRun {
        var r = PeerRun(engine: engine, scene: scene, items: items, bodies: items, steps: 600,
                        stepsPerSec: rate, escaped: escaped)
        r.maxHeight = 10
        r.initialMaxHeight = 12
        return r
    }

    @Test func readsTheDriverLineAfterALibraryBanner() throws {
        let output = "Initializing cpSpace - Chipmunk v7.0.3 (Debug Enabled)\n" + Self.box2dLine + "\n"
        let run = try PeerRun.parse(output: output, source: "box2d_driver")
        #expect(run.engine == "box2d")
        #expect(run.scene == "pyramid" && run.items == 20 && run.bodies == 210)
        #expect(run.stepsPerSec == 1415.98)
        #expect(run.standing == true)
        #expect(run.passed)
        // Written back, the snake_case keys survive.
        #expect(try run.json().contains("\"steps_per_sec\":1415.98"))
    }

    @Test func nullHeightAndEscapedBodiesFail() throws {
        let line = #"{"engine":"chipmunk","scene":"pile","items":10,"bodies":10,"steps":5,"steps_per_sec":100,"escaped":3,"max_height":null}"#
        let run = try PeerRun.parse(output: line, source: "chipmunk_driver")
        #expect(run.maxHeight == nil)
        #expect(run.failures == ["escaped 3", "non-finite"])
        #expect(!run.passed)
    }

    @Test func noResultLineOrAMalformedOneIsAClearError() {
        #expect(throws: BenchUsageError.self) { try PeerRun.parse(output: "Segmentation fault\n", source: "box2d_driver") }
        #expect(throws: BenchUsageError.self) { try PeerRun.parse(output: #"{"engine":"box2d"}"#, source: "box2d_driver") }
        let zero = #"{"engine":"box2d","scene":"pile","items":1,"bodies":1,"steps":5,"steps_per_sec":0,"escaped":0,"max_height":1}"#
        #expect(throws: BenchUsageError.self) { try PeerRun.parse(output: zero, source: "box2d_driver") }
    }

    @Test func planDefaultsAndPerSceneSizes() throws {
        let defaults = try PeerPlan.configurations(scenes: "pile,pyramid,mix", items: nil)
        #expect(defaults.map { "\($0.scene) \($0.items)" } == ["pile 4000", "pyramid 100", "mix 4000"])

        let mixed = try PeerPlan.configurations(scenes: "pile,pyramid,mix", items: "pile:1000,pile:4000,pyramid:100,2000")
        #expect(mixed.map { "\($0.scene) \($0.items)" } == ["pile 1000", "pile 4000", "pyramid 100", "mix 2000"])
    }

    @Test func planRejectsBadInput() {
        #expect(throws: BenchUsageError.self) { try PeerPlan.configurations(scenes: "pile,islands", items: nil) }
        #expect(throws: BenchUsageError.self) { try PeerPlan.configurations(scenes: "pile", items: "mix:10") }
        #expect(throws: BenchUsageError.self) { try PeerPlan.configurations(scenes: "pile", items: "0") }
        #expect(throws: BenchUsageError.self) { try PeerPlan.configurations(scenes: "pile", items: "pile:x") }
        #expect(throws: BenchUsageError.self) { try PeerPlan.configurations(scenes: "pyramid", items: "5000") }
    }

    @Test func ratiosUseMediansOfInterleavedRuns() throws {
        let ours = PeerComparison.ours
        // Interleaved as the command runs them: ours, box2d, chipmunk, ours, …
        let runs = [Self.run(ours, rate: 100), Self.run("box2d", rate: 50), Self.run("chipmunk", rate: 40),
                    Self.run(ours, rate: 90), Self.run("box2d", rate: 60), Self.run("chipmunk", rate: 45, escaped: 1),
                    Self.run(ours, rate: 120), Self.run("box2d", rate: 40), Self.run("chipmunk", rate: 50)]
        let c = PeerComparison(runs: runs, engines: [ours, "box2d", "chipmunk"])
        #expect(c.rows.map(\.engine) == [ours, "box2d", "chipmunk"])
        let box2d = try #require(c.row(scene: "pile", items: 4000, engine: "box2d"))
        #expect(box2d.median == 50 && box2d.minimum == 40 && box2d.maximum == 60)
        #expect(box2d.oursOverThis == 2.0)
        #expect(c.row(scene: "pile", items: 4000, engine: ours)?.oursOverThis == nil)
        let chipmunk = try #require(c.row(scene: "pile", items: 4000, engine: "chipmunk"))
        #expect(chipmunk.oursOverThis == 100.0 / 45.0)
        #expect(chipmunk.failures == ["escaped 1"])

        let table = c.table()
        #expect(table.contains("2.00×"))
        #expect(table.contains("FAILED: escaped 1"))
        #expect(c.markdown().split(separator: "\n").count == 2 + 3)
        let json = try c.jsonLines()
        #expect(json.count == 3)
        #expect(json[1].contains("\"ours_over_this\":2"))
    }

    // MARK: Box2D v3 and thread counts

    /// A line as Peers/box2d3_driver.c prints it.
    static let box2d3Line = #"{"engine":"box2d3","version":"3.1.1","scene":"pile","items":1000,"bodies":1000,"static_bodies":3,"steps":300,"warmup":0,"threads":2,"sleep":false,"steps_per_sec":1744.28,"ms_per_step":0.573302,"seconds":0.171991,"build_seconds":0.00217007,"escaped":0,"max_height":19.5093,"initial_max_height":21.9,"avg_height":9.94867,"max_speed":0.000240807,"mean_speed":6.17213e-05,"kinetic_energy":2.97993e-06,"awake":1000,"touching_contacts":1933,"peak_rss_bytes":4775936,"settings":"4 sub-steps, sleeping off, 2 workers, the driver's task system"}"#

    static func run(_ engine: String, threads: Int?, rate: Double) -> PeerRun {
        var r = run(engine, rate: rate)
        r.threads = threads
        return r
    }

    @Test func readsTheBox2D3LineWithThreadsAndMemory() throws {
        let run = try PeerRun.parse(output: Self.box2d3Line + "\n", source: "box2d3_driver")
        #expect(run.engine == "box2d3" && run.version == "3.1.1")
        #expect(run.threads == 2 && run.sleep == false)
        #expect(run.peakRSSBytes == 4_775_936)
        #expect(run.passed)
        // Box2D 2.4's line has no threads: one thread.
        #expect(try PeerRun.parse(output: Self.box2dLine, source: "box2d_driver").threads == nil)
    }

    @Test func threadCountListsParseWithoutRepeatsAndRejectZeroJunkAndOver64() throws {
        #expect(try PeerPlan.threadCounts("1,2") == [1, 2])
        #expect(try PeerPlan.threadCounts(" 2, 1 ,2") == [2, 1])
        #expect(throws: BenchUsageError.self) { try PeerPlan.threadCounts("0") }
        #expect(throws: BenchUsageError.self) { try PeerPlan.threadCounts("1,x") }
        #expect(throws: BenchUsageError.self) { try PeerPlan.threadCounts("") }
        #expect(throws: BenchUsageError.self) { try PeerPlan.threadCounts("65") }
    }

    @Test func enginesIncludeBox2D3AndTheSourceBuildWhenGiven() throws {
        #expect(try PeerEngines.parse("ours,box2d3") == [PeerComparison.ours, "box2d3"])
        #expect(try PeerEngines.parse("box2d3.2,ours", extra: ["box2d3.2"]) == ["box2d3.2", PeerComparison.ours])
        #expect(throws: BenchUsageError.self) { try PeerEngines.parse("ours,box2d3.2") }
        #expect(throws: BenchUsageError.self) { try PeerEngines.parse("ours,bullet") }
        #expect(PeerEngines.isMultiThreaded(PeerComparison.ours))
        #expect(PeerEngines.isMultiThreaded("box2d3") && PeerEngines.isMultiThreaded("box2d3.2"))
        #expect(!PeerEngines.isMultiThreaded("box2d") && !PeerEngines.isMultiThreaded("chipmunk"))
        #expect(PeerEngines.reportedName("box2d3.2") == "box2d3")
        #expect(PeerEngines.reportedName("chipmunk") == "chipmunk")
    }

    @Test func driverAndBuildCommandLinesPerEngine() {
        #expect(PeerRun.driverArguments(engine: "box2d", scene: "pile", items: 4000, steps: 600, warmup: 100,
                                        threads: 2, sleep: false) == ["pile", "4000", "600", "100"])
        #expect(PeerRun.driverArguments(engine: "box2d3", scene: "mix", items: 10, steps: 5, warmup: 0,
                                        threads: 2, sleep: false) == ["mix", "10", "5", "0", "2"])
        #expect(PeerRun.driverArguments(engine: "box2d3.2", scene: "pyramid", items: 100, steps: 600, warmup: 0,
                                        threads: 1, sleep: true) == ["pyramid", "100", "600", "0", "1", "sleep"])
        #expect(PeerRun.driverArguments(engine: "box2d3.2", scene: "mix", items: 2000, steps: 10, warmup: 3000,
                                        threads: 1, sleep: true, rollingResistance: 0.05)
                == ["mix", "2000", "10", "3000", "1", "sleep", "rolling=0.05"])
        #expect(PeerRun.driverArguments(engine: "box2d3.2", scene: "pile", items: 1000, steps: 10, warmup: 3000,
                                        threads: 1, sleep: true, seed: 7)
                == ["pile", "1000", "10", "3000", "1", "sleep", "seed=7"])
        #expect(PeerRun.driverArguments(engine: "box2d3.2", scene: "pile", items: 1000, steps: 10, warmup: 0,
                                        threads: 1, sleep: false, seed: 0) == ["pile", "1000", "10", "0", "1"])

        let wheel = Box2D3Wheel.compileArguments(driver: "/p/Peers/box2d3_driver.c", root: "/p/.build/peers/box2d3",
                                                 output: "/p/.build/peers/box2d3_driver")
        #expect(wheel == ["-O2", "-DNDEBUG", "-std=c11", "-pthread", "-I", "/p/.build/peers/box2d3/include",
                          "-o", "/p/.build/peers/box2d3_driver", "/p/Peers/box2d3_driver.c",
                          "/p/.build/peers/box2d3/lib64/libbox2d.a", "-lm"])

        let lib = Box2D3SourceBuild.libraryFlags(source: "/s", avx2: true)
        #expect(lib == ["-std=c17", "-O2", "-ffp-contract=off", "-DNDEBUG", "-mavx2", "-DBOX2D_AVX2",
                        "-I", "/s/include", "-I", "/s/src"])
        #expect(!Box2D3SourceBuild.libraryFlags(source: "/s", avx2: false).contains("-mavx2"))
        let driver = Box2D3SourceBuild.driverArguments(driver: "d.c", source: "/s", avx2: false, v32: true,
                                                       objects: ["a.o", "b.o"], output: "out")
        #expect(driver.contains("-DB2_V32") && !driver.contains("-DBOX2D_AVX2"))
        #expect(Array(driver.suffix(4)) == ["d.c", "a.o", "b.o", "-lm"])
        #expect(!Box2D3SourceBuild.driverArguments(driver: "d.c", source: "/s", avx2: true, v32: false,
                                                   objects: [], output: "out").contains("-DB2_V32"))
    }

    @Test func sourceTreeVersionAndProcessorFlags() throws {
        let v32 = "b2Version b2GetVersion( void )\n{\n\treturn (b2Version){\n\t\t.major = 3,\n\t\t.minor = 2,\n\t\t.revision = 0,\n\t};\n}\n"
        let v = try #require(Box2D3SourceBuild.version(coreC: v32))
        #expect(v.major == 3 && v.minor == 2 && v.revision == 0)
        #expect(Box2D3SourceBuild.engineName(major: v.major, minor: v.minor) == "box2d3.2")
        let v30 = try #require(Box2D3SourceBuild.version(coreC: "b2Version b2GetVersion( void )\n{\n\treturn ( b2Version ){ 3, 0, 0 };\n}"))
        #expect(v30.major == 3 && v30.minor == 0)
        #expect(Box2D3SourceBuild.version(coreC: "int main(void) { return 0; }") == nil)

        #expect(Box2D3SourceBuild.hasAVX2(cpuinfo: "processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma\n"))
        #expect(!Box2D3SourceBuild.hasAVX2(cpuinfo: "flags\t\t: fpu sse2 avx avx512f\n"))
        // FNV-1a 64 of "a".
        #expect(Box2D3SourceBuild.fnv1a(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
    }

    @Test func rowsPerThreadCountCompareWithOursAtTheSameCount() throws {
        let ours = PeerComparison.ours
        // One repeat as the command interleaves it: 1 thread (ours, box2d, box2d3), then 2 (ours, box2d3).
        let runs = [Self.run(ours, threads: 1, rate: 100), Self.run("box2d", threads: nil, rate: 50),
                    Self.run("box2d3", threads: 1, rate: 80), Self.run(ours, threads: 2, rate: 180),
                    Self.run("box2d3", threads: 2, rate: 120)]
        let c = PeerComparison(runs: runs, engines: [ours, "box2d", "box2d3"])
        #expect(c.rows.map { "\($0.engine)×\($0.threads)" } == ["\(ours)×1", "box2d×1", "box2d3×1", "\(ours)×2", "box2d3×2"])
        #expect(c.row(scene: "pile", items: 4000, engine: "box2d")?.oursOverThis == 2.0)
        #expect(c.row(scene: "pile", items: 4000, engine: "box2d3", threads: 1)?.oursOverThis == 1.25)
        #expect(c.row(scene: "pile", items: 4000, engine: "box2d3", threads: 2)?.oursOverThis == 1.5)
        #expect(c.row(scene: "pile", items: 4000, engine: "box2d", threads: 2) == nil)

        let markdown = c.markdown().split(separator: "\n")
        #expect(markdown[0].contains("| engine | threads | steps/s |"))
        #expect(markdown.count == 2 + 5)
        #expect(markdown[6].contains("| box2d3 | 2 | 120.0 |"))
        let json = try c.jsonLines()
        #expect(json[4].contains("\"threads\":2") && json[4].contains("\"ours_over_this\":1.5"))
    }
}

import BenchSupport
import Foundation
import Testing

/// The pure logic of `dynamics-bench peers`: reading a driver's result line, the size plan and
/// the ratios. No driver is compiled or run here (Box2D and Chipmunk need not be installed).
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
}

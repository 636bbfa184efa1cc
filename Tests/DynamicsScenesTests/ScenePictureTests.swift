@testable import DynamicsScenes
import DynamicsEngine
import DynamicsRender
import Testing

/// `ScenePictures.swift`: what a scene instance shows (its world, or its driver's picture) and
/// how a recording steps it. How worlds, views and animators look is DynamicsRenderTests'.
@Suite("Scene pictures")
struct ScenePictureTests {
    @Test("a world scene is its world, flipped when y is up, fitted around its body size, titled with name and size")
    func worldScene() throws {
        let scene = try SceneCatalog.scene(named: "pyramid").build(size: 4, seed: 0)
        scene.run(steps: 3)
        func world(yUp: Bool) -> String {
            Renderer.svg(of: scene.world, yUp: yUp, bodySize: Double(scene.frame.bodySize), dt: Double(scene.dt), title: "pyramid 4")
        }
        let picture = Renderer.svg(of: scene)
        #expect(picture == world(yUp: true))
        #expect(picture != world(yUp: false), "the flip shows in the picture")
        #expect(picture.contains("pyramid 4"))
        // y-down scenes are drawn unflipped.
        let islands = try SceneCatalog.scene(named: "islands").build(size: 2, seed: 3)
        #expect(Renderer.svg(of: islands) == Renderer.svg(of: islands.world, yUp: false, bodySize: 40, title: "islands 2"))
    }

    @Test("a component scene is its first component's screen; the dashboard is its animator")
    func driverScenes() throws {
        let menus = try SceneCatalog.scene(named: "menus").build(size: 3, seed: 0)
        menus.run(steps: 20)
        let d = try #require(menus.driver as? MenusDriver)
        var titled = RenderOptions()
        titled.title = "menus 3"
        #expect(Renderer.svg(of: menus) == Renderer.svg(of: d.components[0].targetView, clock: d.clocks[0], options: titled))
        #expect(Renderer.svg(of: menus) != Renderer.svg(of: d.components[1].targetView, clock: d.clocks[1], options: titled),
                "menu 0 is shown by now, menu 1 not yet")

        let dashboard = try SceneCatalog.scene(named: "dashboard").build(size: 50, seed: 1)
        let dd = try #require(dashboard.driver as? DashboardDriver)
        titled.title = "dashboard 50"
        #expect(Renderer.svg(of: dashboard) == Renderer.svg(of: dd.animator, options: titled))
    }

    @Test("recording a scene steps it: 12 steps, a frame every 3 → 5 frames, the last at 12 dt")
    func recording() throws {
        let scene = try SceneCatalog.scene(named: "pile").build(size: 20, seed: 0)
        let rec = Renderer.record(scene: scene, steps: 12, every: 3)
        #expect(scene.stepsTaken == 12)
        #expect(rec.frameCount == 5)
        #expect(abs((rec.times.last ?? 0) - 12 * Double(scene.dt)) < 1e-9)
    }
}

import Testing
import DynamicsComponents
import DynamicsScenes

/// Small, faithful versions of the UI benchmark scenes `menus`, `alerts` and `dashboard`.
@Suite("Component scenes")
struct ComponentScenesTests {
    @Test("menus 12 × 200 steps: every menu toggles on its schedule, rests where it should, and 1 and 3 workers give the same states")
    func menus() throws {
        let one = try SceneCatalog.scene(named: "menus").build(size: 12, seed: 0)
        let three = try SceneCatalog.scene(named: "menus").build(size: 12, seed: 0)
        three.workerCount = 3
        // Frame 0 shows menu 0; menu i is first toggled at frame 90 − i (i > 0).
        for _ in 0..<200 { one.step(); three.step() }
        let a = try #require(one.driver as? MenusDriver), b = try #require(three.driver as? MenusDriver)
        #expect(a.components.map { $0.menuView.center } == b.components.map { $0.menuView.center }, "components are independent: worker count cannot matter")
        for (i, menu) in a.components.enumerated() {
            // Toggles happened at frames f with (f + i) % 90 == 0, f < 200.
            let toggles = (0..<200).filter { ($0 + i) % 90 == 0 }
            #expect(menu.isMenuShown == (toggles.count % 2 == 1), "menu \(i)")
            #expect(b.components[i].isMenuShown == menu.isMenuShown, "menu \(i), 3 workers")
            let sinceToggle = 200 - (toggles.last ?? 0)
            if sinceToggle >= 60 {   // a second is enough to come to rest
                let f = menu.menuView.frame
                if menu.isMenuShown { #expect(abs(f.minX - menu.menuFrame.minX) <= 1, "menu \(i) at \(f)") }
                else { #expect(f.maxX <= 0.5 || f.minX >= 374.5, "menu \(i) at \(f)") }
            }
        }
        let r = one.sanity()
        #expect(r.passed && r.bodies == 12)
    }

    @Test("alerts 6 × 260 steps: alerts show and dismiss on schedule, handlers fire, sanity passes")
    func alerts() throws {
        let s = try SceneCatalog.scene(named: "alerts").build(size: 6, seed: 0)
        s.workerCount = 2
        for _ in 0..<100 { s.step() }
        let d = try #require(s.driver as? AlertsDriver)
        // Alert 0 was shown at frame 0: by frame 100 it sits on the centre.
        #expect(d.components[0].isShown)
        #expect(abs(d.components[0].alertView.center.y - 333.5) <= 1)
        for _ in 0..<160 { s.step() }   // frame 260: alert 0 was dismissed at 120 and shown again at 240
        #expect(d.components[0].isShown)
        #expect(d.components[0].backgroundView.presentation.alpha > 0 && d.components[0].backgroundView.presentation.alpha < 0.5)
        #expect(s.sanity().passed)
    }

    @Test("alerts 250 × 300 steps: toggled in the advancing pass on 2 workers, bit for bit as all toggles first and then every clock on 1")
    func togglesInTheAdvancingPass() throws {
        let fused = try SceneCatalog.scene(named: "alerts").build(size: 250, seed: 0)
        fused.workerCount = 2
        let apart = try SceneCatalog.scene(named: "alerts").build(size: 250, seed: 0)
        var toggles = 0
        for _ in 0..<300 {
            fused.step()
            toggles += apart.makeToggles()
            apart.advance()
        }
        let a = try #require(fused.driver as? AlertsDriver), b = try #require(apart.driver as? AlertsDriver)
        // 250 alerts, each toggled at frames ≡ −i mod 120: at frames 0–299 alert i toggles
        // 2 or 3 times (3 when its first toggle comes before frame 60).
        #expect(toggles == (0..<250).reduce(0) { n, i in n + (0..<300).filter { ($0 + i) % 120 == 0 }.count })
        for i in 0..<250 {
            #expect(a.components[i].isShown == b.components[i].isShown, "alert \(i)")
            #expect(a.components[i].alertView.center == b.components[i].alertView.center, "alert \(i)")
            #expect(a.components[i].backgroundView.presentation.alpha == b.components[i].backgroundView.presentation.alpha, "alert \(i)")
        }
        #expect(Set(a.components.map(\.isShown)).count == 2, "some alerts shown, some dismissed")
    }

    @Test("dashboard 300 items × 120 steps: items stay inside the screen, menus and alerts toggle on the same clock")
    func dashboard() throws {
        let s = try SceneCatalog.scene(named: "dashboard").build(size: 300, seed: 7)
        let d = try #require(s.driver as? DashboardDriver)
        #expect(d.items.count == 300 && d.menus.count == 20 && d.alerts.count == 20)
        for _ in 0..<120 { s.step() }
        let r = s.sanity()
        #expect(r.escaped == 0, "items left the 2048 × 1536 screen")
        #expect(r.bodies == 340)
        #expect(d.menus.contains { $0.isMenuShown } && d.alerts.contains { $0.isShown })
        #expect(abs(d.clock.time - 2) < 1e-9)
        // Gravity pulled the items down: their average height above the bottom edge fell.
        #expect(r.averageHeight < s.initialMaxHeight)
    }

    @Test("dashboard 1 000 items left alone after its first cycle comes to rest: every item asleep within 20 s")
    func dashboardComesToRest() throws {
        // Seed 0 has a 24 pt circle wedged in the first layer's pile, which rocked at about
        // 1 pt/s for good while its contacts kept their manifolds (contact recycling).
        let s = try SceneCatalog.scene(named: "dashboard").build(size: 1000, seed: 0)
        let d = try #require(s.driver as? DashboardDriver)
        d.stopChangingAfterFirstCycle()
        var frame = 0
        while frame < 1200 && !(d.isAtRest && d.awakeBodyCount == 0) { s.step(); frame += 1 }
        #expect(d.awakeBodyCount == 0, "\(d.awakeBodyCount) items still awake after \(frame) frames")
        #expect(d.isAtRest)
    }
}

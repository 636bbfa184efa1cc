import DynamicsKit
import DynamicsScenes
import Foundation
import Testing

/// The `animators` scene: each card's cycle frame by frame against its timing, worker counts
/// that cannot matter, and the sanity check passing — and failing when a card is not home.
@Suite("Animators scene")
struct AnimatorsSceneTests {
    @Test("a card's cycle: eased out, caught, dragged linearly, let go and sprung home, completing at .start")
    func oneCardCycle() throws {
        let s = try SceneCatalog.scene(named: "animators").build(size: 1, seed: 0)
        let d = try #require(s.driver as? AnimatorsDriver)
        let card = d.cards[0], home = d.homes[0]
        let offset = CGPoint(x: 110, y: -200)
        func progress() -> (Double, Double) {
            let p = card.presentation.center
            return (Double((p.x - home.x) / offset.x), Double((p.y - home.y) / offset.y))
        }
        // Frame 0 starts it; after step k the animation is k/60 s in (0.6 s, ease-out).
        for k in 1...20 {
            s.step()
            let (px, py) = progress()
            let expected = AnimationCurve.easeOut.value(at: Double(k) / 36)
            #expect(abs(px - expected) < 1e-9 && abs(py - expected) < 1e-9, "step \(k)")
        }
        #expect(card.center == CGPoint(x: home.x + offset.x, y: home.y + offset.y), "the model is at the end at once")
        // Step 21 pauses (frame 20): frozen.
        let caught = progress()
        s.step()
        #expect(progress() == caught && !d.animators[0].isRunning)
        // Frames 21 … 44: the finger places it linearly.
        for k in 21...44 {
            s.step()
            let caughtFraction = 20.0 / 36
            let f = caughtFraction + 0.4 * sin(Double.pi * Double(k - 20) / 30)
            #expect(abs(progress().0 - f) < 1e-9, "drag frame \(k)")
        }
        // Frame 45: let go; the card springs home and the completion finds it there.
        var previous = progress().0
        var sawOvershoot = false
        for _ in 45..<120 {
            s.step()
            let p = progress().0
            #expect(p.isFinite)
            if p < 0 { sawOvershoot = true }
            previous = p
        }
        #expect(previous == 0 && card.center == home && card.transform == .identity)
        #expect(sawOvershoot, "a damping ratio of 0.55 overshoots home")
        let r = s.sanity()
        #expect(r.passed, "\(r.failures)")
        #expect(r.metrics["completions"] == 1 && r.metrics["cycles_started"] == 1)
    }

    @Test("animators 120 × 400 steps: 1 and 2 workers, fused or apart, present the same; sanity passes; a card moved away fails it")
    func manyCards() throws {
        let one = try SceneCatalog.scene(named: "animators").build(size: 120, seed: 0)
        let two = try SceneCatalog.scene(named: "animators").build(size: 120, seed: 0)
        two.workerCount = 2
        var toggles = 0
        for _ in 0..<400 {
            one.step()
            toggles += two.makeToggles()
            two.advance()
        }
        // Card i starts at frames ≡ −i (mod 180).
        #expect(toggles == (0..<120).reduce(0) { n, i in n + (0..<400).filter { ($0 + i) % 180 == 0 }.count })
        let a = try #require(one.driver as? AnimatorsDriver), b = try #require(two.driver as? AnimatorsDriver)
        #expect(a.cards.map { $0.presentation.center } == b.cards.map { $0.presentation.center })
        #expect(a.cards.map(\.center) == b.cards.map(\.center))
        let r = one.sanity()
        #expect(r.passed, "\(r.failures)")
        #expect(r.bodies == 120 && r.escaped == 0)
        #expect((r.metrics["completions"] ?? 0) > 120)

        // A card between cycles pulled away from home (a direct set): the check fails.
        let idle = try #require(a.cards.indices.first { ((400 - 1) + $0) % 180 > 100 })
        a.cards[idle].center.x += 30
        let broken = one.sanity()
        #expect(!broken.passed && broken.failures == ["idle_cards_home"])
    }
}

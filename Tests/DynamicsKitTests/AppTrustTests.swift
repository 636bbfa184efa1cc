import DynamicsEngine
import DynamicsKit
import Foundation
import Testing

/// Counts a collision delegate's calls per pair, and fails on a second `began` without an
/// `ended` between them or an `ended` without a `began`.
final class ContactLedger: CollisionBehaviorDelegate {
    private(set) var began: [String: Int] = [:]
    private(set) var ended: [String: Int] = [:]
    private(set) var touching: Set<String> = []
    private(set) var violations: [String] = []
    var onBegan: ((String) -> Void)?

    static func name(_ item: any DynamicItem) -> String { (item as? DynamicView)?.name ?? "\(ObjectIdentifier(item))" }
    static func key(_ a: any DynamicItem, _ b: any DynamicItem) -> String { [name(a), name(b)].sorted().joined(separator: "+") }
    static func key(_ a: any DynamicItem, _ id: String?) -> String { name(a) + "|" + (id ?? "bounds") }

    private func begin(_ k: String) {
        began[k, default: 0] += 1
        if !touching.insert(k).inserted { violations.append("second began for \(k)") }
        onBegan?(k)
    }
    private func end(_ k: String) {
        ended[k, default: 0] += 1
        if touching.remove(k) == nil { violations.append("ended without began for \(k)") }
    }
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem, at p: CGPoint) {
        begin(Self.key(item1, item2))
    }
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem) {
        end(Self.key(item1, item2))
    }
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?, at p: CGPoint) {
        begin(Self.key(item, identifier))
    }
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?) {
        end(Self.key(item, identifier))
    }
}

private func view(_ name: String, _ frame: CGRect) -> DynamicView {
    let v = DynamicView(frame: frame)
    v.name = name
    return v
}

/// Driven the way an app drives it, the API neither crashes nor misreports.
@Suite("DynamicsKit: an app's whole life")
struct AppTrustTests {
    let bounds = CGRect(x: 0, y: 0, width: 375, height: 667)

    @Test("the tutorial's toggle: remove all behaviors while an item rests on the bounds, add new ones: no crash, every began ended")
    func toggleWhileResting() {
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: bounds, clock: clock)
        let item = view("menu", CGRect(x: 100, y: 500, width: 100, height: 100))
        let first = ContactLedger()
        let collision = CollisionBehavior(items: [item])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = first
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [item]))
        clock.run(for: 2)
        // It bounced (elasticity 0.2): every touch began once and every bounce ended it once.
        #expect(first.touching == ["menu|bounds"])
        #expect(first.began["menu|bounds"] == first.ended["menu|bounds", default: 0] + 1)
        #expect(abs(item.center.y - 617) < 2, "rests on the floor: \(item.center)")

        let second = ContactLedger()
        for round in 0..<3 {
            animator.removeAllBehaviors()
            // The removed behavior's delegate hears the end at once.
            #expect(first.touching.isEmpty && first.began["menu|bounds"] == first.ended["menu|bounds"], "round \(round)")
            let again = CollisionBehavior(items: [item])
            again.translatesReferenceBoundsIntoBoundary = true
            again.collisionDelegate = second
            animator.addBehavior(again)
            animator.addBehavior(GravityBehavior(items: [item]))
            clock.run(for: 0.5)
            // Back on the floor at once (it never left it): one began per round, no ended yet.
            #expect(second.touching == ["menu|bounds"], "round \(round)")
            #expect(second.began["menu|bounds"] == round + 1, "round \(round)")
            #expect(second.ended["menu|bounds", default: 0] == round, "round \(round)")
        }
        animator.removeAllBehaviors()
        #expect(second.touching.isEmpty && first.touching.isEmpty)
        #expect(first.violations.isEmpty && second.violations.isEmpty, "\(first.violations) \(second.violations)")
    }

    @Test("adding an unrelated boundary or item announces nothing again; after a push lifts the item began == ended")
    func noRepeatedBegan() {
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: bounds, clock: clock)
        let item = view("a", CGRect(x: 50, y: 500, width: 100, height: 100))
        let ledger = ContactLedger()
        let collision = CollisionBehavior(items: [item])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "shelf", from: CGPoint(x: 0, y: 400), to: CGPoint(x: 160, y: 400))
        collision.collisionDelegate = ledger
        animator.addBehavior(collision)
        let gravity = GravityBehavior(items: [item])
        animator.addBehavior(gravity)
        clock.run(for: 1.5)
        #expect(ledger.touching == ["a|bounds"])
        let began0 = ledger.began["a|bounds"]!, ended0 = ledger.ended["a|bounds", default: 0]

        collision.addBoundary(withIdentifier: "far", from: CGPoint(x: 300, y: 100), to: CGPoint(x: 360, y: 100))
        clock.run(for: 0.5)
        let far = view("b", CGRect(x: 250, y: 100, width: 40, height: 40))
        collision.addItem(far)
        clock.run(for: 0.5)
        // Replacing the shelf (still not touching) and changing the bounds slightly repeat nothing either.
        collision.addBoundary(withIdentifier: "shelf", from: CGPoint(x: 0, y: 390), to: CGPoint(x: 160, y: 390))
        animator.referenceBounds = CGRect(x: 0, y: 0, width: 376, height: 667)
        clock.run(for: 0.5)
        #expect(ledger.began["a|bounds"] == began0)
        #expect(ledger.ended["a|bounds", default: 0] == ended0)

        // A push lifts it off the floor (gravity off): it ends exactly once.
        animator.removeBehavior(gravity)
        let push = PushBehavior(items: [item], mode: .instantaneous)
        push.setAngle(-.pi / 2, magnitude: 2)
        animator.addBehavior(push)
        clock.run(for: 0.1)
        #expect(item.center.y < 600)
        #expect(ledger.began["a|bounds"] == began0 && ledger.ended["a|bounds"] == began0)
        #expect(ledger.violations.isEmpty, "\(ledger.violations)")
    }

    @Test("a corner of the reference bounds is one contact: one began for identifier nil")
    func corner() {
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: bounds, clock: clock)
        let item = view("c", CGRect(x: 200, y: 400, width: 60, height: 60))
        let ledger = ContactLedger()
        let collision = CollisionBehavior(items: [item])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = ledger
        animator.addBehavior(collision)
        let gravity = GravityBehavior(items: [item])
        gravity.gravityDirection = CGVector(dx: 1, dy: 1)
        animator.addBehavior(gravity)
        clock.run(for: 2)
        #expect(abs(item.center.x - 345) < 2 && abs(item.center.y - 637) < 2, "in the corner: \(item.center)")
        // Only the identifier nil, never two at once (the ledger flags a second began).
        #expect(Set(ledger.began.keys) == ["c|bounds"] && ledger.touching == ["c|bounds"])
        collision.translatesReferenceBoundsIntoBoundary = false
        #expect(ledger.touching.isEmpty && ledger.ended["c|bounds"] == ledger.began["c|bounds"], "turning the loop off ends the contact at once")
        #expect(ledger.violations.isEmpty, "\(ledger.violations)")
    }

    @Test("item pairs: one began and one ended per pair, also when an item or the behavior leaves")
    func itemPairs() {
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: bounds, clock: clock)
        let lower = view("lower", CGRect(x: 100, y: 560, width: 100, height: 100))
        let upper = view("upper", CGRect(x: 110, y: 400, width: 80, height: 80))
        let ledger = ContactLedger()
        let collision = CollisionBehavior(items: [lower, upper])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = ledger
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [lower, upper]))
        clock.run(for: 2)
        #expect(ledger.touching == ["lower|bounds", "lower+upper"])
        let began0 = ledger.began["lower+upper"]!
        collision.removeItem(upper)
        #expect(!ledger.touching.contains("lower+upper") && ledger.ended["lower+upper"] == began0, "leaving the behavior ends its pairs at once")
        collision.addItem(upper)
        clock.run(for: 0.1)
        #expect(ledger.began["lower+upper"] == began0 + 1, "back in the behavior while touching: began again")
        animator.removeBehavior(collision)
        #expect(ledger.touching.isEmpty)
        #expect(ledger.began["lower+upper"] == ledger.ended["lower+upper"])
        #expect(ledger.violations.isEmpty, "\(ledger.violations)")
    }

    @Test("changes made from a delegate call: removing the item's behaviors inside began neither crashes nor loses the ended")
    func changesFromDelegate() {
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: bounds, clock: clock)
        let a = view("a", CGRect(x: 100, y: 100, width: 50, height: 50))
        let b = view("b", CGRect(x: 100, y: 560, width: 100, height: 100))
        let ledger = ContactLedger()
        let collision = CollisionBehavior(items: [a, b])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = ledger
        let gravity = GravityBehavior(items: [a, b])
        animator.addBehavior(collision)
        animator.addBehavior(gravity)
        var fired = 0
        ledger.onBegan = { key in
            guard key == "a+b" else { return }
            fired += 1
            collision.removeItem(a)
            gravity.removeItem(a)
            animator.removeAllBehaviors()
        }
        clock.run(for: 2)
        #expect(fired == 1)
        #expect(animator.behaviors.isEmpty && animator.items.isEmpty)
        #expect(ledger.touching.isEmpty, "\(ledger.touching)")
        #expect(ledger.violations.isEmpty, "\(ledger.violations)")
    }

    @Test("motion is kept: other items joining or leaving a behavior, other behaviors coming and going")
    func motionKept() {
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 2000, height: 4000), clock: clock)
        let faller = view("f", CGRect(x: 100, y: 100, width: 50, height: 50))
        let other = view("o", CGRect(x: 1000, y: 100, width: 50, height: 50))
        let gravity = GravityBehavior(items: [faller])
        let spin = DynamicItemBehavior(items: [faller])
        spin.angularResistance = 0
        animator.addBehavior(gravity)
        animator.addBehavior(spin)
        spin.addAngularVelocity(2, for: faller)
        clock.run(for: 0.3)
        let v0 = spin.linearVelocity(for: faller), w0 = spin.angularVelocity(for: faller)
        #expect(abs(v0.y - 300) < 3, "v = g t = 300 pt/s, got \(v0)")
        gravity.addItem(other)
        let collision = CollisionBehavior(items: [other])
        animator.addBehavior(collision)
        collision.addItem(faller)
        collision.removeItem(faller)
        animator.removeBehavior(collision)
        gravity.removeItem(other)
        let push = PushBehavior(items: [other], mode: .continuous)
        animator.addBehavior(push)
        animator.removeBehavior(push)
        #expect(spin.linearVelocity(for: faller) == v0, "velocity kept")
        #expect(spin.angularVelocity(for: faller) == w0, "spin kept")
        let y0 = faller.center.y
        clock.run(for: 0.1)
        // s = v t + g t² / 2 = 30 + 5 pt.
        #expect(abs(faller.center.y - y0 - 35) < 1, "keeps falling: moved \(faller.center.y - y0)")
    }

    @Test("gravity's angle and magnitude behave as push's")
    func gravityAngleMagnitude() {
        let g = GravityBehavior()
        #expect(g.angle == .pi / 2 && g.magnitude == 1)
        g.magnitude = 0
        #expect(g.gravityDirection == .zero && g.angle == .pi / 2)
        g.magnitude = 3
        #expect(abs(g.gravityDirection.dy - 3) < 1e-12 && abs(g.angle - .pi / 2) < 1e-12)
        g.gravityDirection = CGVector(dx: -2, dy: 0)
        #expect(g.magnitude == 2 && abs(g.angle - .pi) < 1e-12)
        g.setAngle(0, magnitude: 0)
        g.angle = -.pi / 2
        #expect(g.gravityDirection == .zero && g.angle == -.pi / 2)
        g.magnitude = 1
        #expect(abs(g.gravityDirection.dy + 1) < 1e-12)
        let p = PushBehavior(items: [], mode: .continuous)
        #expect(p.angle == 0 && p.magnitude == 0)
    }

    @Test("push: angle and magnitude are independent, in every order")
    func pushAngleMagnitude() {
        let a = PushBehavior(items: [], mode: .continuous)
        a.angle = .pi / 2
        a.magnitude = 1
        #expect(abs(a.pushDirection.dx) < 1e-12 && abs(a.pushDirection.dy - 1) < 1e-12)
        let b = PushBehavior(items: [], mode: .continuous)
        b.magnitude = 1
        b.angle = .pi / 2
        #expect(abs(b.pushDirection.dx) < 1e-12 && abs(b.pushDirection.dy - 1) < 1e-12)
        b.magnitude = 0
        #expect(b.pushDirection == .zero && b.angle == .pi / 2)
        b.magnitude = 3
        #expect(abs(b.pushDirection.dy - 3) < 1e-12 && abs(b.angle - .pi / 2) < 1e-12)
        b.pushDirection = CGVector(dx: -2, dy: 0)
        #expect(b.magnitude == 2 && abs(b.angle - .pi) < 1e-12)
        b.setAngle(0, magnitude: 0)
        b.angle = -.pi / 2
        #expect(b.pushDirection == .zero)
        b.magnitude = 1
        #expect(abs(b.pushDirection.dy + 1) < 1e-12)
        let g = GravityBehavior()
        g.magnitude = 0
        g.angle = 0
        g.magnitude = 2
        #expect(abs(g.gravityDirection.dx - 2) < 1e-12 && abs(g.gravityDirection.dy) < 1e-12)

        // And it pushes down on a device-sized item: 100 × 100 pt, mass 1, impulse 1 → 100 pt/s.
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1000, height: 1000), clock: clock)
        let item = view("p", CGRect(x: 450, y: 100, width: 100, height: 100))
        let push = PushBehavior(items: [item], mode: .instantaneous)
        push.angle = .pi / 2
        push.magnitude = 1
        animator.addBehavior(push)
        clock.run(for: 0.5)
        #expect(abs(item.center.y - 200) < 1 && abs(item.center.x - 500) < 1e-3, "moved to \(item.center)")
    }

    @Test("one clock: run(for:) moves view animations, advance(by:) moves physics by exactly the time given, tick(timestamp:) keeps the stall rule")
    func oneClock() {
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1000, height: 10000), clock: clock)
        let item = view("i", CGRect(x: 100, y: 100, width: 50, height: 50))
        let badge = view("badge", CGRect(x: 0, y: 0, width: 10, height: 10))
        let floor = ContactLedger()
        let collision = CollisionBehavior(items: [item])
        collision.addBoundary(withIdentifier: "floor", from: CGPoint(x: 0, y: 300), to: CGPoint(x: 1000, y: 300))
        collision.collisionDelegate = floor
        var faded = false
        floor.onBegan = { _ in
            DynamicView.animate(withDuration: 0.5, clock: clock, animations: { badge.alpha = 0 }, completion: { faded = $0 })
        }
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [item]))
        animator.run(for: 1.5)
        #expect(floor.began["i|floor", default: 0] >= 1)
        #expect(faded, "a fade started from a collision delegate completes under animator.run")
        #expect(badge.presentation.alpha == 0)

        // advance(by: 2) is 2 s of physics: a free fall of 2 000 pt.
        let clock2 = AnimationClock()
        let a2 = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1000, height: 10000), clock: clock2)
        let falling = view("g", CGRect(x: 100, y: 0, width: 50, height: 50))
        a2.addBehavior(GravityBehavior(items: [falling]))
        clock2.advance(by: 2)
        #expect(abs(falling.center.y - 25 - 2000) < 20, "fell \(falling.center.y - 25)")
        // step(by:) is exact too: 0.3 s more (v = 2000, s = 600 + 45).
        let y = falling.center.y
        a2.step(by: 0.3)
        #expect(abs(falling.center.y - y - 645) < 10, "fell \(falling.center.y - y)")

        // tick(timestamp:): the first call records; gaps advance; a gap above 0.5 s is 1/60 s; backwards is nothing.
        let clock3 = AnimationClock()
        clock3.tick(timestamp: 1000)
        #expect(clock3.time == 0)
        clock3.tick(timestamp: 1000.25)
        #expect(abs(clock3.time - 0.25) < 1e-9)
        clock3.tick(timestamp: 1003)
        #expect(abs(clock3.time - 0.25 - 1.0 / 60) < 1e-9)
        clock3.tick(timestamp: 1002)
        #expect(abs(clock3.time - 0.25 - 1.0 / 60) < 1e-9)
        clock3.tick(timestamp: 1002.5)
        #expect(abs(clock3.time - 0.75 - 1.0 / 60) < 1e-9)
    }

    @Test("runUntilPaused advances the clock: a view animation on it moves too")
    func runUntilPausedAdvancesClock() {
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400), clock: clock)
        let item = view("s", CGRect(x: 50, y: 50, width: 40, height: 40))
        animator.addBehavior(SnapBehavior(item: item, snapTo: CGPoint(x: 200, y: 200)))
        let other = view("o", CGRect(x: 0, y: 0, width: 10, height: 10))
        DynamicView.animate(withDuration: 0.2, clock: clock, animations: { other.alpha = 0.5 })
        #expect(animator.runUntilPaused(timeout: 10))
        #expect(other.presentation.alpha == 0.5)
        #expect(clock.time > 0.2)
    }

    @Test("every concrete behavior can be subclassed, as in UIKit")
    func subclassing() {
        final class MyGravity: GravityBehavior { var moves = 0; override func willMove(to a: DynamicAnimator?) { moves += 1 } }
        final class MyCollision: CollisionBehavior { var added = 0; override func addItem(_ item: any DynamicItem) { added += 1; super.addItem(item) } }
        final class MyPush: PushBehavior {}
        final class MySnap: SnapBehavior {}
        final class MyAttachment: AttachmentBehavior {}
        final class MyItem: DynamicItemBehavior {}
        final class MyField: FieldBehavior {}
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400), clock: clock)
        let v = view("v", CGRect(x: 100, y: 100, width: 40, height: 40))
        let g = MyGravity(items: [v]), c = MyCollision()
        let behaviors: [DynamicBehavior] = [g, c, MyPush(items: [v], mode: .continuous), MySnap(item: v, snapTo: CGPoint(x: 200, y: 200)),
                                            MyAttachment(item: v, attachedToAnchor: CGPoint(x: 100, y: 50)), MyItem(items: [v]),
                                            MyField(evaluation: { _, _, _, _, _ in CGVector(dx: 1, dy: 0) })]
        for b in behaviors { animator.addBehavior(b) }
        c.addItem(v)
        clock.run(for: 0.1)
        #expect(g.moves == 1 && c.added == 1 && c.items.count == 1)
        animator.removeAllBehaviors()
        #expect(g.moves == 2)
    }
}

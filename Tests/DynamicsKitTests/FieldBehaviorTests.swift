import DynamicsKit
import Foundation
import Testing

/// Each field kind pulls the way the spec says; only the field's own items inside its region
/// feel it.
@Suite("DynamicsKit fields")
struct FieldBehaviorTests {
    let bounds = CGRect(x: -2000, y: -2000, width: 4000, height: 4000)

    func item(at p: CGPoint) -> DynamicView { DynamicView(frame: CGRect(x: p.x - 10, y: p.y - 10, width: 20, height: 20)) }

    func simulate(_ field: FieldBehavior, _ items: [DynamicView], seconds: Double = 0.2, charge: CGFloat = 0) -> DynamicAnimator {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let props = DynamicItemBehavior(items: items); props.charge = charge; props.allowsRotation = false
        animator.addBehavior(props)
        for i in items { field.addItem(i) }
        animator.addBehavior(field)
        animator.run(for: seconds)
        return animator
    }

    @Test("linear gravity accelerates along its direction")
    func linearGravity() {
        let v = item(at: .zero)
        _ = simulate(FieldBehavior.linearGravityField(direction: CGVector(dx: 1, dy: 0)), [v])
        #expect(v.center.x > 15 && abs(v.center.y) < 0.5, "\(v.center)")  // ½·1000·0.2² = 20
    }

    @Test("radial gravity pulls toward its position from every side")
    func radialGravity() {
        let items = [item(at: CGPoint(x: 300, y: 0)), item(at: CGPoint(x: -300, y: 0)), item(at: CGPoint(x: 0, y: 300))]
        _ = simulate(FieldBehavior.radialGravityField(position: .zero), items)
        #expect(items[0].center.x < 290 && items[1].center.x > -290 && items[2].center.y < 290)
    }

    @Test("the spring field's pull grows with distance")
    func spring() {
        let near = item(at: CGPoint(x: 100, y: 0)), far = item(at: CGPoint(x: 300, y: -1000))
        let field = FieldBehavior.springField()
        field.position = CGPoint(x: 0, y: 0)
        _ = simulate(field, [near, far], seconds: 0.05)
        let farField = (300 - far.center.x)
        #expect(100 - near.center.x > 0 && farField > 2 * (100 - near.center.x))
    }

    @Test("drag slows a moving item; velocity field only acts inside its region")
    func dragAndVelocity() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let moving = item(at: .zero), inside = item(at: CGPoint(x: 500, y: 500)), outside = item(at: CGPoint(x: 900, y: 500))
        let props = DynamicItemBehavior(items: [moving, inside, outside])
        animator.addBehavior(props)
        props.addLinearVelocity(CGPoint(x: 300, y: 0), for: moving)
        let drag = FieldBehavior.dragField(); drag.strength = 5; drag.addItem(moving)
        let velocity = FieldBehavior.velocityField(direction: CGVector(dx: 0, dy: -2))
        velocity.position = CGPoint(x: 500, y: 500); velocity.region = Region(radius: 100)
        velocity.addItem(inside); velocity.addItem(outside)
        animator.addBehavior(drag); animator.addBehavior(velocity)
        animator.run(for: 0.5)
        #expect(props.linearVelocity(for: moving).x < 50)
        #expect(props.linearVelocity(for: inside).y < -100, "\(props.linearVelocity(for: inside))")
        #expect(props.linearVelocity(for: outside) == .zero)
    }

    @Test("vortex moves items tangentially around its position")
    func vortex() {
        let v = item(at: CGPoint(x: 200, y: 0))
        _ = simulate(FieldBehavior.vortexField(), [v], seconds: 0.1)
        #expect(abs(v.center.y) > 3 * abs(v.center.x - 200), "mostly tangential: \(v.center)")
    }

    @Test("electric fields act only on charged items; magnetic fields turn moving charges")
    func electricAndMagnetic() {
        let neutral = item(at: CGPoint(x: 200, y: 0))
        _ = simulate(FieldBehavior.electricField(), [neutral])
        #expect(neutral.center == CGPoint(x: 200, y: 0))
        let charged = item(at: CGPoint(x: 200, y: 0))
        _ = simulate(FieldBehavior.electricField(), [charged], charge: 1)
        #expect(charged.center.x > 205, "a positive charge is pushed away from the field: \(charged.center)")
        // Magnetic: a charge moving +x with B out of the screen is pushed along v × B = (0, −v).
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let m = item(at: .zero)
        let props = DynamicItemBehavior(items: [m]); props.charge = 1
        animator.addBehavior(props)
        props.addLinearVelocity(CGPoint(x: 300, y: 0), for: m)
        let magnetic = FieldBehavior.magneticField(); magnetic.strength = 0.1; magnetic.addItem(m)  // ω = qB/m = 2.5 rad/s
        animator.addBehavior(magnetic)
        animator.run(for: 0.05)
        #expect(props.linearVelocity(for: m).y < -10)
        let speed = hypot(props.linearVelocity(for: m).x, props.linearVelocity(for: m).y)
        #expect(abs(speed - 300) < 1, "a magnetic force does no work: speed \(speed)")
    }

    @Test("a custom field applies the closure's force; regions combine")
    func customAndRegions() {
        let v = item(at: .zero)
        _ = simulate(FieldBehavior.field { _, _, mass, _, _ in CGVector(dx: 0, dy: -500 * mass) }, [v])
        #expect(v.center.y < -8)
        let w = item(at: .zero)
        let uikit = FieldBehavior.field(evaluationBlock: { field, _, _, mass, _, _ in CGVector(dx: 500 * mass * field.strength, dy: 0) })
        _ = simulate(uikit, [w])
        #expect(w.center.x > 8, "UIKit's evaluationBlock spelling works too")
        let ring = Region(radius: 100).difference(from: Region(radius: 50))
        #expect(ring.contains(CGPoint(x: 75, y: 0)) && !ring.contains(CGPoint(x: 10, y: 0)) && !ring.contains(CGPoint(x: 150, y: 0)))
        #expect(Region(size: CGSize(width: 10, height: 20)).inverse().contains(CGPoint(x: 6, y: 0)))
        #expect(Region(radius: 5).union(with: Region(size: CGSize(width: 100, height: 2))).contains(CGPoint(x: 40, y: 0)))
    }

    @Test("noise and turbulence push items along a smooth field that varies with place and time")
    func noiseAndTurbulence() {
        for make in [{ FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 1) }, { FieldBehavior.turbulenceField(smoothness: 0.5, animationSpeed: 1) }] {
            let a = item(at: CGPoint(x: 0, y: 0)), b = item(at: CGPoint(x: 400, y: 700))
            _ = simulate(make(), [a, b], seconds: 0.3)
            let da = CGPoint(x: a.center.x, y: a.center.y), db = CGPoint(x: b.center.x - 400, y: b.center.y - 700)
            #expect(hypot(da.x, da.y) > 1 || hypot(db.x, db.y) > 1, "the field moved nothing")
            #expect(abs(da.x - db.x) + abs(da.y - db.y) > 0.5, "the field is the same everywhere")
        }
    }
}

@testable import DynamicsKit
import Foundation
import Testing

/// The recipes of the classic UIKit Dynamics chapter, checked against the physics they should
/// show. Reference bounds 320 × 480 pt, y down; gravity magnitude 1 = 1000 pt/s².
@Suite("DynamicsKit recipes")
struct AnimatorRecipeTests {
    final class PauseCounter: DynamicAnimatorDelegate {
        var pauses = 0, resumes = 0
        func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { pauses += 1 }
        func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { resumes += 1 }
    }

    final class ContactLog: CollisionBehaviorDelegate {
        var boundaryBegins: [(String?, CGPoint)] = []
        var itemBegins = 0
        func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?, at p: CGPoint) {
            boundaryBegins.append((identifier, p))
        }
        func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem, at p: CGPoint) {
            itemBegins += 1
        }
    }

    let bounds = CGRect(x: 0, y: 0, width: 320, height: 480)

    @Test("a square under gravity falls 500 pt in 1 s (±2%) and, with no boundary, never pauses")
    func freeFall() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let square = DynamicView(frame: CGRect(x: 100, y: 0, width: 100, height: 100))
        let start = square.center.y
        animator.addBehavior(GravityBehavior(items: [square]))
        #expect(animator.isRunning)
        animator.run(for: 1)
        #expect(abs(square.center.y - start - 500) <= 10, "fell \(square.center.y - start)")
        #expect(abs(animator.elapsedTime - 1) < 1e-9)
        #expect(animator.runUntilPaused(timeout: 2) == false, "a falling item keeps the animator running")
    }

    @Test("the animator pauses within timeToSleep + 1 frame of its last item coming to rest, and a paused animator's ticks step nothing")
    func pausesSoonAfterRest() {
        let clock = AnimationClock()
        let animator = DynamicAnimator(referenceBounds: bounds, clock: clock)
        let counter = PauseCounter()
        animator.delegate = counter
        let items = [DynamicView(frame: CGRect(x: 40, y: 100, width: 80, height: 80)),
                     DynamicView(frame: CGRect(x: 180, y: 0, width: 60, height: 100))]
        animator.addBehavior(GravityBehavior(items: items))
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        let probe = DynamicItemBehavior(items: items)
        animator.addBehavior(probe)
        // The animator's rest: at most 1 pt/s and 2°/s. The last frame at which an item moved
        // faster, and the frame at which the delegate heard the pause.
        var frame = 0, lastMoving = 0, pausedAt: Int?
        while frame < 600 && pausedAt == nil {
            clock.advance(by: 1.0 / 60.0)
            frame += 1
            for v in items {
                let lv = probe.linearVelocity(for: v)
                if (lv.x * lv.x + lv.y * lv.y).squareRoot() > 1 || abs(probe.angularVelocity(for: v)) > 2 * .pi / 180 {
                    lastMoving = frame
                }
            }
            if counter.pauses > 0 { pausedAt = frame }
        }
        let paused = try! #require(pausedAt, "the items should come to rest within 10 s")
        // timeToSleep is 0.5 s: 30 frames of resting, plus the frame that puts them to sleep.
        #expect(paused > lastMoving && paused <= lastMoving + 31, "last moving at frame \(lastMoving), paused at \(paused)")
        let steps = animator.world.stepCount
        clock.advance(by: 1)
        #expect(animator.world.stepCount == steps, "a paused animator at rest does not step its world")
        #expect(!animator.isRunning && counter.pauses == 1)
        // While paused it still counts time, and keeps the part of a sub-step (1/120 s) left
        // over: half a sub-step, a push, then another half make exactly one step.
        let elapsed = animator.elapsedTime
        animator.step(by: 1.0 / 240)
        #expect(animator.world.stepCount == steps && abs(animator.elapsedTime - elapsed - 1.0 / 240) < 1e-12)
        let resumes = counter.resumes
        let push = PushBehavior(items: [items[0]], mode: .instantaneous)
        push.pushDirection = CGVector(dx: 0, dy: -1)
        animator.addBehavior(push)
        animator.step(by: 1.0 / 240)
        #expect(animator.world.stepCount == steps + 1, "the leftover half and the new half make one sub-step")
        #expect(animator.isRunning && counter.resumes == resumes + 1)
    }

    @Test("two stacked squares inside the reference bounds come to rest without overlapping; the delegate hears one pause")
    func stackInBounds() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let counter = PauseCounter()
        animator.delegate = counter
        let a = DynamicView(frame: CGRect(x: 100, y: 100, width: 100, height: 100))
        let b = DynamicView(frame: CGRect(x: 120, y: 0, width: 100, height: 100))
        animator.addBehavior(GravityBehavior(items: [a, b]))
        let collision = CollisionBehavior(items: [a, b])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        var settled = 0
        animator.whenSettled { settled += 1 }
        #expect(animator.runUntilPaused(timeout: 10), "the stack should come to rest")
        #expect(counter.pauses == 1)
        #expect(settled == 1, "the settled handler runs once, at the pause")
        // The bounds' boundary is a loop 1 pt outside them; items rest against it with at most
        // the soft-contact overlap (< 0.5 pt).
        for v in [a, b] {
            #expect(v.frame.minX >= -1.5 && v.frame.maxX <= 321.5 && v.frame.maxY <= 481.5, "\(v.frame) left the bounds")
        }
        // Resting on the floor and on each other: no overlap beyond the contact slop.
        #expect(abs(a.frame.maxY - 480) < 2 || abs(b.frame.maxY - 480) < 2)
        let lower = a.center.y > b.center.y ? a : b, upper = lower === a ? b : a
        #expect(lower.frame.minY - upper.frame.maxY > -2, "the squares overlap")
    }

    /// A 100-pt square at the top under gravity, with a collision behavior holding a boundary
    /// line "barrier" at y = 380 (the collision behavior is added last, with `delegate`).
    func squareAboveBarrier(delegate: CollisionBehaviorDelegate? = nil) -> (DynamicAnimator, DynamicView, CollisionBehavior) {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let square = DynamicView(frame: CGRect(x: 100, y: 0, width: 100, height: 100))
        animator.addBehavior(GravityBehavior(items: [square]))
        let collision = CollisionBehavior(items: [square])
        collision.addBoundary(withIdentifier: "barrier", from: CGPoint(x: 0, y: 380), to: CGPoint(x: 320, y: 380))
        collision.collisionDelegate = delegate
        animator.addBehavior(collision)
        return (animator, square, collision)
    }

    @Test("a boundary line 100 pt above the bottom stops the items there and reports its identifier and a point on it")
    func boundaryLine() {
        let log = ContactLog()
        let (animator, square, collision) = squareAboveBarrier(delegate: log)
        animator.runUntilPaused(timeout: 10)
        #expect(abs(square.frame.maxY - 380) < 1.5, "rests at \(square.frame.maxY)")
        #expect(log.boundaryBegins.count >= 1)
        let (id, p) = log.boundaryBegins[0]
        #expect(id == "barrier")
        #expect(abs(p.y - 380) < 1.5 && p.x >= 99 && p.x <= 201, "contact point \(p) is not on the line under the square")
        #expect(collision.boundaryIdentifiers == ["barrier"])
    }

    @Test("a delegate set while the behavior is already animating is told; one cleared is not; one set again starts from nothing")
    func delegateSetWhileAnimating() {
        let (animator, square, collision) = squareAboveBarrier()
        animator.step(by: 0.1)  // falling, not there yet
        #expect(square.frame.maxY < 300)
        let log = ContactLog()
        collision.collisionDelegate = log
        animator.runUntilPaused(timeout: 10)
        #expect(log.boundaryBegins.count >= 1 && log.boundaryBegins.first?.0 == "barrier",
                "the delegate set mid-fall hears the landing (and any bounce): \(log.boundaryBegins.count) calls")
        let heard = log.boundaryBegins.count
        // Cleared: nothing more is told; set again (the square resting on the line), the
        // delegate starts from nothing and hears about the pair that touches.
        collision.collisionDelegate = nil
        square.center.y -= 30
        animator.updateItem(usingCurrentState: square)
        animator.runUntilPaused(timeout: 10)
        #expect(log.boundaryBegins.count == heard, "a cleared delegate is not told")
        collision.collisionDelegate = log
        animator.updateItem(usingCurrentState: square)
        animator.step(by: 1.0 / 60)
        #expect(log.boundaryBegins.count == heard + 1, "the delegate set again hears the pair touching now")
    }

    @Test("collisionMode .boundaries: the squares sink into each other but rest on the boundary")
    func boundariesOnly() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let a = DynamicView(frame: CGRect(x: 100, y: 200, width: 100, height: 100))
        let b = DynamicView(frame: CGRect(x: 100, y: 50, width: 100, height: 100))
        animator.addBehavior(GravityBehavior(items: [a, b]))
        let collision = CollisionBehavior(items: [a, b])
        collision.collisionMode = .boundaries
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.runUntilPaused(timeout: 10)
        #expect(abs(a.frame.maxY - 480) < 2 && abs(b.frame.maxY - 480) < 2, "both rest on the floor: \(a.frame), \(b.frame)")
        #expect(abs(a.center.y - b.center.y) < 2, "they pass through each other")
    }

    @Test("push: continuous accelerates a 100 × 100 item at 100 pt/s² per unit; instantaneous adds 100 pt/s per unit once, and again when re-activated")
    func push() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let c = DynamicView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let i = DynamicView(frame: CGRect(x: 0, y: 200, width: 100, height: 100))
        let still = DynamicItemBehavior(items: [c, i])
        still.resistance = 0
        animator.addBehavior(still)
        let continuous = PushBehavior(items: [c], mode: .continuous)
        continuous.setAngle(0, magnitude: 2)
        let instant = PushBehavior(items: [i], mode: .instantaneous)
        instant.pushDirection = CGVector(dx: 3, dy: 0)
        animator.addBehavior(continuous)
        animator.addBehavior(instant)
        animator.run(for: 1)
        // x = ½ a t² with a = 200 pt/s².
        #expect(abs(c.center.x - 50 - 100) <= 3, "continuous push moved \(c.center.x - 50)")
        #expect(abs(still.linearVelocity(for: i).x - 300) <= 1)
        #expect(instant.active == false)
        instant.active = true
        animator.run(for: 0.1)
        #expect(abs(still.linearVelocity(for: i).x - 600) <= 2)
    }

    @Test("elasticity 1 bounces higher than 0.3")
    func elasticity() {
        func bounceApex(_ e: CGFloat) -> CGFloat {
            let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
            let v = DynamicView(frame: CGRect(x: 100, y: 100, width: 50, height: 50))
            animator.addBehavior(GravityBehavior(items: [v]))
            let c = CollisionBehavior(items: [v]); c.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(c)
            let ib = DynamicItemBehavior(items: [v]); ib.elasticity = e; ib.resistance = 0
            animator.addBehavior(ib)
            var hit = false, apex: CGFloat = 1000, lastY = v.center.y
            for _ in 0..<120 {
                animator.step(by: 1.0 / 60)
                if v.frame.maxY > 478 { hit = true }
                if hit { apex = min(apex, v.center.y) }
                lastY = v.center.y
            }
            _ = lastY
            return 480 - apex
        }
        #expect(bounceApex(1) > bounceApex(0.3) + 50)
    }

    @Test("a spinning item's view turns at its angular velocity through a full turn, keeping its scale")
    func spinWrittenBack() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let v = DynamicView(frame: CGRect(x: 100, y: 100, width: 80, height: 40))
        v.transform = CGAffineTransform(scaleX: 1.5, y: 1.5)
        let spin = DynamicItemBehavior(items: [v])
        spin.angularResistance = 0
        animator.addBehavior(spin)
        spin.addAngularVelocity(2, for: v)
        // 3 s at 2 rad/s: 6 rad, a turn less 0.283 rad; written back frame by frame (a
        // rotation by each frame's change of the body's angle, taken by the engine's
        // arctangent), so errors would pile up over the 180 frames.
        var turned = 0.0, last = 0.0
        for _ in 0..<180 {
            animator.run(for: 1.0 / 60.0)
            let a = Double(v.transform.rotationAngle)
            turned += remainder(a - last, 2 * .pi)
            last = a
        }
        // (The integrator turns a sub-step by atan(h·w), short of h·w by (h·w)³/3: 1.4e-4 rad
        // over the 6.)
        #expect(abs(turned - 6) < 5e-4, "turned \(turned) rad")
        #expect(abs(Double(v.transform.rotationAngle) - remainder(6, 2 * .pi)) < 5e-4)
        let t = v.transform
        #expect(abs(Double((t.a * t.a + t.b * t.b).squareRoot()) - 1.5) < 1e-9, "scale kept: \(t)")
        #expect(abs(Double(t.a * t.c + t.b * t.d)) < 1e-9, "still a rotation and a scale: \(t)")
    }

    @Test("allowsRotation = false keeps the angle 0 even when hit off-centre")
    func noRotation() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let v = DynamicView(frame: CGRect(x: 100, y: 100, width: 100, height: 40))
        let ib = DynamicItemBehavior(items: [v]); ib.allowsRotation = false
        animator.addBehavior(ib)
        let push = PushBehavior(items: [v], mode: .instantaneous)
        push.setAngle(.pi / 2, magnitude: 2)
        push.setTargetOffsetFromCenter(Offset(horizontal: 40, vertical: 0), for: v)
        animator.addBehavior(push)
        animator.run(for: 0.5)
        #expect(v.transform.rotationAngle == 0)
        #expect(v.center.y > 150, "it moved")
    }

    @Test("resistance slows motion; anchored items never move but are hit; density decides who moves")
    func itemProperties() {
        // Resistance.
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let free = DynamicView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        let damped = DynamicView(frame: CGRect(x: 0, y: 100, width: 20, height: 20))
        let f = DynamicItemBehavior(items: [free]); f.resistance = 0
        let d = DynamicItemBehavior(items: [damped]); d.resistance = 5
        animator.addBehavior(f); animator.addBehavior(d)
        f.addLinearVelocity(CGPoint(x: 200, y: 0), for: free)
        d.addLinearVelocity(CGPoint(x: 200, y: 0), for: damped)
        animator.run(for: 0.5)
        #expect(d.linearVelocity(for: damped).x < 0.2 * f.linearVelocity(for: free).x)
        // Anchored and density.
        let a2 = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 2000, height: 480), clock: AnimationClock())
        let wall = DynamicView(frame: CGRect(x: 400, y: 100, width: 50, height: 200))
        let heavy = DynamicView(frame: CGRect(x: 100, y: 180, width: 40, height: 40))
        let light = DynamicView(frame: CGRect(x: 250, y: 180, width: 40, height: 40))
        let anchor = DynamicItemBehavior(items: [wall]); anchor.isAnchored = true
        let heavyB = DynamicItemBehavior(items: [heavy]); heavyB.density = 10; heavyB.resistance = 0; heavyB.elasticity = 0
        let lightB = DynamicItemBehavior(items: [light]); lightB.resistance = 0; lightB.elasticity = 0
        a2.addBehavior(anchor); a2.addBehavior(heavyB); a2.addBehavior(lightB)
        a2.addBehavior(CollisionBehavior(items: [wall, heavy, light]))
        heavyB.addLinearVelocity(CGPoint(x: 300, y: 0), for: heavy)
        let wallCenter = wall.center
        a2.run(for: 2)
        #expect(wall.center == wallCenter, "an anchored item never moves")
        #expect(light.frame.maxX <= 401 && light.frame.maxX > 395, "the light box was pushed against the wall: \(light.frame)")
        #expect(heavy.center.x > 250, "the heavy box kept going after hitting the light one")
    }

    @Test("child behaviors and actions run every tick; behavior changes made in an action wait for the end of the tick")
    func actionsAndChildren() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let v = DynamicView(frame: CGRect(x: 100, y: 0, width: 40, height: 40))
        let composite = DynamicBehavior()
        let gravity = GravityBehavior(items: [v])
        composite.addChildBehavior(gravity)
        var ticks = 0, childTicks = 0
        composite.action = { ticks += 1 }
        gravity.action = { childTicks += 1 }
        var removedDuringTick = false
        gravity.action = {
            childTicks += 1
            if childTicks == 30 {
                composite.removeChildBehavior(gravity)
                animator.removeBehavior(composite)
                removedDuringTick = animator.behaviors.isEmpty
            }
        }
        animator.addBehavior(composite)
        #expect(gravity.dynamicAnimator === animator)
        animator.run(for: 0.1)  // 12 ticks of 1/120 s
        #expect(ticks == 12 && childTicks == 12)
        animator.run(for: 0.5)
        #expect(!removedDuringTick, "the removal waited for the end of the tick")
        #expect(animator.behaviors.isEmpty)
        #expect(!animator.isRunning)
    }

    @Test("an action set, replaced or cleared while its behavior is in an animator takes effect from the next tick")
    func actionsSetAfterJoining() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let v = DynamicView(frame: CGRect(x: 100, y: 0, width: 40, height: 40))
        let gravity = GravityBehavior(items: [v])
        let child = DynamicBehavior()
        gravity.addChildBehavior(child)
        animator.addBehavior(gravity)
        animator.step(by: 1.0 / 60)  // 2 ticks, no action yet
        var parentTicks = 0, childTicks = 0
        gravity.action = { parentTicks += 1 }
        child.action = { childTicks += 1 }
        animator.step(by: 0.05)  // 6 ticks
        #expect(parentTicks == 6 && childTicks == 6)
        child.action = { childTicks += 10 }
        animator.step(by: 1.0 / 60)
        #expect(parentTicks == 8 && childTicks == 26, "the replaced action runs")
        gravity.action = nil
        animator.step(by: 1.0 / 60)
        #expect(parentTicks == 8 && childTicks == 46, "a cleared action no longer runs; the other still does")
        gravity.removeChildBehavior(child)
        animator.step(by: 1.0 / 60)
        #expect(childTicks == 46, "a removed child's action no longer runs")
        // A plain behavior is nothing to animate; with an action it is, and the action runs
        // every tick (even once the animator paused for want of moving bodies).
        let plain = DynamicBehavior()
        animator.removeAllBehaviors()
        animator.addBehavior(plain)
        #expect(!animator.isRunning)
        animator.removeBehavior(plain)
        var plainTicks = 0
        plain.action = { plainTicks += 1 }
        animator.addBehavior(plain)
        #expect(animator.isRunning)
        animator.step(by: 0.1)
        #expect(plainTicks == 12)
    }

    @Test("items(in:), updateItem(usingCurrentState:), behaviors, adding twice")
    func queriesAndUpdates() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let a = DynamicView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        let b = DynamicView(frame: CGRect(x: 200, y: 0, width: 50, height: 50))
        let gravity = GravityBehavior(items: [a, b])
        gravity.magnitude = 0
        animator.addBehavior(gravity)
        animator.addBehavior(gravity)
        #expect(animator.behaviors.count == 1)
        let found = animator.items(in: CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(found.count == 1 && found[0] === a)
        a.center = CGPoint(x: 300, y: 300)
        animator.updateItem(usingCurrentState: a)
        animator.step(by: 1.0 / 60)
        #expect(abs(a.center.x - 300) < 1e-3 && abs(a.center.y - 300) < 1e-3)
        #expect(gravity.angle == .pi / 2 || gravity.magnitude == 0)
    }

    @Test("removing a behavior from a collision delegate call takes effect after the tick")
    func changeFromDelegate() {
        final class Remover: CollisionBehaviorDelegate {
            weak var animator: DynamicAnimator?
            var gravity: GravityBehavior?
            var countDuringCall = -1
            func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?, at p: CGPoint) {
                guard let animator, let gravity, countDuringCall < 0 else { return }
                animator.removeBehavior(gravity)
                countDuringCall = animator.behaviors.count
            }
        }
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let v = DynamicView(frame: CGRect(x: 100, y: 300, width: 50, height: 50))
        let gravity = GravityBehavior(items: [v])
        let collision = CollisionBehavior(items: [v])
        collision.translatesReferenceBoundsIntoBoundary = true
        let remover = Remover()
        remover.animator = animator; remover.gravity = gravity
        collision.collisionDelegate = remover
        animator.addBehavior(gravity); animator.addBehavior(collision)
        animator.run(for: 1)
        #expect(remover.countDuringCall == 2, "still two behaviors during the delegate call")
        #expect(animator.behaviors.count == 1 && animator.behaviors[0] === collision, "removed after the tick")
    }
}

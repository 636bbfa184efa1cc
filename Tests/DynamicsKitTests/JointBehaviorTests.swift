import DynamicsKit
import Foundation
import Testing

/// Attachment and snap behaviors against the physics they should show.
@Suite("DynamicsKit attachments and snap")
struct JointBehaviorTests {
    let bounds = CGRect(x: 0, y: 0, width: 1000, height: 1000)

    @Test("a rigid attachment to an anchor keeps its length (±0.5 %) while the anchor moves")
    func rigidAnchor() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let v = DynamicView(frame: CGRect(x: 480, y: 680, width: 40, height: 40))
        animator.addBehavior(GravityBehavior(items: [v]))
        let a = AttachmentBehavior(item: v, attachedToAnchor: CGPoint(x: 500, y: 500))
        #expect(abs(a.length - 200) < 1e-6)
        animator.addBehavior(a)
        var worst: CGFloat = 0
        for k in 0..<120 {
            a.anchorPoint = CGPoint(x: 500 + CGFloat(k) * 2, y: 500)  // drag right at 120 pt/s
            animator.step(by: 1.0 / 60)
            worst = max(worst, abs(hypot(v.center.x - a.anchorPoint.x, v.center.y - a.anchorPoint.y) - 200))
        }
        #expect(worst <= 1, "length error \(worst) of 200")
        #expect(v.center.x > 600, "the item followed the anchor: \(v.center)")
    }

    @Test("a spring attachment oscillates at its frequency (±5 %)")
    func springFrequency() {
        let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
        let v = DynamicView(frame: CGRect(x: 680, y: 480, width: 40, height: 40))
        let lock = DynamicItemBehavior(items: [v]); lock.allowsRotation = false; lock.angularResistance = 0
        animator.addBehavior(lock)
        let a = AttachmentBehavior(item: v, attachedToAnchor: CGPoint(x: 500, y: 500))
        a.length = 150
        a.frequency = 2
        a.damping = 0
        animator.addBehavior(a)
        var crossings: [Double] = []
        var last = hypot(v.center.x - 500, v.center.y - 500) - 150
        var t = 0.0
        for _ in 0..<480 {
            animator.step(by: 1.0 / 120); t += 1.0 / 120
            let x = hypot(v.center.x - 500, v.center.y - 500) - 150
            if last > 0 && x <= 0 { crossings.append(t) }
            last = x
        }
        #expect(crossings.count >= 4)
        let period = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
        #expect(abs(1 / period - 2) <= 0.1, "measured \(1 / period) Hz")
    }

    @Test("snap brings the item to the point and its rotation to 0, overshooting less at damping 0.9 than 0.1")
    func snap() {
        func overshoot(_ damping: CGFloat) -> (CGFloat, DynamicView) {
            let animator = DynamicAnimator(referenceBounds: bounds, clock: AnimationClock())
            let v = DynamicView(frame: CGRect(x: 80, y: 480, width: 40, height: 40))
            v.transform = CGAffineTransform(rotationAngle: 0.8)
            let snap = SnapBehavior(item: v, snapTo: CGPoint(x: 500, y: 500))
            snap.damping = damping
            animator.addBehavior(snap)
            var maxX: CGFloat = 0
            for _ in 0..<240 { animator.step(by: 1.0 / 60); maxX = max(maxX, v.center.x) }
            return (maxX - 500, v)
        }
        let (low, vLow) = overshoot(0.1)
        let (high, vHigh) = overshoot(0.9)
        #expect(low > high + 20, "overshoot 0.1: \(low), 0.9: \(high)")
        for v in [vLow, vHigh] {
            #expect(abs(v.center.x - 500) < 1 && abs(v.center.y - 500) < 1, "\(v.center)")
            #expect(abs(v.transform.rotationAngle) < 0.01)
        }
    }

    @Test("pin with an angle range, fixed, limit (rope) and sliding attachments do what their names say")
    func factories() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 4000, height: 2000), clock: AnimationClock())
        // Pin: a bar hinged to an anchored block swings down but stops at +30°.
        let block = DynamicView(frame: CGRect(x: 80, y: 80, width: 40, height: 40))
        let bar = DynamicView(frame: CGRect(x: 100, y: 95, width: 200, height: 10))
        let anchor = DynamicItemBehavior(items: [block]); anchor.isAnchored = true
        let pin = AttachmentBehavior.pinAttachment(with: bar, attachedTo: block, attachmentAnchor: CGPoint(x: 100, y: 100))
        pin.attachmentRange = FloatRange(minimum: -.pi / 6, maximum: .pi / 6)
        // Fixed: two boxes welded fall together keeping distance and relative angle.
        let w1 = DynamicView(frame: CGRect(x: 800, y: 100, width: 40, height: 40))
        let w2 = DynamicView(frame: CGRect(x: 840, y: 100, width: 40, height: 40))
        let fixed = AttachmentBehavior.fixedAttachment(with: w2, attachedTo: w1, attachmentAnchor: CGPoint(x: 840, y: 120))
        // Limit: a box hangs from an anchored block by a 150 pt rope; it may not go farther.
        let top = DynamicView(frame: CGRect(x: 1480, y: 80, width: 40, height: 40))
        let hanging = DynamicView(frame: CGRect(x: 1480, y: 230, width: 40, height: 40))
        let limit = AttachmentBehavior.limitAttachment(with: hanging, offsetFromCenter: .zero, attachedTo: top, offsetFromCenter: .zero)
        // Sliding: a box on a horizontal axis through (2500, 100) does not fall.
        let slider = DynamicView(frame: CGRect(x: 2480, y: 80, width: 40, height: 40))
        let sliding = AttachmentBehavior.slidingAttachment(with: slider, attachmentAnchor: CGPoint(x: 2500, y: 100),
                                                           axisOfTranslation: CGVector(dx: 1, dy: 0))
        let anchorTop = DynamicItemBehavior(items: [top]); anchorTop.isAnchored = true
        for b in [anchor, anchorTop, pin, fixed, limit, sliding] as [DynamicBehavior] { animator.addBehavior(b) }
        animator.addBehavior(GravityBehavior(items: [bar, w1, w2, hanging, slider]))
        var maxAngle: CGFloat = 0, maxRope: CGFloat = 0
        for _ in 0..<120 {
            animator.step(by: 1.0 / 60)
            maxAngle = max(maxAngle, bar.transform.rotationAngle)
            maxRope = max(maxRope, hypot(hanging.center.x - top.center.x, hanging.center.y - top.center.y))
        }
        #expect(maxAngle <= .pi / 6 + 0.03 && maxAngle > .pi / 6 - 0.08, "pin swung to \(maxAngle)")
        #expect(abs(hypot(w2.center.x - w1.center.x, w2.center.y - w1.center.y) - 40) < 0.5)
        #expect(abs(w1.transform.rotationAngle - w2.transform.rotationAngle) < 0.01)
        #expect(w1.center.y > 500, "the welded pair fell")
        #expect(maxRope <= 150.8, "rope stretched to \(maxRope)")
        #expect(abs(slider.center.y - 100) < 0.5, "the slider fell off its axis: \(slider.center)")
    }
}

import Testing
import DynamicsKit

/// Attachment and snap behaviors against the physics they should show.
@Suite("DynamicsKit attachments and snap")
struct JointBehaviorTests {
    let bounds = CGRect(x: 0, y: 0, width: 1000, height: 1000)

    @Test("a rigid attachment to an anchor keeps its length (±0.5 %) while the anchor moves")
    func rigidAnchor() {
        let animator = DynamicAnimator(referenceBounds: bounds)
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
        let animator = DynamicAnimator(referenceBounds: bounds)
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
            let animator = DynamicAnimator(referenceBounds: bounds)
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
}

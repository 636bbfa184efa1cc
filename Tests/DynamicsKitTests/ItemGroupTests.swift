import DynamicsKit
import Foundation
import Testing

@Suite("DynamicsKit item groups")
struct ItemGroupTests {
    @Test("a group moves as one rigid body: members keep their distance and turn together")
    func rigidGroup() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 2000, height: 2000), clock: AnimationClock())
        let left = DynamicView(frame: CGRect(x: 100, y: 100, width: 40, height: 40))
        let right = DynamicView(frame: CGRect(x: 300, y: 100, width: 40, height: 40))
        right.collisionBoundsType = .ellipse
        let group = DynamicItemGroup(items: [left, right])
        #expect(group.center == CGPoint(x: 220, y: 120))
        #expect(group.bounds.size == CGSize(width: 240, height: 40))
        animator.addBehavior(GravityBehavior(items: [group]))
        let push = PushBehavior(items: [group], mode: .instantaneous)
        push.setAngle(-.pi / 2, magnitude: 1)
        push.setTargetOffsetFromCenter(Offset(horizontal: 100, vertical: 0), for: group)
        animator.addBehavior(push)
        animator.run(for: 0.5)
        let d = hypot(right.center.x - left.center.x, right.center.y - left.center.y)
        #expect(abs(d - 200) < 0.01, "members drifted apart: \(d)")
        #expect(abs(left.transform.rotationAngle - right.transform.rotationAngle) < 1e-4)
        #expect(abs(left.transform.rotationAngle) > 0.05, "an off-centre push turns the group")
        #expect(left.center.y > 150, "the group fell")
    }

    @Test("groups cannot nest")
    func noNesting() async {
        await #expect(processExitsWith: .failure) {
            let inner = DynamicItemGroup(items: [DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))])
            _ = DynamicItemGroup(items: [inner])
        }
    }
}

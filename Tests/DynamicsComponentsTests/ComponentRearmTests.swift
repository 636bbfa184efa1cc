import DynamicsComponents
import DynamicsKit
import Foundation
import Testing

/// Records an animator's pause and resume calls.
private final class PauseLog: DynamicAnimatorDelegate {
    var calls: [String] = []
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { calls.append("resume") }
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { calls.append("pause") }
}

/// What one frame of a run looked like.
private struct Frame: Equatable {
    var center: CGPoint
    var angle: CGFloat
    var touching: Int
    var running: Bool
    var background: CGFloat

    /// What is on screen after a frame: the item's placement, its animator's contacts and state,
    /// the background's presented alpha.
    init(_ view: DynamicView, _ animator: DynamicAnimator, background: DynamicView) {
        center = view.center
        angle = view.transform.rotationAngle
        touching = animator.physicsWorld.touchingContactCount
        running = animator.isRunning
        self.background = background.presentation.alpha
    }
}

/// Components keep their behaviors and re-arm them on every toggle. These runs compare each
/// component, frame by frame, with the same steps made the way the spec words them (remove
/// all behaviors, add new ones): the same positions, contacts, pauses and fades, bit for bit.
@Suite("Components re-arm their behaviors")
struct ComponentRearmTests {
    static let target = CGRect(x: 0, y: 0, width: 375, height: 667)

    /// The spec's menu toggle with new behaviors each time (the reference).
    static func freshToggle(_ animator: DynamicAnimator, _ view: DynamicView, background: DynamicView,
                            open: Bool, leftToRight: Bool, clock: AnimationClock) {
        animator.removeAllBehaviors()
        let toward: CGFloat = leftToRight == open ? 1 : -1
        let gravity = GravityBehavior(items: [view])
        gravity.gravityDirection = CGVector(dx: toward, dy: 0)
        animator.addBehavior(gravity)
        let collision = CollisionBehavior(items: [view])
        let x: CGFloat = leftToRight ? (open ? 150 : -150) : (open ? 375 - 150 : 375 + 150)
        collision.addBoundary(withIdentifier: "collisionBoundary", from: CGPoint(x: x, y: 0), to: CGPoint(x: x, y: 667))
        animator.addBehavior(collision)
        let item = DynamicItemBehavior(items: [view])
        item.elasticity = 0.35
        animator.addBehavior(item)
        let push = PushBehavior(items: [view], mode: .instantaneous)
        push.pushDirection = CGVector(dx: toward * 15, dy: 0)
        animator.addBehavior(push)
        let alpha: CGFloat = open ? 0.25 : 0
        DynamicView.animate(withDuration: 0.25, clock: clock, animations: { background.alpha = alpha })
    }

    @Test("a menu toggled again and again (every 1.5 s, and once mid-slide) moves, touches, pauses and fades exactly like one given new behaviors each time; it keeps the same four behaviors", arguments: [MenuDirection.leftToRight, .rightToLeft])
    func menuMatchesFreshBehaviors(direction: MenuDirection) {
        let leftToRight = direction == .leftToRight
        let frame = leftToRight ? CGRect(x: 0, y: 0, width: 150, height: 667) : CGRect(x: 225, y: 0, width: 150, height: 667)

        let clockA = AnimationClock()
        let menu = MenuComponent(frame: frame, targetView: DynamicView(frame: Self.target), direction: direction,
                                 options: ["Home", "Inbox"], optionImages: nil, clock: clockA)
        let logA = PauseLog()
        menu.animator.delegate = logA

        let clockB = AnimationClock()
        let animatorB = DynamicAnimator(referenceBounds: Self.target, clock: clockB)
        let viewB = DynamicView(frame: CGRect(x: leftToRight ? -150 : 375, y: 0, width: 150, height: 667))
        let backgroundB = DynamicView(frame: Self.target)
        backgroundB.alpha = 0
        let logB = PauseLog()
        animatorB.delegate = logB

        var kept: [DynamicBehavior]?
        var openB = false
        // Toggle frames: every 90 frames, plus one toggle 20 frames into a slide.
        let toggles: Set<Int> = [0, 90, 180, 200, 290]
        for f in 0..<470 {
            if toggles.contains(f) {
                if menu.isMenuShown { menu.hideMenu() } else { menu.showMenu { _ in } }
                openB.toggle()
                Self.freshToggle(animatorB, viewB, background: backgroundB, open: openB, leftToRight: leftToRight, clock: clockB)
                let now = menu.animator.behaviors
                #expect(now.count == 4)
                if let k = kept { #expect(zip(k, now).allSatisfy { $0 === $1 }, "the same behavior objects, re-armed") }
                kept = now
            }
            clockA.advance(by: 1.0 / 60.0)
            clockB.advance(by: 1.0 / 60.0)
            let a = Frame(menu.menuView, menu.animator, background: menu.backgroundView)
            let b = Frame(viewB, animatorB, background: backgroundB)
            if a != b {
                Issue.record("frame \(f): component \(a), fresh behaviors \(b)")
                break
            }
        }
        #expect(logA.calls == logB.calls && logA.calls.count >= 5, "pauses and resumes: \(logA.calls) vs \(logB.calls)")
        // After the last show the menu rests at its frame.
        #expect(menu.isMenuShown && abs(menu.menuView.frame.minX - frame.minX) <= 1)
        #expect(menu.animator.behaviors.compactMap { ($0 as? CollisionBehavior)?.boundary(withIdentifier: "collisionBoundary") }.first
                == [CGPoint(x: leftToRight ? 150 : 225, y: 0), CGPoint(x: leftToRight ? 150 : 225, y: 667)])
    }

    @Test("an alert shown and dismissed again and again moves, touches, pauses and fades exactly like one given new behaviors each time")
    func alertMatchesFreshBehaviors() {
        let clockA = AnimationClock()
        let alert = AlertComponent(title: "T", message: "M", buttonTitles: ["OK", "Later"],
                                   targetView: DynamicView(frame: Self.target), clock: clockA)
        let logA = PauseLog()
        alert.animator.delegate = logA

        let clockB = AnimationClock()
        let animatorB = DynamicAnimator(referenceBounds: Self.target, clock: clockB)
        let viewB = DynamicView(frame: alert.initialFrame)
        let backgroundB = DynamicView(frame: Self.target)
        backgroundB.alpha = 0
        let logB = PauseLog()
        animatorB.delegate = logB

        let toggles: Set<Int> = [0, 120, 240, 260, 380]
        var shownB = false
        for f in 0..<500 {
            if toggles.contains(f) {
                animatorB.removeAllBehaviors()
                if alert.isShown {
                    alert.tapButton(at: 1)
                    let push = PushBehavior(items: [viewB], mode: .instantaneous)
                    push.setAngle(.pi / 2, magnitude: 20)
                    animatorB.addBehavior(push)
                    let gravity = GravityBehavior(items: [viewB])
                    gravity.gravityDirection = CGVector(dx: 0, dy: -1)
                    animatorB.addBehavior(gravity)
                    let collision = CollisionBehavior(items: [viewB])
                    let y = alert.initialFrame.minY - 10
                    collision.addBoundary(withIdentifier: "alertCollisionBoundary", from: CGPoint(x: alert.initialFrame.minX, y: y),
                                          to: CGPoint(x: alert.initialFrame.maxX, y: y))
                    animatorB.addBehavior(collision)
                    let item = DynamicItemBehavior(items: [viewB])
                    item.elasticity = 0.4
                    animatorB.addBehavior(item)
                    DynamicView.animate(withDuration: 2, clock: clockB, animations: { backgroundB.alpha = 0 })
                } else {
                    alert.show { _, _ in }
                    let snap = SnapBehavior(item: viewB, snapTo: CGPoint(x: Self.target.midX, y: Self.target.midY))
                    snap.damping = 0.8
                    animatorB.addBehavior(snap)
                    DynamicView.animate(withDuration: 0.75, clock: clockB, animations: { backgroundB.alpha = 0.5 })
                }
                shownB.toggle()
                #expect(alert.isShown == shownB)
            }
            clockA.advance(by: 1.0 / 60.0)
            clockB.advance(by: 1.0 / 60.0)
            let a = Frame(alert.alertView, alert.animator, background: alert.backgroundView)
            let b = Frame(viewB, animatorB, background: backgroundB)
            if a != b {
                Issue.record("frame \(f): component \(a), fresh behaviors \(b)")
                break
            }
        }
        #expect(logA.calls == logB.calls && logA.calls.count >= 4, "pauses and resumes: \(logA.calls) vs \(logB.calls)")
    }
}

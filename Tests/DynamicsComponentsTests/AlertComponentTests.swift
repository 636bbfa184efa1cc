import DynamicsComponents
import DynamicsKit
import Foundation
import Testing

/// The drop-in alert on its own clock. Target 375 × 667 pt.
@Suite("AlertComponent")
struct AlertComponentTests {
    static let target = CGRect(x: 0, y: 0, width: 375, height: 667)

    static func make(buttons: [String] = ["OK", "Cancel"], clock: AnimationClock) -> AlertComponent {
        AlertComponent(title: "Hello", message: "A message that is long enough to wrap onto more than one line.",
                       buttonTitles: buttons, targetView: DynamicView(frame: target), clock: clock)
    }

    @Test("layout: 250 × (130 + 50 × buttons), title, message and buttons where the spec puts them, starting fully above the target")
    func layout() {
        let alert = Self.make(buttons: ["A", "B", "C"], clock: AnimationClock())
        #expect(alert.alertView.bounds.size == CGSize(width: 250, height: 280))
        #expect(alert.alertView.frame.minX == 187.5 && alert.alertView.frame.maxY == 0)
        #expect(alert.titleLabel.frame == CGRect(x: 0, y: 10, width: 250, height: 40))
        #expect(alert.messageLabel.frame == CGRect(x: 0, y: 50, width: 250, height: 80) && alert.messageLabel.numberOfLines == 3)
        #expect(alert.buttons.map { $0.frame } == [
            CGRect(x: 10, y: 130, width: 230, height: 40), CGRect(x: 10, y: 175, width: 230, height: 40),
            CGRect(x: 10, y: 220, width: 230, height: 40),
        ])
        #expect(alert.buttons.map { $0.text ?? "" } == ["A", "B", "C"])
        #expect(alert.backgroundView.frame == Self.target && alert.backgroundView.alpha == 0)
    }

    @Test("show: the alert settles with its centre on the target's centre (±1 pt); the background reaches 0.5 at 0.75 s")
    func show() {
        let clock = AnimationClock()
        let alert = Self.make(clock: clock)
        alert.show { _, _ in }
        #expect(alert.isShown)
        clock.run(for: 0.375)
        let half = alert.backgroundView.presentation.alpha
        #expect(half > 0.2 && half < 0.3, "ease-in-out is half way at half time: \(half)")
        clock.run(for: 0.375)
        #expect(abs(alert.backgroundView.presentation.alpha - 0.5) < 1e-9)
        #expect(clock.runUntilIdle(timeout: 10), "the snap should settle")
        let c = alert.alertView.center
        #expect(abs(c.x - 187.5) <= 1 && abs(c.y - 333.5) <= 1, "centre \(c)")
        #expect(abs(alert.alertView.transform.rotationAngle) < 0.02)
    }

    @Test("tap: the handler gets (index, title) before anything moves; the alert ends resting above the target; the background is 0 at 2 s; show brings it back")
    func tapAndShowAgain() {
        let clock = AnimationClock()
        let alert = Self.make(clock: clock)
        var calls: [(Int, String)] = []
        var centreAtCall: CGPoint?
        var behaviorsAtCall = -1
        alert.show { i, t in
            calls.append((i, t)); centreAtCall = alert.alertView.center; behaviorsAtCall = alert.animator.behaviors.count
        }
        clock.runUntilIdle(timeout: 10)
        let rest = alert.alertView.center
        alert.tapButton(at: 1)
        #expect(calls.count == 1 && calls[0].0 == 1 && calls[0].1 == "Cancel")
        #expect(centreAtCall == rest && behaviorsAtCall == 1, "the handler runs before the dismissal starts (the snap still in place)")
        #expect(!alert.isShown)
        clock.run(for: 2)
        #expect(alert.backgroundView.presentation.alpha == 0)
        #expect(clock.runUntilIdle(timeout: 20), "the alert should come to rest")
        let f = alert.alertView.frame
        #expect(f.maxY <= 0, "rests above the target: \(f)")
        #expect(abs(f.minY - (alert.initialFrame.minY - 10)) <= 1.5, "against the boundary 10 pt above its start: \(f)")
        alert.tapButton(at: 0)
        #expect(calls.count == 1, "a dismissed alert's buttons cannot be tapped")

        alert.show { i, t in calls.append((i, t)) }
        clock.runUntilIdle(timeout: 10)
        #expect(abs(alert.alertView.center.x - 187.5) <= 1 && abs(alert.alertView.center.y - 333.5) <= 1)
        #expect(alert.backgroundView.presentation.alpha == 0.5)
        alert.tapButton(at: 0)
        #expect(calls.count == 2 && calls[1].0 == 0 && calls[1].1 == "OK")
    }
}

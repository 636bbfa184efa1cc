import DynamicsKit
import Foundation

/// A drop-in alert moved only by dynamic behaviors (the custom alert view of the classic UIKit
/// Dynamics tutorial, headless).
///
/// Layout: `alertView` is 250 × (130 + 50 × buttons): a title row at y 10 (height 40), the
/// message at y 50 (height 80, up to 3 lines), then buttons 230 × 40, 5 pt apart, from y 130.
/// It starts fully above the target with its left edge at the target's centre x; a
/// `backgroundView` over the whole target starts at alpha 0. Both are subviews of `targetView`.
///
/// `show` removes all behaviors, snaps the alert to the target's centre (damping 0.8) and fades
/// the background to 0.5 over 0.75 s. A tap (`tapButton(at:)`) first calls the selection
/// handler with the button's index and title, then removes all behaviors and adds an
/// instantaneous push (angle π/2, magnitude 20: a nudge down), gravity (0, −1) (up), a
/// collision boundary `"alertCollisionBoundary"` 10 pt above the alert's starting top edge and
/// as wide as the alert, and elasticity 0.4, while the background fades to 0 over 2 s. The
/// alert ends resting above the target; `show` drops it in again. Indices are 0-based. There is
/// no public dismiss: a button tap dismisses.
///
/// Use from the thread that advances `clock`.
public final class AlertComponent {
    /// The alert (a subview of `targetView`).
    public let alertView: DynamicView
    /// Covers the target; fades to 0.5 while the alert is shown.
    public let backgroundView: DynamicView
    public let targetView: DynamicView
    public let title: String
    public let message: String
    public let buttonTitles: [String]
    /// The animator that moves the alert (reference bounds: the target's bounds).
    public let animator: DynamicAnimator
    /// The title label, message label and buttons (subviews of `alertView`).
    public let titleLabel: DynamicView
    public let messageLabel: DynamicView
    public let buttons: [DynamicView]
    /// The alert's frame before the first `show` (fully above the target).
    public let initialFrame: CGRect
    /// True from `show` until a button is tapped.
    public private(set) var isShown = false

    /// Alert width (pt).
    public static let width: CGFloat = 250

    private var selectionHandler: ((Int, String) -> Void)?
    private let clock: AnimationClock

    public init(title: String, message: String, buttonTitles: [String],
                targetView: DynamicView, clock: AnimationClock = .main) {
        self.title = title
        self.message = message
        self.buttonTitles = buttonTitles
        self.targetView = targetView
        self.clock = clock
        let target = targetView.bounds
        let height = 130 + 50 * CGFloat(buttonTitles.count)
        initialFrame = CGRect(x: target.midX, y: -height, width: Self.width, height: height)

        backgroundView = DynamicView(frame: target)
        backgroundView.name = "alert background"
        backgroundView.backgroundColor = .gray
        backgroundView.alpha = 0

        alertView = DynamicView(frame: initialFrame)
        alertView.name = "alert"
        alertView.backgroundColor = Color(white: 0.97)
        alertView.cornerRadius = 10

        titleLabel = DynamicView(frame: CGRect(x: 0, y: 10, width: Self.width, height: 40))
        titleLabel.name = "title"
        titleLabel.text = title
        titleLabel.font = .boldSystemFont(ofSize: 17)
        titleLabel.textAlignment = .center
        titleLabel.backgroundColor = .clear

        messageLabel = DynamicView(frame: CGRect(x: 0, y: 50, width: Self.width, height: 80))
        messageLabel.name = "message"
        messageLabel.text = message
        messageLabel.font = .systemFont(ofSize: 14)
        messageLabel.textAlignment = .center
        messageLabel.numberOfLines = 3
        messageLabel.backgroundColor = .clear

        var buttons: [DynamicView] = []
        for (i, t) in buttonTitles.enumerated() {
            let b = DynamicView(frame: CGRect(x: 10, y: 130 + 45 * CGFloat(i), width: 230, height: 40))
            b.name = "button \(i)"
            b.tag = i
            b.text = t
            b.textAlignment = .center
            b.textColor = .white
            b.backgroundColor = .systemBlue
            b.cornerRadius = 6
            buttons.append(b)
        }
        self.buttons = buttons
        for v in [titleLabel, messageLabel] + buttons { alertView.addSubview(v) }

        targetView.addSubview(backgroundView)
        targetView.addSubview(alertView)
        animator = DynamicAnimator(referenceBounds: target, clock: clock)

        snap = SnapBehavior(item: alertView, snapTo: CGPoint(x: target.midX, y: target.midY))
        snap.damping = 0.8
        let items: [any DynamicItem] = [alertView]
        push = PushBehavior(items: items, mode: .instantaneous)
        push.setAngle(.pi / 2, magnitude: 20)
        gravity = GravityBehavior(items: items)
        gravity.gravityDirection = CGVector(dx: 0, dy: -1)
        collision = CollisionBehavior(items: items)
        let y = initialFrame.minY - 10
        collision.addBoundary(withIdentifier: "alertCollisionBoundary", from: CGPoint(x: initialFrame.minX, y: y),
                              to: CGPoint(x: initialFrame.maxX, y: y))
        itemBehavior = DynamicItemBehavior(items: items)
        itemBehavior.elasticity = 0.4
        let background = backgroundView
        dim = { background.alpha = 0.5 }
        undim = { background.alpha = 0 }
    }

    /// Drops the alert in (snap to the target's centre) and dims the background; the handler
    /// gets (button index, button title) when a button is tapped. Ignored while shown.
    public func show(selectionHandler: @escaping (Int, String) -> Void) {
        guard !isShown else { return }
        self.selectionHandler = selectionHandler
        isShown = true
        animator.removeAllBehaviors()
        animator.addBehavior(snap)
        DynamicView.animate(withDuration: 0.75, clock: clock, animations: dim)
    }

    /// A tap on button `index` (0-based): calls the handler with the index and title before
    /// anything moves, then throws the alert out of sight. Ignored while the alert is not shown;
    /// an index outside `buttonTitles` is a programmer error.
    public func tapButton(at index: Int) {
        precondition(buttonTitles.indices.contains(index), "AlertComponent.tapButton(at:): no button \(index) (the alert has \(buttonTitles.count))")
        guard isShown else { return }
        isShown = false
        selectionHandler?(index, buttonTitles[index])

        animator.removeAllBehaviors()
        push.active = true
        animator.addBehavior(push)
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        animator.addBehavior(itemBehavior)
        DynamicView.animate(withDuration: 2, clock: clock, animations: undim)
    }

    // The behaviors and fades of `show` and of a tap, made once and re-armed each time (their
    // settings never change): showing or dismissing allocates no behaviors or closures.
    private let snap: SnapBehavior
    private let push: PushBehavior
    private let gravity: GravityBehavior
    private let collision: CollisionBehavior
    private let itemBehavior: DynamicItemBehavior
    private let dim: () -> Void
    private let undim: () -> Void
}

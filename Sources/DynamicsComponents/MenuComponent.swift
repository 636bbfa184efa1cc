import DynamicsKit
import Foundation

/// The side a menu slides in from.
public enum MenuDirection: Sendable, Equatable {
    /// The menu waits beyond the left edge and slides right into view.
    case leftToRight
    /// The menu waits beyond the right edge and slides left into view.
    case rightToLeft
}

/// How a tapped row is highlighted (UIKit's `UITableViewCell.SelectionStyle`).
public enum MenuSelectionStyle: Sendable, Equatable {
    case none, gray, blue
}

/// A slide-in side menu moved only by dynamic behaviors (the "MenuComponent" of the classic
/// UIKit Dynamics tutorial, headless).
///
/// It owns a `menuView` (a column of option rows) and a `backgroundView` covering the target,
/// both added as subviews of `targetView`, and a `DynamicAnimator` over the target's bounds on
/// `clock`. The menu waits just off-screen on the side it comes from, with the background at
/// alpha 0.
///
/// Showing or hiding removes all behaviors, then adds: gravity (±1, 0) toward the destination;
/// collision with one boundary line `"collisionBoundary"` — at the menu's inner edge when
/// showing (x = menu width from the left, or target width − menu width from the right), one
/// menu width beyond the screen edge when hiding; an item behavior with
/// elasticity 0.35; an instantaneous push of ±`acceleration` along x. The background fades to
/// alpha 0.25 (shown) or 0 (hidden) in 0.25 s on the same clock. As in the tutorial, the
/// `frame` given at creation sets the menu's width, height and y; shown, the menu comes to rest
/// against the side it comes from (`menuFrame`: x = 0 for left-to-right, x = target width −
/// menu width for right-to-left) after one small bounce; hidden, it rests just outside the
/// target, against a boundary one menu width beyond the edge it came from.
///
/// Use from the thread that advances `clock`.
public final class MenuComponent {
    /// The menu (a subview of `targetView`); its rows are its subviews, tagged 0, 1, ….
    public let menuView: DynamicView
    /// Covers the target; fades to 0.25 while the menu is shown.
    public let backgroundView: DynamicView
    /// The view the menu slides over.
    public let targetView: DynamicView
    public let direction: MenuDirection
    /// The row titles, top to bottom.
    public let options: [String]
    /// Image names for the rows (same count as `options`), or nil.
    public let optionImages: [String]?
    /// The animator that moves the menu (reference bounds: the target's bounds).
    public let animator: DynamicAnimator
    /// Where the menu rests when shown (in the target's space): the creation frame's width,
    /// height and y, against the side the menu comes from.
    public let menuFrame: CGRect

    /// True from `showMenu` until `hideMenu` (or a selection) starts hiding it.
    public private(set) var isMenuShown = false
    /// The row selected last, if any.
    public private(set) var selectedIndex: Int?

    /// The magnitude of the instantaneous push that starts each slide (default 15).
    public var acceleration: CGFloat = 15 {
        didSet { precondition(acceleration.isFinite && acceleration >= 0, "MenuComponent.acceleration must be finite and not negative") }
    }
    /// Height of each option row (default 50).
    public var optionCellHeight: CGFloat = 50 {
        didSet {
            precondition(optionCellHeight.isFinite && optionCellHeight > 0, "MenuComponent.optionCellHeight must be finite and positive")
            layoutRows()
        }
    }
    /// The menu's background colour.
    public var menuBackgroundColor = Color(white: 0.2, alpha: 0.95) {
        didSet { menuView.backgroundColor = menuBackgroundColor }
    }
    /// Row title font (default the system font, 17 pt).
    public var optionsFont: Font = .systemFont(ofSize: 17) { didSet { layoutRows() } }
    public var optionsTextAlignment: TextAlignment = .left { didSet { layoutRows() } }
    public var optionsTextColor: Color = .white { didSet { layoutRows() } }
    public var optionsSelectionStyle: MenuSelectionStyle = .gray

    private var selectionHandler: ((Int) -> Void)?
    private let clock: AnimationClock

    /// - Parameters:
    ///   - frame: the menu's width, height and y in the target's space (its x is not used: the
    ///     menu rests against the side it comes from — the tutorial passes x 0, y 20).
    ///   - targetView: the view the menu slides over; its bounds are the animator's reference.
    ///   - direction: the side the menu comes from.
    ///   - options: row titles; `optionImages`, when given, must have the same count.
    ///   - clock: the clock that steps the menu's animator and background fade.
    public init(frame: CGRect, targetView: DynamicView, direction: MenuDirection,
                options: [String], optionImages: [String]?, clock: AnimationClock = .main) {
        precondition(frame.origin.x.isFinite && frame.origin.y.isFinite && frame.width.isFinite && frame.height.isFinite
                     && frame.width > 0 && frame.height > 0, "MenuComponent: the frame must be finite with a positive size (got \(frame))")
        precondition(optionImages == nil || optionImages!.count == options.count,
                     "MenuComponent: optionImages must have one name per option (\(optionImages?.count ?? 0) for \(options.count))")
        let target = targetView.bounds
        let restX = direction == .leftToRight ? 0 : target.width - frame.width
        self.menuFrame = CGRect(x: restX, y: frame.minY, width: frame.width, height: frame.height)
        self.targetView = targetView
        self.direction = direction
        self.options = options
        self.optionImages = optionImages
        self.clock = clock

        backgroundView = DynamicView(frame: target)
        backgroundView.name = "menu background"
        backgroundView.backgroundColor = .gray
        backgroundView.alpha = 0

        let startX = direction == .leftToRight ? -frame.width : target.width
        menuView = DynamicView(frame: CGRect(x: startX, y: frame.minY, width: frame.width, height: frame.height))
        menuView.name = "menu"
        menuView.backgroundColor = menuBackgroundColor

        targetView.addSubview(backgroundView)
        targetView.addSubview(menuView)
        animator = DynamicAnimator(referenceBounds: target, clock: clock)
        let items: [any DynamicItem] = [menuView]
        gravity = GravityBehavior(items: items)
        collision = CollisionBehavior(items: items)
        itemBehavior = DynamicItemBehavior(items: items)
        itemBehavior.elasticity = 0.35
        push = PushBehavior(items: items, mode: .instantaneous)
        layoutRows()
        let background = backgroundView
        fadeIn = { background.alpha = 0.25 }
        fadeOut = { background.alpha = 0 }
    }

    /// The option rows (subviews of `menuView`, each holding its title label), top to bottom.
    public var optionViews: [DynamicView] { menuView.subviews }

    private func layoutRows() {
        if menuView.subviews.count != options.count {
            for v in menuView.subviews { v.removeFromSuperview() }
            for i in options.indices {
                let row = DynamicView(frame: .zero)
                row.tag = i
                row.name = "option \(i)"
                let label = DynamicView(frame: .zero)
                label.name = "option \(i) label"
                label.backgroundColor = .clear
                row.addSubview(label)
                menuView.addSubview(row)
            }
        }
        for (i, row) in menuView.subviews.enumerated() {
            row.frame = CGRect(x: 0, y: CGFloat(i) * optionCellHeight, width: menuFrame.width, height: optionCellHeight)
            row.backgroundColor = .clear
            // Like a table cell's text label: 15 pt in from both sides.
            let label = row.subviews[0]
            label.frame = CGRect(x: 15, y: 0, width: max(menuFrame.width - 30, 1), height: optionCellHeight)
            label.text = options[i]
            label.imageName = optionImages?[i]
            label.font = optionsFont
            label.textAlignment = optionsTextAlignment
            label.textColor = optionsTextColor
        }
    }

    /// Slides the menu in; `selectionHandler` is called with the 0-based row index when a row
    /// is selected. Ignored while the menu is shown.
    public func showMenu(selectionHandler: @escaping (Int) -> Void) {
        guard !isMenuShown else { return }
        self.selectionHandler = selectionHandler
        toggle(open: true)
    }

    /// Slides the menu out (the swipe gesture of the original). Ignored while it is hidden.
    public func hideMenu() {
        guard isMenuShown else { return }
        toggle(open: false)
    }

    /// A tap on row `index` (0-based): highlights it, calls the selection handler with the
    /// index, then hides the menu. Ignored while the menu is hidden (its rows cannot be
    /// tapped); an index outside `options` is a programmer error.
    public func select(optionAt index: Int) {
        precondition(options.indices.contains(index), "MenuComponent.select(optionAt:): no option \(index) (the menu has \(options.count))")
        guard isMenuShown else { return }
        selectedIndex = index
        for (i, row) in optionViews.enumerated() {
            switch optionsSelectionStyle {
            case .none: row.backgroundColor = .clear
            case .gray: row.backgroundColor = i == index ? Color(white: 0.5, alpha: 0.5) : .clear
            case .blue: row.backgroundColor = i == index ? Color.systemBlue.withAlphaComponent(0.6) : .clear
            }
        }
        selectionHandler?(index)
        hideMenu()
    }

    /// The x of the boundary line the menu stops against when opening or closing.
    func boundaryX(open: Bool) -> CGFloat {
        let w = menuFrame.width, screen = targetView.bounds.width
        switch direction {
        case .leftToRight: return open ? menuFrame.maxX : -w
        case .rightToLeft: return open ? menuFrame.minX : screen + w
        }
    }

    // The four behaviors of a slide, made once and re-armed on every toggle (a toggle
    // allocates no behaviors, closures or item lists).
    private let gravity: GravityBehavior
    private let collision: CollisionBehavior
    private let itemBehavior: DynamicItemBehavior
    private let push: PushBehavior

    private func toggle(open: Bool) {
        animator.removeAllBehaviors()
        let toward: CGFloat = (direction == .leftToRight) == open ? 1 : -1

        // Out of the animator, the behaviors only take their new settings; adding them again
        // compiles them exactly as new ones would be.
        gravity.gravityDirection = CGVector(dx: toward, dy: 0)
        animator.addBehavior(gravity)

        let x = boundaryX(open: open)
        collision.addBoundary(withIdentifier: "collisionBoundary", from: CGPoint(x: x, y: 0),
                              to: CGPoint(x: x, y: targetView.bounds.height))
        animator.addBehavior(collision)

        animator.addBehavior(itemBehavior)

        push.pushDirection = CGVector(dx: toward * acceleration, dy: 0)
        push.active = true
        animator.addBehavior(push)

        isMenuShown = open
        DynamicView.animate(withDuration: 0.25, clock: clock, animations: open ? fadeIn : fadeOut)
    }

    /// The background fades, made once.
    private var fadeIn: () -> Void = {}
    private var fadeOut: () -> Void = {}
}

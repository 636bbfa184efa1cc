import DynamicsComponents
import DynamicsKit
import Foundation
import Testing

/// The slide-in menu on its own clock (tests run in parallel; `.main` is never advanced here).
/// Target 375 × 667 pt, menu 150 pt wide.
@Suite("MenuComponent")
struct MenuComponentTests {
    static let target = CGRect(x: 0, y: 0, width: 375, height: 667)

    static func make(_ direction: MenuDirection, clock: AnimationClock) -> (MenuComponent, CGRect) {
        let targetView = DynamicView(frame: target)
        let frame = direction == .leftToRight
            ? CGRect(x: 0, y: 0, width: 150, height: 667)
            : CGRect(x: 375 - 150, y: 0, width: 150, height: 667)
        let menu = MenuComponent(frame: frame, targetView: targetView, direction: direction,
                                 options: ["Home", "Profile", "Settings", "Help"], optionImages: nil, clock: clock)
        return (menu, frame)
    }

    /// Runs the clock in 1/60 s frames until idle, recording the menu's x each frame.
    static func runRecording(_ clock: AnimationClock, _ view: DynamicView, timeout: TimeInterval = 10) -> [CGFloat] {
        var xs: [CGFloat] = []
        var t: TimeInterval = 0
        repeat { clock.advance(by: 1.0 / 60.0); t += 1.0 / 60.0; xs.append(view.frame.minX) } while !clock.isIdle && t < timeout
        return xs
    }

    /// The bounces off the boundary after the menu first reaches `edge`: for each departure
    /// of more than `minimum` pt, the largest distance from the edge.
    static func bounceHeights(_ xs: [CGFloat], restingAt edge: CGFloat, fromBelow: Bool, minimum: CGFloat) -> [CGFloat] {
        var heights: [CGFloat] = [], reached = false, current: CGFloat = 0
        for x in xs {
            let gap = fromBelow ? edge - x : x - edge
            if abs(gap) <= 1 {
                if current > minimum { heights.append(current) }
                reached = true; current = 0
            } else if reached { current = max(current, gap) }
        }
        if current > minimum { heights.append(current) }
        return heights
    }

    @Test("left-to-right: starts off-screen; shows at its frame (±1 pt) after at most one bounce, background 0.25; hides fully outside", arguments: [MenuDirection.leftToRight, .rightToLeft])
    func showAndHide(direction: MenuDirection) {
        let clock = AnimationClock()
        let (menu, frame) = Self.make(direction, clock: clock)
        #expect(!menu.isMenuShown)
        if direction == .leftToRight { #expect(menu.menuView.frame.maxX <= 0) } else { #expect(menu.menuView.frame.minX >= 375) }
        #expect(menu.backgroundView.alpha == 0 && menu.backgroundView.frame == Self.target)
        #expect(menu.acceleration == 15 && menu.optionCellHeight == 50)

        menu.showMenu { _ in }
        #expect(menu.isMenuShown)
        let xs = Self.runRecording(clock, menu.menuView)
        #expect(clock.isIdle, "the menu should come to rest")
        let f = menu.menuView.frame
        #expect(abs(f.minX - frame.minX) <= 1 && abs(f.minY - frame.minY) <= 1, "rests at \(f), wanted \(frame)")
        #expect(abs(menu.menuView.transform.rotationAngle) < 0.01)
        // One visible bounce: the push (15 → 150 pt/s for this 150 × 667 menu) and gravity
        // (1000 pt/s² over 150 pt) give an impact at √(150² + 2·1000·150) ≈ 568 pt/s; elasticity
        // 0.35 sends it back at ≈ 199 pt/s, i.e. ≈ 19.8 pt high. The next impact (≈ 199 pt/s)
        // rebounds only ≈ 2 pt, and the one after falls under the restitution threshold.
        let heights = Self.bounceHeights(xs, restingAt: frame.minX, fromBelow: direction == .leftToRight, minimum: 5)
        #expect(heights.count == 1, "one visible bounce, got \(heights)")
        if let h = heights.first { #expect(abs(h - 19.8) <= 3, "first bounce \(h) pt, analytic 19.8 pt") }
        #expect(menu.backgroundView.presentation.alpha == 0.25)
        // It never went past the boundary by more than the contact slop.
        if direction == .leftToRight { #expect(xs.max()! <= frame.minX + 1) } else { #expect(xs.min()! >= frame.minX - 1) }

        menu.hideMenu()
        #expect(!menu.isMenuShown)
        #expect(clock.runUntilIdle(timeout: 10))
        let h = menu.menuView.frame
        if direction == .leftToRight { #expect(h.maxX <= 0.5, "hidden menu at \(h)") } else { #expect(h.minX >= 374.5, "hidden menu at \(h)") }
        #expect(menu.backgroundView.presentation.alpha == 0)
    }

    @Test("showMenu while shown does nothing; hideMenu while hidden does nothing")
    func idempotentToggles() {
        let clock = AnimationClock()
        let (menu, _) = Self.make(.leftToRight, clock: clock)
        menu.hideMenu()
        #expect(menu.animator.behaviors.isEmpty, "hiding a hidden menu adds no behaviors")
        var calls: [String] = []
        menu.showMenu { _ in calls.append("first") }
        clock.run(for: 0.2)
        let x = menu.menuView.center.x
        let behaviors = menu.animator.behaviors.map(ObjectIdentifier.init)
        menu.showMenu { _ in calls.append("second") }
        #expect(menu.animator.behaviors.map(ObjectIdentifier.init) == behaviors, "a second showMenu must not restart the slide")
        #expect(menu.menuView.center.x == x)
        clock.runUntilIdle(timeout: 10)
        menu.select(optionAt: 1)
        #expect(calls == ["first"], "the first handler stays")
    }

    @Test("selecting a row calls the handler with its index before the menu starts hiding; hidden rows cannot be selected")
    func selection() {
        let clock = AnimationClock()
        let (menu, frame) = Self.make(.leftToRight, clock: clock)
        var got: [(Int, Bool, CGFloat)] = []
        menu.showMenu { i in got.append((i, menu.isMenuShown, menu.menuView.frame.minX)) }
        clock.runUntilIdle(timeout: 10)
        menu.select(optionAt: 2)
        #expect(got.count == 1 && got[0].0 == 2 && got[0].1, "handler gets index 2 while the menu is still shown")
        #expect(abs(got[0].2 - frame.minX) <= 1)
        #expect(menu.selectedIndex == 2 && !menu.isMenuShown)
        clock.runUntilIdle(timeout: 10)
        #expect(menu.menuView.frame.maxX <= 0.5)
        menu.select(optionAt: 0)
        #expect(got.count == 1, "a hidden menu's rows cannot be tapped")
    }

    @Test("rows: one subview per option with its title, stacked at optionCellHeight")
    func rows() {
        let (menu, _) = Self.make(.leftToRight, clock: AnimationClock())
        #expect(menu.optionViews.map { $0.subviews.first?.text ?? "" } == ["Home", "Profile", "Settings", "Help"])
        menu.optionCellHeight = 60
        #expect(menu.optionViews.map { $0.frame.minY } == [0, 60, 120, 180])
        #expect(menu.optionViews.allSatisfy { $0.frame.width == 150 })
        #expect(menu.targetView.subviews.map { $0 === menu.menuView } == [false, true], "background below, menu on top")
    }
}

/// The tutorial's own call: `CGRect(x: 0, y: 20, width: 150, height: screenHeight)` for both
/// directions. The frame gives width, height and y; the menu rests against its side.
@Suite("MenuComponent: the tutorial's frame")
struct MenuTutorialFrameTests {
    @Test("right-to-left rests at x = target width − menu width, left-to-right at x = 0; hidden one menu width beyond the edge",
          arguments: [MenuDirection.leftToRight, .rightToLeft])
    func tutorialFrame(direction: MenuDirection) {
        let clock = AnimationClock()
        let targetView = DynamicView(frame: CGRect(x: 0, y: 0, width: 375, height: 667))
        let menu = MenuComponent(frame: CGRect(x: 0, y: 20, width: 150, height: 667), targetView: targetView,
                                 direction: direction, options: ["A", "B"], optionImages: nil, clock: clock)
        let restX: CGFloat = direction == .leftToRight ? 0 : 225
        #expect(menu.menuFrame == CGRect(x: restX, y: 20, width: 150, height: 667))
        menu.showMenu { _ in }
        #expect(clock.runUntilIdle(timeout: 10))
        let f = menu.menuView.frame
        #expect(abs(f.minX - restX) <= 1 && abs(f.minY - 20) <= 0.01 && f.width == 150, "rests at \(f)")
        menu.hideMenu()
        #expect(clock.runUntilIdle(timeout: 10))
        let h = menu.menuView.frame
        // Against the boundary one menu width beyond the edge: just outside the screen.
        if direction == .leftToRight { #expect(abs(h.maxX) <= 1, "hidden at \(h)") } else { #expect(abs(h.minX - 375) <= 1, "hidden at \(h)") }
    }
}

import DynamicsComponents
@testable import DynamicsKit
@testable import DynamicsEngine
import Foundation
import Testing

/// A shown menu settles against its boundary (`World.settleDistance`, on in every animator's
/// world): the same slide, bounce and pause as with exact physics, within 0.1 pt.
@Suite("Menu settling")
struct MenuSettleTests {
    private final class Pauses: DynamicAnimatorDelegate {
        var count = 0
        func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {}
        func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { count += 1 }
    }

    struct Slide {
        var xs: [CGFloat] = [], pauses = 0, restSteps = 0
    }

    /// Shows (then hides) a left-to-right menu, recording its x each 1/60 s frame until idle.
    static func slide(settle: Bool, hide: Bool) -> Slide {
        let clock = AnimationClock()
        let targetView = DynamicView(frame: CGRect(x: 0, y: 0, width: 375, height: 667))
        let menu = MenuComponent(frame: CGRect(x: 0, y: 0, width: 150, height: 667), targetView: targetView,
                                 direction: .leftToRight, options: ["Home", "Profile", "Settings", "Help"],
                                 optionImages: nil, clock: clock)
        let pauses = Pauses()
        menu.animator.delegate = pauses
        if !settle { menu.animator.world.settleDistance = 0 }
        var s = Slide()
        menu.showMenu { _ in }
        if hide {
            for _ in 0..<40 { clock.advance(by: 1.0 / 60.0) }
            menu.hideMenu()
        }
        var t = 0
        repeat { clock.advance(by: 1.0 / 60.0); t += 1; s.xs.append(menu.menuView.frame.minX) } while !clock.isIdle && t < 600
        s.pauses = pauses.count
        s.restSteps = menu.animator.world.counters.restSteps
        return s
    }

    @Test("settled and exact menus pause on the same frame and never differ by more than 0.1 pt; the settled one spends its last ticks at rest",
          arguments: [false, true])
    func sameSlide(hide: Bool) {
        #expect(DynamicAnimator.settleDistance == 0.01)
        let settled = Self.slide(settle: true, hide: hide), exact = Self.slide(settle: false, hide: hide)
        #expect(settled.xs.count == exact.xs.count, "paused after \(settled.xs.count) frames, exact after \(exact.xs.count)")
        #expect(settled.pauses == exact.pauses)
        let gap = zip(settled.xs, exact.xs).map { abs($0 - $1) }.max() ?? .infinity
        #expect(gap <= 0.1, "largest difference \(gap) pt")
        // Debug builds take no exact rest steps, so only settling shows here: a menu settles
        // within a few ticks of coming to rest, about 0.4 s (50 ticks) before it pauses.
        #if DEBUG
        #expect(exact.restSteps == 0)
        #endif
        #expect(settled.restSteps >= exact.restSteps + 40, "rest steps: \(settled.restSteps), exact \(exact.restSteps)")
    }
}

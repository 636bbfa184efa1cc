import DynamicsKit
import Foundation

/// The property-animator part of an app-life sequence: two cards (views no dynamic animator
/// holds), each with at most one `ViewPropertyAnimator` run at a time, driven by random legal
/// calls — start (now or after a delay), pause, scrub, reverse, stop (with or without
/// finishing), finish at each position, continue with cubic or spring timing — on the
/// sequence's clock. After every call: finite presentations, at most one completion per run
/// and exactly one once it ended (none when stopped without finishing), and the model values
/// UIKit leaves: the end values at `.end`, the start values at `.start`, where the views were
/// at `.current` or after a stop.
final class PropertyAnimatorFuzz {
    /// One run of a card's animator: what it animates from and to, and what it saw.
    final class Run {
        let id: Int
        let startCenter: CGPoint, startAlpha: CGFloat
        let endCenter: CGPoint, endAlpha: CGFloat
        /// Whether a second block animates alpha (delayed by a factor).
        let animatesAlpha: Bool
        var completions = 0
        /// Model values after a stop (what `.current` must leave).
        var stoppedCenter: CGPoint?, stoppedAlpha: CGFloat?
        var stoppedWithoutFinishing = false
        var over = false
        init(id: Int, startCenter: CGPoint, startAlpha: CGFloat, endCenter: CGPoint, endAlpha: CGFloat, animatesAlpha: Bool) {
            self.id = id; self.startCenter = startCenter; self.startAlpha = startAlpha
            self.endCenter = endCenter; self.endAlpha = endAlpha; self.animatesAlpha = animatesAlpha
        }
    }

    final class Card {
        let view: DynamicView
        let name: String
        var animator: ViewPropertyAnimator?
        var run: Run?
        init(view: DynamicView, name: String) { self.view = view; self.name = name }
    }

    let clock: AnimationClock
    let cards: [Card]
    private var runs = 0
    /// Called with a violation (kind, message).
    let fail: (String, String) -> Void
    /// Called with the call being made (for the log and violations).
    let note: (String) -> Void
    let logCallback: (String) -> Void

    init(clock: AnimationClock, fail: @escaping (String, String) -> Void, note: @escaping (String) -> Void,
         logCallback: @escaping (String) -> Void) {
        self.clock = clock; self.fail = fail; self.note = note; self.logCallback = logCallback
        cards = (0..<2).map { k in
            let v = DynamicView(frame: CGRect(x: 40 + CGFloat(k) * 150, y: 500, width: 120, height: 80))
            v.name = "card\(k)"
            return Card(view: v, name: "card\(k)")
        }
    }

    /// One random legal call on a random card.
    func randomCall(_ rng: inout FuzzRandom) {
        let c = cards[rng.int(cards.count)]
        guard let a = c.animator, let run = c.run, !run.over else { return startRun(c, &rng) }
        switch a.state {
        case .inactive:
            startRun(c, &rng)
        case .stopped:
            let p = rng.pick([ViewAnimatingPosition.end, .start, .current])
            note("\(c.name).finishAnimation(at: .\(p)) (run \(run.id))")
            a.finishAnimation(at: p)
            if run.completions != 1 { fail("property animator completion", "\(c.name) run \(run.id): \(run.completions) completions after finishAnimation") }
            run.over = true
        case .active:
            switch rng.weighted([4, 4, 5, 3, 3, 4, 2, 1]) {
            case 0:
                note("\(c.name).startAnimation() (run \(run.id))")
                a.startAnimation()
            case 1:
                note("\(c.name).pauseAnimation() (run \(run.id))")
                a.pauseAnimation()
            case 2:
                if a.isRunning { a.pauseAnimation() }
                let f = rng.chance(0.1) ? rng.pick([0, 1]) : rng.cg(0, 1)
                note("\(c.name).fractionComplete = \(fmt(f)) (paused; run \(run.id))")
                a.fractionComplete = f
            case 3:
                note("\(c.name).isReversed = \(!a.isReversed) (run \(run.id))")
                a.isReversed.toggle()
            case 4:
                let without = rng.chance(0.4)
                // What the views show is where the model goes.
                let p = c.view.presentation
                note("\(c.name).stopAnimation(\(without)) (run \(run.id))")
                a.stopAnimation(without)
                run.stoppedCenter = p.center; run.stoppedAlpha = p.alpha
                checkModel(c, center: p.center, alpha: p.alpha, "after stopAnimation(\(without))")
                if without { run.stoppedWithoutFinishing = true; run.over = true }
            case 5:
                let (params, text) = randomTiming(&rng, allowNil: true)
                let factor = rng.chance(0.4) ? 0 : rng.cg(0, 2)
                note("\(c.name).continueAnimation(withTimingParameters: \(text), durationFactor: \(fmt(factor))) (run \(run.id))")
                a.continueAnimation(withTimingParameters: params, durationFactor: factor)
            case 6:
                a.scrubsLinearly.toggle()
                note("\(c.name).scrubsLinearly = \(a.scrubsLinearly)")
            default:
                a.pausesOnCompletion.toggle()
                note("\(c.name).pausesOnCompletion = \(a.pausesOnCompletion)")
            }
        }
    }

    private func randomTiming(_ rng: inout FuzzRandom, allowNil: Bool) -> ((any TimingCurveProvider)?, String) {
        switch rng.int(allowNil ? 5 : 4) {
        case 0:
            let c = rng.pick(AnimationCurve.allCases)
            return (CubicTimingParameters(animationCurve: c), "cubic(\(c))")
        case 1:
            let p1 = CGPoint(x: rng.cg(0, 1), y: rng.cg(-0.5, 1.5)), p2 = CGPoint(x: rng.cg(0, 1), y: rng.cg(-0.5, 1.5))
            return (CubicTimingParameters(controlPoint1: p1, controlPoint2: p2), "cubic(\(fmt(p1)), \(fmt(p2)))")
        case 2:
            let r = rng.cg(0.05, 1), v = CGVector(dx: rng.cg(-5, 5), dy: rng.cg(-5, 5))
            return (SpringTimingParameters(dampingRatio: r, initialVelocity: v), "spring(ratio \(fmt(r)), v \(fmt(v)))")
        case 3:
            let m = rng.cg(0.5, 3), k = rng.cg(50, 600), d = rng.cg(4, 80), v = CGVector(dx: rng.cg(-5, 5), dy: rng.cg(-5, 5))
            return (SpringTimingParameters(mass: m, stiffness: k, damping: d, initialVelocity: v),
                    "spring(mass \(fmt(m)), stiffness \(fmt(k)), damping \(fmt(d)), v \(fmt(v)))")
        default:
            return (nil, "nil")
        }
    }

    /// A new run on the card: a new animator or the old one again, its blocks and completion,
    /// then started, started after a delay, paused or scrubbed.
    private func startRun(_ c: Card, _ rng: inout FuzzRandom) {
        if let a = c.animator, a.state != .inactive { return }
        runs += 1
        let id = runs
        let v = c.view
        let target = CGPoint(x: v.center.x + rng.cg(-200, 200).rounded(), y: v.center.y + rng.cg(-300, 100).rounded())
        let alpha = rng.cg(0, 1)
        let animatesAlpha = rng.chance(0.5)
        let run = Run(id: id, startCenter: v.center, startAlpha: v.alpha, endCenter: target,
                      endAlpha: animatesAlpha ? alpha : v.alpha, animatesAlpha: animatesAlpha)
        let a: ViewPropertyAnimator
        var text: String
        if let old = c.animator, rng.chance(0.5) {
            a = old
            text = "\(c.name) animator again"
        } else {
            let duration = rng.chance(0.1) ? 0 : rng.double(0.05, 1.2)
            let (params, t) = randomTiming(&rng, allowNil: false)
            a = ViewPropertyAnimator(duration: duration, timingParameters: params!, clock: clock)
            text = "\(c.name) = ViewPropertyAnimator(duration: \(fmt(duration)), timingParameters: \(t))"
        }
        a.isReversed = false
        a.addAnimations { v.center = target }
        text += " { center = \(fmt(target)) }"
        if animatesAlpha {
            let f = rng.cg(0, 1)
            a.addAnimations({ v.alpha = alpha }, delayFactor: f)
            text += " + { alpha = \(fmt(alpha)) } delayFactor \(fmt(f))"
        }
        a.addCompletion { [weak self, weak run] position in
            guard let self, let run else { return }
            run.completions += 1
            self.logCallback("\(c.name) run \(run.id) completion(.\(position))")
            if run.completions > 1 { self.fail("property animator completion", "\(c.name) run \(run.id): completion ran \(run.completions) times") }
            switch position {
            case .end: self.checkModel(c, center: run.endCenter, alpha: run.endAlpha, "at .end")
            case .start: self.checkModel(c, center: run.startCenter, alpha: run.startAlpha, "at .start")
            case .current:
                if let sc = run.stoppedCenter, let sa = run.stoppedAlpha { self.checkModel(c, center: sc, alpha: sa, "at .current") }
            }
        }
        c.animator = a
        c.run = run
        switch rng.int(4) {
        case 0:
            note(text + "; startAnimation() (run \(id))")
            a.startAnimation()
        case 1:
            let d = rng.double(0, 0.5)
            note(text + "; startAnimation(afterDelay: \(fmt(d))) (run \(id))")
            a.startAnimation(afterDelay: d)
        case 2:
            note(text + "; pauseAnimation() (run \(id))")
            a.pauseAnimation()
        default:
            let f = rng.cg(0, 1)
            note(text + "; fractionComplete = \(fmt(f)) (run \(id))")
            a.fractionComplete = f
        }
        checkModel(c, center: target, alpha: run.endAlpha, "once started")
    }

    private func checkModel(_ c: Card, center: CGPoint, alpha: CGFloat, _ when: String) {
        let v = c.view
        if abs(v.center.x - center.x) > 1e-6 || abs(v.center.y - center.y) > 1e-6 || abs(v.alpha - alpha) > 1e-6 {
            fail("property animator model", "\(c.name) \(when): model centre \(fmt(v.center)) alpha \(fmt(v.alpha)), expected \(fmt(center)) alpha \(fmt(alpha))")
        }
    }

    /// The invariants after every call.
    func check() {
        for c in cards {
            let p = c.view.presentation
            if !(p.center.x.isFinite && p.center.y.isFinite && p.alpha.isFinite) {
                fail("property animator presentation", "\(c.name): presentation \(p.center), alpha \(p.alpha)")
            }
            guard let a = c.animator, let run = c.run else { continue }
            if a.isRunning && a.state != .active { fail("property animator state", "\(c.name): running while \(a.state)") }
            if !(0...1).contains(a.fractionComplete) { fail("property animator state", "\(c.name): fractionComplete \(a.fractionComplete)") }
            if !run.over && a.state == .inactive {
                // It ran to its end: one completion, made on the clock.
                run.over = true
                if run.completions != 1 { fail("property animator completion", "\(c.name) run \(run.id) ended with \(run.completions) completions") }
            }
            if run.over && run.stoppedWithoutFinishing && run.completions != 0 {
                fail("property animator completion", "\(c.name) run \(run.id): stopped without finishing yet completed")
            }
            if a.state == .inactive && (p.center != c.view.center || p.alpha != c.view.alpha) {
                fail("property animator presentation", "\(c.name): inactive but presents \(p.center) for model \(c.view.center)")
            }
        }
    }

    /// Ends the sequence: every run stopped and finished (a paused animator left alone would
    /// hold its views), then checks one completion each.
    func finish() {
        for c in cards {
            guard let a = c.animator, let run = c.run else { continue }
            if a.state == .active { a.stopAnimation(false) }
            if a.state == .stopped { a.finishAnimation(at: .current) }
            if !run.stoppedWithoutFinishing && run.completions != 1 {
                fail("property animator completion", "\(c.name) run \(run.id): \(run.completions) completions at the end")
            }
        }
    }
}

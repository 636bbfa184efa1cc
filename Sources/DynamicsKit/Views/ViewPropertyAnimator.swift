import Foundation

/// The state of a `ViewPropertyAnimator` (UIKit's `UIViewAnimatingState`).
public enum ViewAnimatingState: Int, Sendable {
    /// Not started, or finished: its animations have not run or are done.
    case inactive = 0
    /// Started or paused: its animations have run (the model values changed) and it presents
    /// their progress.
    case active = 1
    /// Stopped by `stopAnimation(false)`: the views stay where they were; `finishAnimation(at:)`
    /// ends it.
    case stopped = 2
}

/// Where a `ViewPropertyAnimator` ended (UIKit's `UIViewAnimatingPosition`), given to its
/// completion handlers.
public enum ViewAnimatingPosition: Int, Sendable {
    /// At the end values (run to the end).
    case end = 0
    /// At the start values (reversed and run back).
    case start = 1
    /// Where it was when stopped.
    case current = 2
}

/// An interruptible view animation (UIKit's `UIViewPropertyAnimator`): changes to views'
/// animatable properties made in its animation blocks run with a cubic or spring timing, and
/// can be paused, scrubbed (`fractionComplete`), reversed, stopped, and continued with new
/// timing — the animation of a finger-driven sheet, menu or card.
///
/// **Model and presentation.** As in UIKit, an animation block runs when the animator starts
/// (`startAnimation()`, `pauseAnimation()`, or setting `fractionComplete`), or at once when
/// added to an active animator: the properties take their new (model) values then, and the
/// views' `presentation` moves from the old values to the new ones with the animator's
/// progress. Each property's animation is **additive**, as UIKit's: it presents the model
/// value plus (old − new)·(1 − progress), so several animators on one property compose and
/// each ends without a jump. Setting an animating property outside an animation, or a block
/// animation of it, ends its tracks (the animator goes on with the others).
///
/// **Time.** The animator runs on `clock` (default `.main`): its progress moves when the clock
/// advances, and its completion handlers run on the clock after the frame's animations have
/// advanced, with `.end`, or `.start` when it ran reversed. It is used from the clock's thread.
///
/// **Programmer errors** stop with UIKit's messages: starting or pausing a stopped animator,
/// finishing one that is not stopped, stopping one twice, pausing, stopping, continuing or
/// reversing one that is not interruptible, a negative duration or delay, starting a paused
/// animator with a delay.
open class ViewPropertyAnimator: CustomStringConvertible {
    /// The duration given (s). Springs given by mass, stiffness and damping last their own
    /// settling time instead.
    public let duration: TimeInterval
    /// The timing given (the convenience initializers make `CubicTimingParameters` or
    /// `SpringTimingParameters`).
    public let timingParameters: (any TimingCurveProvider)?
    /// The clock the animator runs on.
    public let clock: AnimationClock
    /// The delay of `startAnimation(afterDelay:)` (s; 0 otherwise).
    public private(set) var delay: TimeInterval = 0

    /// `.inactive` until started, `.active` while running or paused, `.stopped` after
    /// `stopAnimation(false)`.
    public private(set) var state: ViewAnimatingState = .inactive
    /// Whether the animation is moving (active and not paused).
    public private(set) var isRunning = false
    /// Whether the animations run back toward their start values. Set while active, the
    /// animation turns around where it is (a running one at once, a paused one when it
    /// resumes); it then completes at `.start` and the model values go back to their start.
    public var isReversed: Bool {
        get { reversed }
        set {
            guard newValue != reversed else { return }
            if state == .active {
                precondition(isInterruptible, "An animator \(self) that is not interruptible cannot be continued or reversed!")
            }
            reversed = newValue
            if state == .active, mode == .segment {
                if isRunning { beginSegment(timing: baseTiming, durationFactor: 0) } else { segmentStale = true }
            }
        }
    }
    /// How far the animation is, 0 … 1, in time (the timing curve maps it to the views'
    /// progress). Settable while paused (or inactive, which runs the animations and pauses):
    /// the views are placed at that fraction of the way — linearly when `scrubsLinearly`,
    /// along the timing curve otherwise — and a later start continues from there over the
    /// remaining time. Ignored while running or stopped.
    public var fractionComplete: CGFloat {
        get { CGFloat(u) }
        set {
            precondition(!newValue.isNaN, "ViewPropertyAnimator.fractionComplete must not be NaN")
            if state == .inactive { activate() }
            guard state == .active, !isRunning else { return }
            scrub(to: min(max(Double(newValue), 0), 1))
        }
    }
    /// Whether the animator can be paused, stopped, reversed and scrubbed (default true).
    /// Settable only while inactive.
    public var isInterruptible: Bool = true {
        willSet {
            precondition(state == .inactive, "It is not allowed to set the interruptible property of an active animator (\(self))")
        }
    }
    /// Whether the animated views take touches while animating (kept for UIKit code; there are
    /// no touches here). Default true.
    public var isUserInteractionEnabled = true
    /// Whether scrubbing with `fractionComplete` places the views linearly (default true) or
    /// along the timing curve.
    public var scrubsLinearly = true
    /// Whether the animator pauses at its end instead of finishing (default false): it stays
    /// active, can be reversed, and runs no completion until stopped and finished.
    public var pausesOnCompletion = false

    // MARK: Animation groups

    /// One `addAnimations` block: where in the animator's time it starts (`start`, a time
    /// fraction) and the progress its tracks present (x, y: a view's position moves by
    /// axis with a spring's two velocities).
    struct Group {
        var start: Double
        var qx: Double = 0, qy: Double = 0
        var q0x: Double = 0, q0y: Double = 0
        /// The group's own time fraction at the animator's time fraction `u`.
        @inline(__always) func localFraction(_ u: Double) -> Double {
            if start <= 0 { return u }
            if start >= 1 - 1e-12 { return u >= start ? 1 : 0 }
            return min(max((u - start) / (1 - start), 0), 1)
        }
    }
    /// The groups of the current run (capacity kept between runs).
    private(set) var groups: [Group] = []
    /// Blocks added while inactive, run when the animator starts. (Closures are kept in
    /// structs: a closure stored as an array's element is re-abstracted, an allocation each.)
    private struct PendingBlock { let group: Int; let block: () -> Void }
    private struct Completion { let handler: (ViewAnimatingPosition) -> Void }
    private var pendingBlocks: [PendingBlock] = []
    private var completions: [Completion] = []
    /// The views holding tracks of this animator (capacity kept between runs).
    private var views: [DynamicView] = []

    // MARK: Timing state

    private var reversed = false
    /// The animator's time fraction.
    private var u: Double = 0
    /// `.curve`: every group presents the base timing at its own time fraction, and u moves at
    /// ±1/`curveDuration` per second (the first run, pauses, scrubs along the curve,
    /// reversals). `.segment`: a run from the groups' positions at `u0` to the end (or start)
    /// with `segmentTiming` over `segmentDuration` (continuing after a linear scrub or with
    /// new timing).
    private enum Mode { case curve, segment }
    private var mode = Mode.curve
    private let baseTiming: AnimatorTiming
    /// The spring of the base timing at the animator's duration (for `.spring` timing).
    private let baseSpring: SpringResponse?
    /// Seconds for the whole of u in curve mode.
    private let curveDuration: Double
    private var segmentTiming: AnimatorTiming
    private var segmentSpring: SpringResponse?
    private var segmentDuration: Double = 0
    private var segmentElapsed: Double = 0
    private var u0: Double = 0, uT: Double = 1
    /// The groups were moved (scrubbed) since the segment began: resuming begins a new one.
    private var segmentStale = false
    private var delayLeft: Double = 0
    /// Whether the clock's list holds the animator (touched under the clock's lock).
    var isScheduled = false

    // MARK: Making animators

    /// An animator of `duration` seconds with `parameters`' timing, without animations yet
    /// (UIKit's designated initializer).
    /// - Precondition: `duration` finite and ≥ 0.
    public required init(duration: TimeInterval, timingParameters parameters: any TimingCurveProvider, clock: AnimationClock = .main) {
        precondition(duration.isFinite && duration >= 0, "The duration should be greater than or equal to zero. (got \(duration))")
        self.duration = duration
        timingParameters = parameters
        self.clock = clock
        let timing = AnimatorTiming(parameters)
        baseTiming = timing
        segmentTiming = timing
        switch timing {
        case .cubic:
            baseSpring = nil
            curveDuration = duration
        case .spring(let s):
            (baseSpring, curveDuration) = s.response(lasting: duration)
        }
    }

    /// An animator with a built-in curve and, optionally, its first animations.
    public convenience init(duration: TimeInterval, curve: AnimationCurve, clock: AnimationClock = .main,
                            animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: CubicTimingParameters(animationCurve: curve), clock: clock)
        if let animations { addAnimations(animations) }
    }

    /// An animator with a cubic Bézier curve through these control points.
    public convenience init(duration: TimeInterval, controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint,
                            clock: AnimationClock = .main, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: CubicTimingParameters(controlPoint1: point1, controlPoint2: point2), clock: clock)
        if let animations { addAnimations(animations) }
    }

    /// An animator with a spring of this damping ratio (0 < ratio ≤ 1) lasting `duration`.
    public convenience init(duration: TimeInterval, dampingRatio ratio: CGFloat, clock: AnimationClock = .main,
                            animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: SpringTimingParameters(dampingRatio: ratio), clock: clock)
        if let animations { addAnimations(animations) }
    }

    /// An animator started at once (after `delay`) with the curve of `options` (UIKit's
    /// `runningPropertyAnimator(withDuration:delay:options:animations:completion:)`).
    @discardableResult
    public class func runningPropertyAnimator(withDuration duration: TimeInterval, delay: TimeInterval,
                                              options: AnimationOptions = [], clock: AnimationClock = .main,
                                              animations: @escaping () -> Void,
                                              completion: ((ViewAnimatingPosition) -> Void)? = nil) -> Self {
        let a = self.init(duration: duration, timingParameters: CubicTimingParameters(animationCurve: options.curve), clock: clock)
        a.addAnimations(animations)
        if let completion { a.addCompletion(completion) }
        if delay > 0 { a.startAnimation(afterDelay: delay) } else {
            precondition(delay.isFinite && delay >= 0, "The delay should be greater than or equal to zero.")
            a.startAnimation()
        }
        return a
    }

    /// The animator's address and state, as UIKit describes it (`<…(0x…) [active] running>`).
    public var description: String {
        let s: String
        switch state { case .inactive: s = "inactive"; case .active: s = "active"; case .stopped: s = "stopped" }
        return "<ViewPropertyAnimator(\(Unmanaged.passUnretained(self).toOpaque())) [\(s)]\(isRunning ? " running" : "")\(reversed ? " reversed" : "")\(isInterruptible ? " interruptible" : "")>"
    }

    // MARK: Animations and completions

    /// Adds animations that start with the others (a new block's changes take their model
    /// values when the animator starts, or at once when it is active).
    public func addAnimations(_ animation: @escaping () -> Void) {
        addAnimations(animation, delayFactor: 0)
    }

    /// Adds animations that start `delayFactor` (0 … 1) of the remaining duration late: of
    /// the whole duration while inactive, of what is left of it while active. They reach
    /// their end with the others.
    /// - Precondition: `delayFactor` in 0 … 1; the animator not stopped.
    public func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat) {
        precondition(delayFactor >= 0 && delayFactor <= 1, "addAnimations(_:delayFactor:): the delay factor must be in 0 … 1 (got \(delayFactor))")
        precondition(state != .stopped, "Animator \(self) is already stopped!")
        let f = Double(delayFactor)
        let start = state == .inactive ? f : u + f * (1 - u)
        let g = groups.count
        groups.append(Group(start: start))
        if state == .inactive {
            pendingBlocks.append(PendingBlock(group: g, block: animation))
        } else {
            run(animation, group: g)
        }
    }

    /// Adds a handler called once when the animator finishes, with where it ended.
    public func addCompletion(_ completion: @escaping (ViewAnimatingPosition) -> Void) {
        completions.append(Completion(handler: completion))
    }

    // MARK: Controlling

    /// Starts the animations (running their blocks), or resumes a paused animator from where
    /// it is.
    /// - Precondition: not stopped.
    public func startAnimation() {
        precondition(state != .stopped, "An animator (\(self)) cannot be started while stopped: finishAnimation(at:) must end it first!")
        if state == .inactive { activate() }
        guard !isRunning else { return }
        if !isInterruptible && u > 0 {
            preconditionFailure("An animator (\(self)) can be only started in the paused state if it is interruptible!")
        }
        resume()
    }

    /// Starts the animations after `delay` seconds (the model values change at once; the
    /// views show the old values until the delay has passed).
    /// - Precondition: `delay` finite and ≥ 0; the animator inactive (a paused one cannot be
    ///   started with a delay).
    public func startAnimation(afterDelay delay: TimeInterval) {
        precondition(delay.isFinite && delay >= 0, "The delay should be greater than or equal to zero.")
        precondition(state != .active || isRunning, "A paused animator (\(self)) cannot be started with a delay!")
        if state == .inactive {
            self.delay = delay
            delayLeft = delay
        }
        startAnimation()
    }

    /// Freezes the animations where they are (starting them first, paused, when inactive).
    /// - Precondition: interruptible and not stopped.
    public func pauseAnimation() {
        precondition(isInterruptible, "An animator \(self) that is not interruptible cannot be paused!")
        precondition(state != .stopped, "Animator \(self) is already stopped!")
        if state == .inactive { activate() }
        isRunning = false
    }

    /// Stops the animations where they are: each animated property's model value becomes what
    /// the view presents (other animations of it go on from there). With `withoutFinishing`
    /// true the animator becomes inactive and runs no completion; with false it is `.stopped`
    /// until `finishAnimation(at:)`. Does nothing while inactive.
    /// - Precondition: interruptible and not already stopped.
    public func stopAnimation(_ withoutFinishing: Bool) {
        precondition(isInterruptible, "An animator \(self) that is not interruptible cannot be stopped!")
        precondition(state != .stopped, "Animator \(self) is already stopped!")
        guard state == .active else { return }
        isRunning = false
        stoppedTracks.removeAll(keepingCapacity: true)
        for v in views {
            for t in v.animationTracks where t.animator === self {
                let g = groups[t.group]
                let now = v.modelValue(of: t.property)
                v.setModelValue(now.offset(by: t.from, t.to, 1 - g.qx, 1 - g.qy), of: t.property)
                if !withoutFinishing { stoppedTracks.append(StoppedTrack(view: v, track: t, qx: g.qx, qy: g.qy)) }
            }
            v.removeTracks(of: self)
        }
        views.removeAll(keepingCapacity: true)
        if withoutFinishing {
            endRun()
            completions.removeAll(keepingCapacity: true)
        } else {
            state = .stopped
        }
    }

    /// A property a stopped animator left where it was presented, and the progress then.
    private struct StoppedTrack {
        let view: DynamicView
        let track: AnimationTrack
        let qx: Double, qy: Double
    }
    private var stoppedTracks: [StoppedTrack] = []

    /// Ends a stopped animator: `.current` leaves the views (and their model values) where
    /// they stopped; `.end` and `.start` set the model values to the animations' end or start
    /// values (the views jump there). Then the completion handlers run, with `position`, and
    /// the animator is inactive.
    /// - Precondition: the animator is stopped.
    public func finishAnimation(at position: ViewAnimatingPosition) {
        precondition(state == .stopped, "finishAnimation(at:) should only be called on a stopped animator!")
        for s in stoppedTracks where position != .current {
            let t = s.track
            let now = s.view.modelValue(of: t.property)
            // The model holds start + (to − from)·q: take back (1 − q) for the end, q for the start.
            let value = position == .end ? now.offset(by: t.to, t.from, 1 - s.qx, 1 - s.qy)
                                         : now.offset(by: t.from, t.to, s.qx, s.qy)
            s.view.setModelValue(value, of: t.property)
        }
        stoppedTracks.removeAll(keepingCapacity: true)
        endRun()
        fireCompletions(position)
    }

    /// Continues a paused (or running) animator to its end — or its start when reversed —
    /// from where the views are, with `parameters`' timing (nil: the animator's own), over
    /// `durationFactor` × `duration` seconds (0: the time left at the animator's pace; a spring
    /// given by mass, stiffness and damping lasts its settling time). A spring's initial
    /// velocity is in units of the distance still to cover per second: a finger's velocity
    /// (pt/s) divided by the distance from the view to where it goes.
    /// - Precondition: active, interruptible; `durationFactor` finite and ≥ 0.
    public func continueAnimation(withTimingParameters parameters: (any TimingCurveProvider)?, durationFactor: CGFloat) {
        precondition(durationFactor.isFinite && durationFactor >= 0, "continueAnimation: the duration factor must be finite and not negative (got \(durationFactor))")
        precondition(isInterruptible, "An animator \(self) that is not interruptible cannot be continued or reversed!")
        precondition(state == .active, "continueAnimation(withTimingParameters:durationFactor:) needs an active animator (\(self))")
        if parameters == nil && durationFactor == 0 {
            guard !isRunning else { return }
            resume()
            return
        }
        beginSegment(timing: parameters.map(AnimatorTiming.init) ?? baseTiming, durationFactor: Double(durationFactor))
        delayLeft = 0
        isRunning = true
        clock.schedule(self)
    }

    // MARK: Inside

    /// Inactive → active: runs the pending blocks (the model values change) from the start.
    private func activate() {
        state = .active
        u = 0
        mode = .curve
        segmentStale = false
        for i in groups.indices { groups[i].qx = 0; groups[i].qy = 0 }
        if reversed {
            // Started reversed: the animations stand at their end and run back.
            u = 1
            for i in groups.indices { groups[i].qx = 1; groups[i].qy = 1 }
        }
        var k = 0
        while k < pendingBlocks.count {
            let p = pendingBlocks[k]
            k += 1
            run(p.block, group: p.group)
        }
        pendingBlocks.removeAll(keepingCapacity: true)
    }

    /// Runs an animation block, making the properties it changes tracks of group `g`.
    private func run(_ block: () -> Void, group g: Int) {
        var t = ViewAnimationCapture.transaction(clock: clock)
        ViewAnimationCapture.push(t)
        block()
        ViewAnimationCapture.pop(t)
        for c in t.changes where c.modelFrom != c.to {
            c.view.animationTracks.append(AnimationTrack(property: c.property, from: c.modelFrom, to: c.to, animator: self, group: g))
            if !views.contains(where: { $0 === c.view }) { views.append(c.view) }
        }
        ViewAnimationCapture.recycle(&t)
    }

    /// Paused → running: along the curve where the groups still are on it, else a new run to
    /// the end over the time left.
    private func resume() {
        if segmentStale {
            beginSegment(timing: baseTiming, durationFactor: 0)
        }
        isRunning = true
        clock.schedule(self)
    }

    /// A run from the groups' current progress to the end (start when reversed).
    private func beginSegment(timing: AnimatorTiming, durationFactor: Double) {
        u0 = u
        uT = reversed ? 0 : 1
        for i in groups.indices { groups[i].q0x = groups[i].qx; groups[i].q0y = groups[i].qy }
        let remaining = abs(uT - u0)
        var d = durationFactor > 0 ? durationFactor * duration : remaining * curveDuration
        segmentSpring = nil
        if case .spring(let s) = timing {
            (segmentSpring, d) = s.response(lasting: d)
        }
        segmentTiming = timing
        segmentDuration = d
        segmentElapsed = 0
        segmentStale = false
        mode = .segment
    }

    /// Places the groups at time fraction `f` (paused).
    private func scrub(to f: Double) {
        precondition(isInterruptible, "An animator \(self) that is not interruptible cannot be continued or reversed!")
        u = f
        let linear: Bool
        if case .cubic(let b) = baseTiming { linear = b.isLinear } else { linear = false }
        if scrubsLinearly && !linear {
            for i in groups.indices {
                let w = groups[i].localFraction(f)
                groups[i].qx = w; groups[i].qy = w
            }
            segmentStale = true
            mode = .segment
        } else {
            mode = .curve
            segmentStale = false
            updateCurve()
        }
    }

    /// Advances by `dt` (the clock, under its lock: no user code runs here). Returns true when
    /// the animator reached its end and finishes (its completions run after the frame).
    func advanceFrame(_ dt: Double) -> Bool {
        guard isRunning else { return false }
        var dt = dt
        if delayLeft > 0 {
            if dt < delayLeft { delayLeft -= dt; return false }
            dt -= delayLeft
            delayLeft = 0
        }
        let ended: Bool
        switch mode {
        case .curve:
            let du = curveDuration > 0 ? dt / curveDuration : .infinity
            if reversed {
                u -= du
                ended = u <= 1e-12
            } else {
                u += du
                ended = u >= 1 - 1e-12
            }
            if !ended { updateCurve() }
        case .segment:
            segmentElapsed += dt
            ended = segmentElapsed >= segmentDuration - 1e-12
            if !ended { updateSegment() }
        }
        guard ended else { return false }
        // At the end (or start): every group there exactly.
        let q: Double = reversed ? 0 : 1
        u = q
        for i in groups.indices { groups[i].qx = q; groups[i].qy = q }
        mode = .curve
        segmentStale = false
        isRunning = false
        return !pausesOnCompletion
    }

    /// Curve mode: each group at the base timing of its own time fraction.
    @inline(__always)
    private func updateCurve() {
        let u = self.u
        switch baseTiming {
        case .cubic(let b):
            for i in groups.indices {
                let v = b.value(at: groups[i].localFraction(u))
                groups[i].qx = v; groups[i].qy = v
            }
        case .spring(let s):
            let r = baseSpring!
            for i in groups.indices {
                let p = r.basis(at: groups[i].localFraction(u) * curveDuration)
                groups[i].qx = 1 - (p.a - s.vx * p.b)
                groups[i].qy = 1 - (p.a - s.vy * p.b)
            }
        }
    }

    /// Segment mode: each group from where it was toward the end with the segment's timing.
    @inline(__always)
    private func updateSegment() {
        let s = segmentDuration > 0 ? segmentElapsed / segmentDuration : 1
        let u = u0 + (uT - u0) * s
        self.u = u
        let target: Double = reversed ? 0 : 1
        for i in groups.indices {
            let g = groups[i]
            let w0 = g.localFraction(u0), wT = g.localFraction(uT)
            let r = wT == w0 ? 1 : (g.localFraction(u) - w0) / (wT - w0)
            switch segmentTiming {
            case .cubic(let b):
                let e = b.value(at: r)
                groups[i].qx = g.q0x + (target - g.q0x) * e
                groups[i].qy = g.q0y + (target - g.q0y) * e
            case .spring(let sp):
                let p = segmentSpring!.basis(at: r * segmentDuration)
                groups[i].qx = g.q0x + (target - g.q0x) * (1 - (p.a - sp.vx * p.b))
                groups[i].qy = g.q0y + (target - g.q0y) * (1 - (p.a - sp.vy * p.b))
            }
        }
    }

    /// The progress group `g`'s tracks present (x and y).
    @inline(__always)
    func progress(ofGroup g: Int) -> (Double, Double) {
        let q = groups[g]
        return (q.qx, q.qy)
    }

    /// Called by the clock after the frame in which the animator reached its end: the
    /// animations end where they went (`.end`; `.start` when reversed, the model values set
    /// back to their start), then the completions run.
    func completeRun() {
        guard state == .active, !isRunning, u == (reversed ? 0 : 1) else { return }
        let position: ViewAnimatingPosition = reversed ? .start : .end
        for v in views {
            if position == .start {
                for t in v.animationTracks where t.animator === self {
                    v.setModelValue(v.modelValue(of: t.property).offset(by: t.from, t.to, 1, 1), of: t.property)
                }
            }
            v.removeTracks(of: self)
        }
        views.removeAll(keepingCapacity: true)
        endRun()
        fireCompletions(position)
    }

    /// Back to inactive, the groups and tracks gone (the completions stay to be fired).
    private func endRun() {
        for v in views { v.removeTracks(of: self) }
        views.removeAll(keepingCapacity: true)
        state = .inactive
        isRunning = false
        groups.removeAll(keepingCapacity: true)
        pendingBlocks.removeAll(keepingCapacity: true)
        u = 0
        mode = .curve
        segmentStale = false
        delayLeft = 0
        delay = 0
    }

    private func fireCompletions(_ position: ViewAnimatingPosition) {
        guard !completions.isEmpty else { return }
        // Swapped out first: a handler may add completions or start the animator again.
        swap(&completions, &firing)
        var k = 0
        while k < firing.count {
            let c = firing[k]
            k += 1
            c.handler(position)
        }
        firing.removeAll(keepingCapacity: true)
    }
    private var firing: [Completion] = []
}

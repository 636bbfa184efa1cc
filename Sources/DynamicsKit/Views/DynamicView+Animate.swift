import Foundation
extension DynamicView {
    /// Animates the changes `animations` makes to views (UIKit's
    /// `UIView.animate(withDuration:delay:options:animations:completion:)`), on `clock`.
    ///
    /// The changed properties take their final (model) values at once; the views' `presentation`
    /// moves from the old to the new values over `duration` seconds after `delay` (showing the
    /// old values during the delay), along the curve in `options`. The animation starts at the
    /// clock's next `advance(by:)`. `completion` runs on the clock after the end with `true`, or
    /// with `false` when every property it animated was taken over by another animation or
    /// set directly, or when `removeAllAnimations()` ended it. A duration of 0 applies the
    /// changes and completes at the next advance.
    public static func animate(withDuration duration: TimeInterval, delay: TimeInterval = 0,
                               options: AnimationOptions = [], clock: AnimationClock = .main,
                               animations: @escaping () -> Void,
                               completion: ((Bool) -> Void)? = nil) {
        precondition(duration.isFinite && duration >= 0, "animate(withDuration:): the duration must be finite and not negative (got \(duration))")
        precondition(delay.isFinite && delay >= 0, "animate(withDuration:): the delay must be finite and not negative (got \(delay))")
        runBlock(duration: duration, delay: delay, options: options, clock: clock, animations: animations, completion: completion) {
            $0.settings.curve = options.curve
        }
    }

    /// The block style's transaction: `duration`, `delay`, the repeat, autoreverse and
    /// current-state options and the completion, then `timing` (a curve or a spring); the
    /// changes `animations` makes are captured and committed on `clock`.
    private static func runBlock(duration: TimeInterval, delay: TimeInterval, options: AnimationOptions, clock: AnimationClock,
                                 animations: () -> Void, completion: ((Bool) -> Void)?,
                                 timing: (inout AnimationTransaction) -> Void) {
        var t = ViewAnimationCapture.transaction(clock: clock)
        t.settings.duration = duration
        t.settings.delay = delay
        timing(&t)
        t.beginsFromCurrentState = options.contains(.beginFromCurrentState)
        t.settings.autoreverses = options.contains(.autoreverse)
        t.settings.repeatCount = options.contains(.repeat) ? .infinity : 0
        t.settings.completion = completion
        ViewAnimationCapture.push(t)
        animations()
        ViewAnimationCapture.pop(t)
        t.commit()
        ViewAnimationCapture.recycle(&t)
    }

    /// Animates the changes `animations` makes with a spring (UIKit's
    /// `animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:options:animations:completion:)`),
    /// on `clock`: as the block style above, except that each property moves as a damped
    /// spring from its old to its new value, lasting `duration` (the completion runs then).
    ///
    /// `dampingRatio` is the spring's ζ in (0, 1] (1: no overshoot); `velocity` is the initial
    /// speed toward the new value in units of the whole distance per second (1 = the distance
    /// in one second). The spring's natural frequency is chosen so that, started at rest, it
    /// has settled to within 0.1 % of the distance at `duration`
    /// (`SpringTimingParameters.settlingTolerance`; see docs/dynamicskit.md); at `duration`
    /// the view shows the model value. The curve options are ignored; `.repeat`,
    /// `.autoreverse` and `.beginFromCurrentState` apply.
    /// - Precondition: `duration` and `delay` finite and ≥ 0, `dampingRatio` in (0, 1],
    ///   `velocity` finite.
    public static func animate(withDuration duration: TimeInterval, delay: TimeInterval = 0,
                               usingSpringWithDamping dampingRatio: CGFloat, initialSpringVelocity velocity: CGFloat,
                               options: AnimationOptions = [], clock: AnimationClock = .main,
                               animations: @escaping () -> Void,
                               completion: ((Bool) -> Void)? = nil) {
        precondition(duration.isFinite && duration >= 0, "animate(withDuration:usingSpringWithDamping:): the duration must be finite and not negative (got \(duration))")
        precondition(delay.isFinite && delay >= 0, "animate(withDuration:usingSpringWithDamping:): the delay must be finite and not negative (got \(delay))")
        precondition(dampingRatio > 0 && dampingRatio <= 1, "animate(withDuration:usingSpringWithDamping:): the damping ratio must be in (0, 1] (got \(dampingRatio))")
        precondition(velocity.isFinite, "animate(withDuration:usingSpringWithDamping:): the initial velocity must be finite (got \(velocity))")
        runBlock(duration: duration, delay: delay, options: options, clock: clock, animations: animations, completion: completion) {
            $0.settings.spring = SpringResponse.lasting(duration, dampingRatio: Double(dampingRatio))
            $0.settings.springVelocity = Double(velocity)
        }
    }

    /// Makes changes without animating them, even inside an animation block; running
    /// animations of the changed properties end (interrupted).
    public static func performWithoutAnimation(_ actions: () -> Void) {
        let t = AnimationTransaction(id: nil, context: nil, clock: .main)
        t.disabled = true
        ViewAnimationCapture.push(t)
        actions()
        ViewAnimationCapture.pop(t)
    }

    /// Opens a begin/commit animation block (UIKit's `beginAnimations(_:context:)`): view
    /// changes made on this thread until `commitAnimations()` are animated together, with the
    /// settings the `setAnimation…` calls give (defaults: 0.2 s, no delay, ease-in-out, once,
    /// the main clock). Blocks nest; each commit closes the innermost.
    public static func beginAnimations(_ animationID: String?, context: UnsafeMutableRawPointer?) {
        ViewAnimationCapture.push(AnimationTransaction(id: animationID, context: context, clock: .main, isBeginCommit: true))
    }

    /// Closes the innermost begin/commit block and starts its animation at the clock's next
    /// advance. Without an open block it does nothing.
    public static func commitAnimations() {
        guard let t = ViewAnimationCapture.openBeginCommit else { return }
        ViewAnimationCapture.pop(t)
        t.commit()
    }

    /// The duration of the open begin/commit block (s; ignored outside one, as in UIKit).
    public static func setAnimationDuration(_ duration: TimeInterval) {
        precondition(duration.isFinite && duration >= 0, "setAnimationDuration: the duration must be finite and not negative (got \(duration))")
        ViewAnimationCapture.openBeginCommit?.settings.duration = duration
    }

    /// The delay before the open block's animation starts (s).
    public static func setAnimationDelay(_ delay: TimeInterval) {
        precondition(delay.isFinite && delay >= 0, "setAnimationDelay: the delay must be finite and not negative (got \(delay))")
        ViewAnimationCapture.openBeginCommit?.settings.delay = delay
    }

    /// The timing curve of the open begin/commit block (default ease-in-out).
    public static func setAnimationCurve(_ curve: AnimationCurve) {
        ViewAnimationCapture.openBeginCommit?.settings.curve = curve
    }

    /// How many times the animation runs (fractions allowed; 0 = once; `.infinity` = forever).
    public static func setAnimationRepeatCount(_ repeatCount: Float) {
        precondition(!repeatCount.isNaN && repeatCount >= 0, "setAnimationRepeatCount: the count must not be negative or NaN (got \(repeatCount))")
        ViewAnimationCapture.openBeginCommit?.settings.repeatCount = Double(repeatCount)
    }

    /// Each repetition runs forward then backward.
    public static func setAnimationRepeatAutoreverses(_ repeatAutoreverses: Bool) {
        ViewAnimationCapture.openBeginCommit?.settings.autoreverses = repeatAutoreverses
    }

    /// See `AnimationOptions.beginFromCurrentState`.
    public static func setAnimationBeginsFromCurrentState(_ fromCurrentState: Bool) {
        ViewAnimationCapture.openBeginCommit?.beginsFromCurrentState = fromCurrentState
    }

    /// The delegate told of the open block's start and stop (held weakly).
    public static func setAnimationDelegate(_ delegate: ViewAnimationDelegate?) {
        ViewAnimationCapture.openBeginCommit?.settings.delegate = delegate
    }

    /// A closure called when the open block's animation starts (the stand-in for UIKit's
    /// will-start selector): animation id and context.
    public static func setAnimationWillStart(_ handler: ((String?, UnsafeMutableRawPointer?) -> Void)?) {
        ViewAnimationCapture.openBeginCommit?.settings.willStart = handler
    }

    /// A closure called when the open block's animation stops (UIKit's did-stop selector):
    /// animation id, whether it finished (false = interrupted), context.
    public static func setAnimationDidStop(_ handler: ((String?, Bool, UnsafeMutableRawPointer?) -> Void)?) {
        ViewAnimationCapture.openBeginCommit?.settings.didStop = handler
    }

    /// The clock the open begin/commit block's animation runs on (default `.main`).
    public static func setAnimationClock(_ clock: AnimationClock) {
        ViewAnimationCapture.openBeginCommit?.clock = clock
    }
}

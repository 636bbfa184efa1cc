import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Public options, curves and delegate

/// Timing curves of view animations (UIKit's `UIView.AnimationCurve`): the cubic Béziers Core
/// Animation uses — ease-in-out (0.42, 0, 0.58, 1), ease-in (0.42, 0, 1, 1), ease-out
/// (0, 0, 0.58, 1) — and linear.
public enum AnimationCurve: Int, Sendable, CaseIterable {
    case easeInOut = 0, easeIn, easeOut, linear

    /// The curve's control points (x1, y1, x2, y2).
    var controlPoints: (Double, Double, Double, Double) {
        switch self {
        case .easeInOut: return (0.42, 0, 0.58, 1)
        case .easeIn: return (0.42, 0, 1, 1)
        case .easeOut: return (0, 0, 0.58, 1)
        case .linear: return (0, 0, 1, 1)
        }
    }

    /// The eased progress at `fraction` of the duration (both 0 … 1; clamped).
    public func value(at fraction: Double) -> Double {
        let x = min(max(fraction, 0), 1)
        if self == .linear || x == 0 || x == 1 { return x }
        let (x1, y1, x2, y2) = controlPoints
        // B(t) = 3(1−t)²t·p1 + 3(1−t)t²·p2 + t³; solve Bx(t) = x (monotonic in t), then By(t).
        func bez(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
        }
        func dbez(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
        }
        var t = x
        for _ in 0..<8 {
            let err = bez(t, x1, x2) - x
            if abs(err) < 1e-12 { return bez(t, y1, y2) }
            let d = dbez(t, x1, x2)
            if abs(d) < 1e-9 { break }
            t -= err / d
        }
        if !(t >= 0 && t <= 1) || abs(bez(t, x1, x2) - x) > 1e-9 {
            var lo = 0.0, hi = 1.0
            t = x
            for _ in 0..<60 {
                if bez(t, x1, x2) < x { lo = t } else { hi = t }
                t = (lo + hi) / 2
            }
        }
        return bez(t, y1, y2)
    }
}

/// Options of block-style view animations (UIKit's `UIView.AnimationOptions`; the raw values
/// match UIKit's).
public struct AnimationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Start from the presented value of a property that is already animating (default: the
    /// old animation is removed and the new one starts from the model value — UIKit's jump
    /// to the old target).
    public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
    /// Repeat forever (the completion runs only when interrupted, with `false`).
    public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
    /// Run forward, then backward; at the end the view shows the model (final) value, as UIKit.
    public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
    public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
    public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
    public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
    public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

    /// The curve the options select (ease-in-out when none is given).
    public var curve: AnimationCurve { AnimationCurve(rawValue: Int((rawValue >> 16) & 3)) ?? .easeInOut }
}

/// Told when a begin/commit animation starts (after its delay) and when it stops (UIKit's
/// `setAnimationWillStart(_:)` / `setAnimationDidStop(_:)` selectors). Both are optional.
public protocol ViewAnimationDelegate: AnyObject {
    func animationWillStart(_ animationID: String?, context: UnsafeMutableRawPointer?)
    /// `finished` is false when the animation was interrupted (replaced or removed).
    func animationDidStop(_ animationID: String?, finished: Bool, context: UnsafeMutableRawPointer?)
}

extension ViewAnimationDelegate {
    public func animationWillStart(_ animationID: String?, context: UnsafeMutableRawPointer?) {}
    public func animationDidStop(_ animationID: String?, finished: Bool, context: UnsafeMutableRawPointer?) {}
}

// MARK: - The UIView animation API

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
        let t = AnimationTransaction(id: nil, context: nil, clock: clock)
        t.duration = duration
        t.delay = delay
        t.curve = options.curve
        t.beginsFromCurrentState = options.contains(.beginFromCurrentState)
        t.autoreverses = options.contains(.autoreverse)
        t.repeatCount = options.contains(.repeat) ? .infinity : 0
        t.completion = completion
        ViewAnimationCapture.push(t)
        animations()
        ViewAnimationCapture.pop(t)
        t.commit()
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
        ViewAnimationCapture.openBeginCommit?.duration = duration
    }

    /// The delay before the open block's animation starts (s).
    public static func setAnimationDelay(_ delay: TimeInterval) {
        precondition(delay.isFinite && delay >= 0, "setAnimationDelay: the delay must be finite and not negative (got \(delay))")
        ViewAnimationCapture.openBeginCommit?.delay = delay
    }

    public static func setAnimationCurve(_ curve: AnimationCurve) {
        ViewAnimationCapture.openBeginCommit?.curve = curve
    }

    /// How many times the animation runs (fractions allowed; 0 = once; `.infinity` = forever).
    public static func setAnimationRepeatCount(_ repeatCount: Float) {
        precondition(!repeatCount.isNaN && repeatCount >= 0, "setAnimationRepeatCount: the count must not be negative or NaN (got \(repeatCount))")
        ViewAnimationCapture.openBeginCommit?.repeatCount = Double(repeatCount)
    }

    /// Each repetition runs forward then backward.
    public static func setAnimationRepeatAutoreverses(_ repeatAutoreverses: Bool) {
        ViewAnimationCapture.openBeginCommit?.autoreverses = repeatAutoreverses
    }

    /// See `AnimationOptions.beginFromCurrentState`.
    public static func setAnimationBeginsFromCurrentState(_ fromCurrentState: Bool) {
        ViewAnimationCapture.openBeginCommit?.beginsFromCurrentState = fromCurrentState
    }

    /// The delegate told of the open block's start and stop (held weakly).
    public static func setAnimationDelegate(_ delegate: ViewAnimationDelegate?) {
        ViewAnimationCapture.openBeginCommit?.delegate = delegate
    }

    /// A closure called when the open block's animation starts (the stand-in for UIKit's
    /// will-start selector): animation id and context.
    public static func setAnimationWillStart(_ handler: ((String?, UnsafeMutableRawPointer?) -> Void)?) {
        ViewAnimationCapture.openBeginCommit?.willStart = handler
    }

    /// A closure called when the open block's animation stops (UIKit's did-stop selector):
    /// animation id, whether it finished (false = interrupted), context.
    public static func setAnimationDidStop(_ handler: ((String?, Bool, UnsafeMutableRawPointer?) -> Void)?) {
        ViewAnimationCapture.openBeginCommit?.didStop = handler
    }

    /// The clock the open begin/commit block's animation runs on (default `.main`).
    public static func setAnimationClock(_ clock: AnimationClock) {
        ViewAnimationCapture.openBeginCommit?.clock = clock
    }
}

// MARK: - Values

/// The animatable properties of a `DynamicView` (`frame` animates `center` and `size`).
enum AnimatableProperty: Sendable, Equatable {
    case center, size, transform, alpha, backgroundColor
}

/// A value of an animatable property.
enum AnimatableValue: Equatable {
    case point(CGPoint)
    case size(CGSize)
    case scalar(CGFloat)
    case transform(CGAffineTransform)
    case color(Color)

    /// Linear interpolation at `f` (0 = self, 1 = `to`); transforms interpolate rotation,
    /// scale and translation separately (the shorter way round for the rotation).
    func interpolated(to: AnimatableValue, _ f: Double) -> AnimatableValue {
        let f = CGFloat(f)
        func mix(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * f }
        switch (self, to) {
        case let (.point(a), .point(b)): return .point(CGPoint(x: mix(a.x, b.x), y: mix(a.y, b.y)))
        case let (.size(a), .size(b)): return .size(CGSize(width: mix(a.width, b.width), height: mix(a.height, b.height)))
        case let (.scalar(a), .scalar(b)): return .scalar(mix(a, b))
        case let (.color(a), .color(b)):
            return .color(Color(red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue), alpha: mix(a.alpha, b.alpha)))
        case let (.transform(a), .transform(b)):
            let da = Decomposed(a), db = Decomposed(b)
            var turn = db.angle - da.angle
            if turn > .pi { turn -= 2 * .pi } else if turn < -.pi { turn += 2 * .pi }
            return .transform(Decomposed(angle: da.angle + turn * f, sx: mix(da.sx, db.sx), sy: mix(da.sy, db.sy),
                                         tx: mix(da.tx, db.tx), ty: mix(da.ty, db.ty)).transform)
        default: return f < 1 ? self : to
        }
    }

    /// A transform as scale, then rotation, then translation (skew is dropped).
    struct Decomposed {
        var angle: CGFloat, sx: CGFloat, sy: CGFloat, tx: CGFloat, ty: CGFloat
        init(angle: CGFloat, sx: CGFloat, sy: CGFloat, tx: CGFloat, ty: CGFloat) {
            self.angle = angle; self.sx = sx; self.sy = sy; self.tx = tx; self.ty = ty
        }
        init(_ t: CGAffineTransform) {
            sx = (t.a * t.a + t.b * t.b).squareRoot()
            angle = sx > 0 ? atan2(t.b, t.a) : 0
            sy = sx > 0 ? (t.a * t.d - t.b * t.c) / sx : (t.c * t.c + t.d * t.d).squareRoot()
            tx = t.tx; ty = t.ty
        }
        var transform: CGAffineTransform {
            let c = cos(angle), s = sin(angle)
            return CGAffineTransform(a: sx * c, b: sx * s, c: -sy * s, d: sy * c, tx: tx, ty: ty)
        }
    }
}

/// One property of one view animated by a run.
struct AnimationTrack {
    let property: AnimatableProperty
    let from: AnimatableValue
    let to: AnimatableValue
    let run: ViewAnimationRun
}

// MARK: - Transactions (open animation blocks) and runs (committed animations)

/// An animation block being filled: the settings and the changes captured on its thread.
final class AnimationTransaction {
    let id: String?
    let context: UnsafeMutableRawPointer?
    let isBeginCommit: Bool
    var clock: AnimationClock
    var duration: TimeInterval
    var delay: TimeInterval = 0
    var curve: AnimationCurve = .easeInOut
    var repeatCount: Double = 0
    var autoreverses = false
    var beginsFromCurrentState = false
    /// `performWithoutAnimation`: changes are applied, not animated.
    var disabled = false
    weak var delegate: ViewAnimationDelegate?
    var willStart: ((String?, UnsafeMutableRawPointer?) -> Void)?
    var didStop: ((String?, Bool, UnsafeMutableRawPointer?) -> Void)?
    var completion: ((Bool) -> Void)?

    struct Change {
        let view: DynamicView
        let property: AnimatableProperty
        let modelFrom: AnimatableValue
        let presentedFrom: AnimatableValue
        var to: AnimatableValue
    }
    private(set) var changes: [Change] = []

    init(id: String?, context: UnsafeMutableRawPointer?, clock: AnimationClock, isBeginCommit: Bool = false) {
        self.id = id; self.context = context; self.clock = clock; self.isBeginCommit = isBeginCommit
        duration = isBeginCommit ? 0.2 : 0
    }

    func record(view: DynamicView, property: AnimatableProperty, modelFrom: AnimatableValue,
                presentedFrom: AnimatableValue, to: AnimatableValue) {
        if disabled { view.removeTracks(for: property); return }
        if let i = changes.firstIndex(where: { $0.view === view && $0.property == property }) {
            changes[i].to = to
        } else {
            changes.append(Change(view: view, property: property, modelFrom: modelFrom, presentedFrom: presentedFrom, to: to))
        }
    }

    /// Installs the captured changes as tracks of a new run on the clock.
    func commit() {
        let run = ViewAnimationRun(self)
        for c in changes {
            let from = beginsFromCurrentState ? c.presentedFrom : c.modelFrom
            if from == c.to { continue }              // nothing to animate (a running animation goes on)
            c.view.removeTracks(for: c.property)      // the older animation of this property ends
            c.view.animationTracks.append(AnimationTrack(property: c.property, from: from, to: c.to, run: run))
            run.trackAdded(c.view)
        }
        changes.removeAll()
        clock.add(run)
    }
}

/// A committed view animation, advanced by its clock.
final class ViewAnimationRun {
    let id: String?
    let context: UnsafeMutableRawPointer?
    let duration: TimeInterval
    let delay: TimeInterval
    let curve: AnimationCurve
    let repeatCount: Double
    let autoreverses: Bool
    weak var delegate: ViewAnimationDelegate?
    let willStart: ((String?, UnsafeMutableRawPointer?) -> Void)?
    let didStop: ((String?, Bool, UnsafeMutableRawPointer?) -> Void)?
    let completion: ((Bool) -> Void)?
    let hadDelegateCallbacks: Bool

    private(set) var elapsed: TimeInterval = 0
    private(set) var started = false
    private(set) var ended = false
    private var interrupted = false
    private var liveTracks = 0
    private var hadTracks = false
    private var views: [DynamicView] = []
    /// The eased fraction the tracks present (0 during the delay); nil once ended.
    private(set) var presentedFraction: Double? = 0

    init(_ t: AnimationTransaction) {
        id = t.id; context = t.context; duration = t.duration; delay = t.delay; curve = t.curve
        repeatCount = t.repeatCount; autoreverses = t.autoreverses; delegate = t.delegate
        willStart = t.willStart; didStop = t.didStop; completion = t.completion
        hadDelegateCallbacks = t.delegate != nil || t.willStart != nil || t.didStop != nil
    }

    func trackAdded(_ view: DynamicView) {
        liveTracks += 1
        hadTracks = true
        if !views.contains(where: { $0 === view }) { views.append(view) }
    }

    /// One of the run's tracks was taken away (another animation or a direct set).
    func trackRemoved(interrupted: Bool) {
        liveTracks -= 1
        if interrupted { self.interrupted = true }
    }

    /// Length of the whole animation after the delay (∞ when repeating forever).
    var activeDuration: TimeInterval {
        let cycle = duration * (autoreverses ? 2 : 1)
        if repeatCount == .infinity { return cycle > 0 ? .infinity : 0 }
        return cycle * (repeatCount > 0 ? repeatCount : 1)
    }

    enum Event { case willStart, didStop(Bool) }

    /// Advances by `dt` and reports what happened (the clock calls the callbacks afterwards).
    func advance(by dt: TimeInterval, events: inout [(ViewAnimationRun, Event)]) {
        guard !ended else { return }
        if hadTracks && liveTracks == 0 {
            // Every property was taken over: the animation stops, unfinished.
            end(finished: false, events: &events)
            return
        }
        elapsed += dt
        let active = elapsed - delay
        if !started && active >= -1e-12 {
            started = true
            events.append((self, .willStart))
        }
        guard started else { presentedFraction = 0; return }
        let total = activeDuration
        if active >= total - 1e-12 {
            end(finished: !interrupted, events: &events)
            return
        }
        let cycle = duration * (autoreverses ? 2 : 1)
        var local = active - (active / cycle).rounded(.down) * cycle
        if autoreverses && local > duration { local = cycle - local }
        presentedFraction = curve.value(at: duration > 0 ? local / duration : 1)
    }

    private func end(finished: Bool, events: inout [(ViewAnimationRun, Event)]) {
        ended = true
        presentedFraction = nil
        for v in views { v.removeTracks(of: self) }
        views.removeAll()
        events.append((self, .didStop(finished)))
    }

    /// Ends the run now (interrupted), e.g. when its clock is torn down.
    func cancel(events: inout [(ViewAnimationRun, Event)]) {
        guard !ended else { return }
        end(finished: false, events: &events)
    }

    func fire(_ event: Event) {
        switch event {
        case .willStart:
            delegate?.animationWillStart(id, context: context)
            willStart?(id, context)
        case .didStop(let finished):
            delegate?.animationDidStop(id, finished: finished, context: context)
            didStop?(id, finished, context)
            completion?(finished)
        }
    }
}

// MARK: - Capturing changes on the current thread

/// The open animation blocks of each thread. Property setters ask `mayCapture` first (one
/// relaxed atomic load) so that views pay nothing while no block is open anywhere.
enum ViewAnimationCapture {
    private static let openBlocks = Atomic<Int>(0)

    final class Stack { var items: [AnimationTransaction] = [] }

    private static let key: pthread_key_t = {
        var k = pthread_key_t()
        let rc = pthread_key_create(&k) { p in
            guard let p else { return }
            Unmanaged<Stack>.fromOpaque(p).release()
        }
        precondition(rc == 0, "pthread_key_create failed (\(rc))")
        return k
    }()

    private static var stack: Stack {
        if let p = pthread_getspecific(key) { return Unmanaged<Stack>.fromOpaque(p).takeUnretainedValue() }
        let s = Stack()
        pthread_setspecific(key, Unmanaged.passRetained(s).toOpaque())
        return s
    }

    @inline(__always) static var mayCapture: Bool { openBlocks.load(ordering: .relaxed) > 0 }

    /// The innermost open block of this thread.
    static var current: AnimationTransaction? { mayCapture ? stack.items.last : nil }

    /// The innermost open begin/commit block of this thread.
    static var openBeginCommit: AnimationTransaction? {
        mayCapture ? stack.items.last(where: { $0.isBeginCommit }) : nil
    }

    static func push(_ t: AnimationTransaction) {
        stack.items.append(t)
        openBlocks.add(1, ordering: .relaxed)
    }

    static func pop(_ t: AnimationTransaction) {
        let s = stack
        guard let i = s.items.lastIndex(where: { $0 === t }) else { return }
        s.items.remove(at: i)
        openBlocks.subtract(1, ordering: .relaxed)
    }
}

import Foundation

/// An object the clock steps at the start of each advance, before its animators (a collection
/// view's deceleration: the offset moves, the layout hears of it, then the springs step).
protocol ClockFrameDriver: AnyObject {
    /// Steps by `seconds`; false takes the driver off the clock.
    func clockWillAdvance(by seconds: TimeInterval) -> Bool
}

extension AnimationClock {
    func addFrameDriver(_ driver: ClockFrameDriver) {
        if !frameDrivers.contains(where: { $0 === driver }) { frameDrivers.append(driver) }
    }

    func removeFrameDriver(_ driver: ClockFrameDriver) {
        frameDrivers.removeAll { $0 === driver }
    }

    /// Steps every frame driver, dropping those that are done (by index: a driver may add one).
    func driveFrames(by seconds: TimeInterval) {
        var k = 0
        while k < frameDrivers.count {
            let d = frameDrivers[k]
            if d.clockWillAdvance(by: seconds) { k += 1 } else { frameDrivers.remove(at: k) }
        }
    }
}

/// The scroll physics of a collection view (UIScrollView's, as measured and described in
/// docs/dynamicskit.md "Collection views"):
/// - dragging: the offset is the start offset minus the finger's travel, and past an end the
///   overshoot x becomes (1 − 1 / (0.55·x / d + 1))·d, d the view's size along that axis
///   (UIKit's rubber band);
/// - decelerating: the velocity is multiplied by `rate` each millisecond, integrated exactly
///   (x(t) = v₀·(rateᵗ − 1) / ln rate, t in ms), until it falls under 1 pt/s (less than 0.5 pt
///   would be left to travel; that rest is added);
/// - past an end (a fling that runs over, or a release while rubber-banded): a critically
///   damped spring of 12 rad/s pulls the offset back to the end, from the velocity it had,
///   until it is within 0.5 pt and 5 pt/s of it;
/// - animated `setContentOffset`: 0.3 s, ease in and out.
final class ScrollMotion: ClockFrameDriver {
    unowned let view: CollectionView
    init(_ view: CollectionView) { self.view = view }

    static let rubberBandCoefficient: CGFloat = 0.55
    static let bounceStiffness: CGFloat = 12
    static let stopSpeed: CGFloat = 1
    static let animationDuration: TimeInterval = 0.3

    private enum Mode { case idle, dragging, decelerating, animating }
    private var mode = Mode.idle
    /// Drag: the finger's first point and the unbanded offset it started from.
    private var fingerStart = CGPoint.zero
    private var rawStart = CGPoint.zero
    /// Deceleration: the content's velocity (pt/s), per axis.
    private var velocity = CGPoint.zero
    /// Animated scroll.
    private var from = CGPoint.zero, to = CGPoint.zero, elapsed: TimeInterval = 0

    var isDecelerating: Bool { mode == .decelerating }
    var isMoving: Bool { mode == .decelerating || mode == .animating }

    func stop() {
        if mode != .dragging { mode = .idle }
    }

    // MARK: Drag

    func beginDrag(at finger: CGPoint, offset: CGPoint) {
        mode = .dragging
        fingerStart = finger
        let r = view.offsetRange, s = view.bounds.size
        rawStart = CGPoint(x: Self.unbanded(offset.x, r.min.x, r.max.x, s.width, view.bounces),
                           y: Self.unbanded(offset.y, r.min.y, r.max.y, s.height, view.bounces))
    }

    func dragOffset(finger: CGPoint) -> CGPoint {
        let r = view.offsetRange, s = view.bounds.size
        var o = view.contentOffset
        if view.scrollsHorizontally {
            o.x = Self.banded(rawStart.x - (finger.x - fingerStart.x), r.min.x, r.max.x, s.width, view.bounces)
        }
        if view.scrollsVertically {
            o.y = Self.banded(rawStart.y - (finger.y - fingerStart.y), r.min.y, r.max.y, s.height, view.bounces)
        }
        return o
    }

    /// The rubber band: `raw` past [lo, hi] shows as less, never more than `d` past.
    static func banded(_ raw: CGFloat, _ lo: CGFloat, _ hi: CGFloat, _ d: CGFloat, _ bounces: Bool) -> CGFloat {
        if raw < lo { return bounces ? lo - band(lo - raw, d) : lo }
        if raw > hi { return bounces ? hi + band(raw - hi, d) : hi }
        return raw
    }

    private static func band(_ x: CGFloat, _ d: CGFloat) -> CGFloat {
        guard d > 0 else { return 0 }
        return (1 - 1 / (x * rubberBandCoefficient / d + 1)) * d
    }

    /// The inverse of `banded` (a drag that starts while the content is past an end).
    static func unbanded(_ shown: CGFloat, _ lo: CGFloat, _ hi: CGFloat, _ d: CGFloat, _ bounces: Bool) -> CGFloat {
        guard bounces, d > 0 else { return shown }
        func unband(_ y: CGFloat) -> CGFloat { let f = min(y / d, 0.999); return d / rubberBandCoefficient * (1 / (1 - f) - 1) }
        if shown < lo { return lo - unband(lo - shown) }
        if shown > hi { return hi + unband(shown - hi) }
        return shown
    }

    // MARK: Deceleration

    func startDeceleration(fingerVelocity v: CGPoint, offset: CGPoint) {
        velocity = CGPoint(x: view.scrollsHorizontally ? -v.x : 0, y: view.scrollsVertically ? -v.y : 0)
        let r = view.offsetRange
        let outside = offset.x < r.min.x || offset.x > r.max.x || offset.y < r.min.y || offset.y > r.max.y
        mode = (outside || abs(velocity.x) >= Self.stopSpeed || abs(velocity.y) >= Self.stopSpeed) ? .decelerating : .idle
    }

    func startAnimation(from: CGPoint, to: CGPoint) {
        self.from = from; self.to = to; elapsed = 0
        mode = .animating
    }

    func clockWillAdvance(by seconds: TimeInterval) -> Bool {
        switch mode {
        case .idle, .dragging:
            view.scrollDriverDidStop()
            return false
        case .animating:
            elapsed += seconds
            let f = min(1, elapsed / Self.animationDuration)
            let e = CGFloat(f * f * (3 - 2 * f))
            if f >= 1 { mode = .idle }
            view.applyOffset(CGPoint(x: from.x + (to.x - from.x) * e, y: from.y + (to.y - from.y) * e))
        case .decelerating:
            let r = view.offsetRange
            let o = view.contentOffset
            var x = o.x, y = o.y
            let doneX = step(&x, &velocity.x, r.min.x, r.max.x, seconds)
            let doneY = step(&y, &velocity.y, r.min.y, r.max.y, seconds)
            if doneX && doneY { mode = .idle }
            view.applyOffset(CGPoint(x: x, y: y))
        }
        if mode == .idle { view.scrollDriverDidStop(); return false }
        return true
    }

    /// One axis by `seconds`: decelerating inside [lo, hi], springing back outside. True when
    /// the axis came to rest.
    private func step(_ x: inout CGFloat, _ v: inout CGFloat, _ lo: CGFloat, _ hi: CGFloat, _ seconds: TimeInterval) -> Bool {
        if x < lo || x > hi {
            let end = x < lo ? lo : hi
            guard view.bounces else { x = end; v = 0; return true }
            // Critically damped: d(t) = (d₀ + (v₀ + ω d₀) t) e^{−ωt}.
            let w = Self.bounceStiffness, t = CGFloat(seconds)
            let d0 = x - end, v0 = v
            let e = exp(-w * t)
            let d = (d0 + (v0 + w * d0) * t) * e
            v = (v0 - w * (v0 + w * d0) * t) * e
            x = end + d
            if abs(d) < 0.5 && abs(v) < 5 { x = end; v = 0; return true }
            return false
        }
        if v == 0 { return true }
        let lnRate = log(view.decelerationRate.rawValue) * 1000   // per second
        let k = exp(lnRate * CGFloat(seconds))
        let next = x + v * (k - 1) / lnRate
        v *= k
        if abs(v) < Self.stopSpeed {
            // The rest of the travel (under 0.5 pt), then rest.
            x = next - v / lnRate
            v = 0
            if x < lo || x > hi { x = min(max(x, lo), hi) }
            return true
        }
        x = next
        if !view.bounces && (x < lo || x > hi) { x = min(max(x, lo), hi); v = 0; return true }
        return false
    }
}

/// The finger of a collection view's scripted drags (UIKit's `UIPanGestureRecognizer`, read
/// only): where it is or last was, how far it moved and how fast.
public final class PanGestureRecognizer {
    /// The recognizer's phase.
    public enum State: Sendable, Equatable {
        /// No drag yet.
        case possible
        /// A finger just touched (`beginDrag(at:)`).
        case began
        /// The finger moved (`drag(to:)`).
        case changed
        /// The finger lifted (`endDrag(velocity:)`).
        case ended
    }

    /// The phase of the last drag.
    public private(set) var state = State.possible
    /// The collection view the finger drags.
    public internal(set) weak var view: CollectionView?
    /// The finger (or where it lifted) and where it touched down, in the collection view's
    /// superview coordinates; nil before the first drag.
    private var finger: CGPoint?
    private var start = CGPoint.zero
    private var lastVelocity = CGPoint.zero
    private var lastPoint = CGPoint.zero, lastTime: TimeInterval = 0

    func touch(_ p: CGPoint, state: State, time: TimeInterval) {
        if state == .began {
            start = p; lastVelocity = .zero
        } else if let f = finger, time > lastTime {
            lastVelocity = CGPoint(x: (p.x - f.x) / CGFloat(time - lastTime), y: (p.y - f.y) / CGFloat(time - lastTime))
        }
        finger = p; lastPoint = p; lastTime = time
        self.state = state
    }

    func lift(velocity: CGPoint) {
        lastVelocity = velocity
        state = .ended
    }

    /// The finger in `view`'s bounds coordinates (for the collection view itself: content
    /// coordinates, its offset included), or in the top-level coordinates for nil; where it
    /// lifted after a drag; (0, 0) before the first drag. Transforms are not applied.
    public func location(in view: DynamicView?) -> CGPoint {
        guard let finger, let cv = self.view else { return .zero }
        let window = cv.superview.map { $0.convertToTop(finger) } ?? finger
        return view.map { $0.convertFromTop(window) } ?? window
    }

    /// How far the finger moved since it touched down, in `view`'s coordinates (a difference:
    /// offsets cancel).
    public func translation(in view: DynamicView?) -> CGPoint {
        guard finger != nil else { return .zero }
        return CGPoint(x: lastPoint.x - start.x, y: lastPoint.y - start.y)
    }

    /// The finger's velocity (pt/s): between its last two moves while dragging, as given to
    /// `endDrag(velocity:)` after it lifted.
    public func velocity(in view: DynamicView?) -> CGPoint { lastVelocity }
}

extension DynamicView {
    /// `p` in this view's bounds coordinates, in the coordinates of the top of its tree (the
    /// space the top view's frame is in). Transforms are not applied.
    func convertToTop(_ p: CGPoint) -> CGPoint {
        var q = p
        var v: DynamicView? = self
        while let view = v {
            let b = view.bounds.origin, f = view.frame.origin
            q = CGPoint(x: q.x - b.x + f.x, y: q.y - b.y + f.y)
            v = view.superview
        }
        return q
    }

    /// The inverse of `convertToTop(_:)`.
    func convertFromTop(_ p: CGPoint) -> CGPoint {
        let origin = convertToTop(.zero)
        return CGPoint(x: p.x - origin.x, y: p.y - origin.y)
    }
}

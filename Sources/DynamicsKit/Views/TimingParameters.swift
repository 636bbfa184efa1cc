import Foundation

/// The kind of timing a `TimingCurveProvider` gives (UIKit's `UITimingCurveType`).
public enum TimingCurveType: Int, Sendable {
    /// One of the built-in curves (`AnimationCurve`).
    case builtin = 0
    /// A cubic Bézier curve with custom control points.
    case cubic
    /// A damped spring.
    case spring
    /// A cubic curve and a spring together (not produced by DynamicsKit's own providers;
    /// the spring is used).
    case composed
}

/// Timing information for a `ViewPropertyAnimator` (UIKit's `UITimingCurveProvider`): a cubic
/// curve, a spring, or both.
public protocol TimingCurveProvider {
    /// Which of the parameters below apply.
    var timingCurveType: TimingCurveType { get }
    /// The cubic curve (for `.builtin` and `.cubic`).
    var cubicTimingParameters: CubicTimingParameters? { get }
    /// The spring (for `.spring` and `.composed`).
    var springTimingParameters: SpringTimingParameters? { get }
}

/// A cubic Bézier timing curve from (0, 0) to (1, 1) (UIKit's `UICubicTimingParameters`): the
/// built-in curves use Core Animation's control points (see `AnimationCurve`).
public final class CubicTimingParameters: TimingCurveProvider, Sendable {
    /// The built-in curve these parameters were made from (`.easeInOut` for custom points, as
    /// UIKit reports).
    public let animationCurve: AnimationCurve
    /// The first control point (x in 0 … 1).
    public let controlPoint1: CGPoint
    /// The second control point (x in 0 … 1).
    public let controlPoint2: CGPoint
    private let isBuiltin: Bool

    /// Ease-in-out, Core Animation's default curve.
    public convenience init() { self.init(animationCurve: .easeInOut) }

    /// One of the built-in curves.
    public init(animationCurve: AnimationCurve) {
        let p = animationCurve.controlPoints
        self.animationCurve = animationCurve
        controlPoint1 = CGPoint(x: p.0, y: p.1)
        controlPoint2 = CGPoint(x: p.2, y: p.3)
        isBuiltin = true
    }

    /// A curve through (0, 0), the two control points and (1, 1). The x coordinates must lie in
    /// 0 … 1 (so that time moves forward); y may leave 0 … 1 (an overshoot).
    /// - Precondition: finite points, x in 0 … 1.
    public init(controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint) {
        precondition(point1.x.isFinite && point1.y.isFinite && point2.x.isFinite && point2.y.isFinite,
                     "CubicTimingParameters: control points must be finite (got \(point1), \(point2))")
        precondition((0...1).contains(point1.x) && (0...1).contains(point2.x),
                     "CubicTimingParameters: control points' x must lie in 0 … 1 (got \(point1.x), \(point2.x))")
        animationCurve = .easeInOut
        controlPoint1 = point1
        controlPoint2 = point2
        isBuiltin = false
    }

    /// `.builtin` for the built-in curves, `.cubic` for custom control points.
    public var timingCurveType: TimingCurveType { isBuiltin ? .builtin : .cubic }
    /// These parameters.
    public var cubicTimingParameters: CubicTimingParameters? { self }
    /// nil: a cubic curve has no spring.
    public var springTimingParameters: SpringTimingParameters? { nil }

    var bezier: CubicBezier {
        CubicBezier(Double(controlPoint1.x), Double(controlPoint1.y), Double(controlPoint2.x), Double(controlPoint2.y))
    }
}

/// A damped spring as an animation's timing (UIKit's `UISpringTimingParameters`).
///
/// The animated property behaves as a mass on a damped spring pulled from its start value to
/// its end value: the normalized displacement x(t) (1 at the start, 0 at the end) obeys
/// x″ + 2ζω₀x′ + ω₀²x = 0 with x(0) = 1 and x′(0) = −v, where ζ is the damping ratio, ω₀ the
/// natural angular frequency and v the initial velocity in units of the distance to cover per
/// second. DynamicsKit evaluates the closed form (under-, critically or over-damped).
///
/// - `init(dampingRatio:)` and `init(dampingRatio:initialVelocity:)` last the animator's
///   duration: ω₀ is chosen so that the spring (at rest at the start) has settled to within
///   `settlingTolerance` of the distance at that duration (see `SpringResponse.lasting`).
/// - `init(mass:stiffness:damping:initialVelocity:)` and `init()` are physical springs
///   (ω₀ = √(k/m), ζ = c / 2√(km)); the animation lasts the spring's own settling time,
///   whatever duration the animator was given.
public final class SpringTimingParameters: TimingCurveProvider, Sendable {
    /// The damping ratio ζ (1 = critically damped; below 1 oscillates).
    public let dampingRatio: CGFloat
    /// The initial velocity, normalized to the distance the animation covers: dx for the x
    /// axis of a view's position (and every other property), dy for its y axis.
    public let initialVelocity: CGVector
    /// The spring's mass, stiffness and damping when given; nil for ratio-based springs.
    let physical: (mass: Double, stiffness: Double, damping: Double)?

    /// The fraction of the distance by which a spring counts as settled (0.001).
    public static let settlingTolerance: Double = 0.001

    /// UIKit's default spring: mass 3, stiffness 1000, damping 500 (damping ratio 4.56, as
    /// UIKit's documentation gives), at rest; lasts its own settling time.
    public convenience init() {
        self.init(mass: 3, stiffness: 1000, damping: 500, initialVelocity: CGVector(dx: 0, dy: 0))
    }

    /// A spring with this damping ratio, at rest, lasting the animator's duration.
    /// - Precondition: `ratio` in (0, 1].
    public convenience init(dampingRatio ratio: CGFloat) {
        self.init(dampingRatio: ratio, initialVelocity: CGVector(dx: 0, dy: 0))
    }

    /// A spring with this damping ratio and initial velocity (normalized to the distance
    /// covered), lasting the animator's duration.
    /// - Precondition: `ratio` in (0, 1]; finite velocity.
    public init(dampingRatio ratio: CGFloat, initialVelocity velocity: CGVector) {
        precondition(ratio > 0 && ratio <= 1, "SpringTimingParameters: the damping ratio must be in (0, 1] (got \(ratio))")
        precondition(velocity.dx.isFinite && velocity.dy.isFinite, "SpringTimingParameters: the initial velocity must be finite (got \(velocity))")
        dampingRatio = ratio
        initialVelocity = velocity
        physical = nil
    }

    /// A physical spring; the animation lasts its settling time (`settlingDuration`).
    /// - Precondition: mass, stiffness and damping finite and > 0; finite velocity.
    public init(mass: CGFloat, stiffness: CGFloat, damping: CGFloat, initialVelocity velocity: CGVector) {
        precondition(mass.isFinite && mass > 0, "SpringTimingParameters: the mass must be greater than 0 (got \(mass))")
        precondition(stiffness.isFinite && stiffness > 0, "SpringTimingParameters: the stiffness must be greater than 0 (got \(stiffness))")
        precondition(damping.isFinite && damping > 0, "SpringTimingParameters: the damping must be greater than 0 (got \(damping))")
        precondition(velocity.dx.isFinite && velocity.dy.isFinite, "SpringTimingParameters: the initial velocity must be finite (got \(velocity))")
        dampingRatio = damping / (2 * (stiffness * mass).squareRoot())
        initialVelocity = velocity
        physical = (Double(mass), Double(stiffness), Double(damping))
    }

    /// `.spring`.
    public var timingCurveType: TimingCurveType { .spring }
    /// nil: a spring has no cubic curve.
    public var cubicTimingParameters: CubicTimingParameters? { nil }
    /// These parameters.
    public var springTimingParameters: SpringTimingParameters? { self }

    /// Whether the animation lasts the spring's settling time rather than the animator's
    /// duration (a spring given by mass, stiffness and damping).
    public var usesOwnDuration: Bool { physical != nil }

    /// A physical spring's settling time (s): from then on it stays within
    /// `settlingTolerance` of the distance from its end (for the larger of the two velocity
    /// components); nil for ratio-based springs.
    public var settlingDuration: TimeInterval? {
        guard let p = physical else { return nil }
        let r = SpringResponse(dampingRatio: Double(dampingRatio), omega: (p.stiffness / p.mass).squareRoot())
        return max(r.settlingTime(velocity: Double(initialVelocity.dx)), r.settlingTime(velocity: Double(initialVelocity.dy)))
    }

    /// The response for an animation of `duration` seconds.
    func response(duration: TimeInterval) -> SpringResponse {
        if let p = physical { return SpringResponse(dampingRatio: Double(dampingRatio), omega: (p.stiffness / p.mass).squareRoot()) }
        return SpringResponse.lasting(duration, dampingRatio: Double(dampingRatio))
    }
}

// MARK: - Curves

/// A cubic Bézier timing curve from (0, 0) to (1, 1) with control points (x1, y1), (x2, y2).
struct CubicBezier: Sendable, Equatable {
    var x1: Double, y1: Double, x2: Double, y2: Double
    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) { self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2 }

    var isLinear: Bool { x1 == y1 && x2 == y2 }

    /// The eased progress at `fraction` of the time (clamped to 0 … 1).
    func value(at fraction: Double) -> Double {
        let x = min(max(fraction, 0), 1)
        if isLinear || x == 0 || x == 1 { return x }
        // B(t) = 3(1−t)²t·p1 + 3(1−t)t²·p2 + t³ as a polynomial: ((a·t + b)·t + c)·t.
        let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
        let cy = 3 * y1, by = 3 * (y2 - y1) - cy, ay = 1 - cy - by
        @inline(__always) func curveX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
        // Solve Bx(t) = x by Newton's method (Bx is monotonic for x1, x2 in 0 … 1), falling
        // back on bisection where the slope vanishes.
        var t = x
        for _ in 0..<8 {
            let err = curveX(t) - x
            if abs(err) < 1e-12 { return ((ay * t + by) * t + cy) * t }
            let d = (3 * ax * t + 2 * bx) * t + cx
            if abs(d) < 1e-9 { break }
            t -= err / d
        }
        if !(t >= 0 && t <= 1) || abs(curveX(t) - x) > 1e-9 {
            var lo = 0.0, hi = 1.0
            t = x
            for _ in 0..<60 {
                if curveX(t) < x { lo = t } else { hi = t }
                t = (lo + hi) / 2
            }
        }
        return ((ay * t + by) * t + cy) * t
    }
}

/// The normalized damped harmonic oscillator: displacement x(t) from the end value, 1 at t = 0,
/// with initial velocity −v (v toward the end, in distances per second), under
/// x″ + 2ζω₀x′ + ω₀²x = 0. Linear in v: x(t) = a(t) − v·b(t), where a starts at 1 at rest and
/// b at 0 with unit velocity.
struct SpringResponse: Sendable, Equatable {
    let zeta: Double
    let omega: Double
    /// ζω₀; ω_d = ω₀√(1−ζ²) (under-damped); the two roots r1 > r2 (over-damped).
    private let sigma: Double, wd: Double, r1: Double, r2: Double
    private enum Kind: Equatable { case under, critical, over }
    private let kind: Kind

    init(dampingRatio zeta: Double, omega: Double) {
        self.zeta = zeta; self.omega = omega
        sigma = zeta * omega
        if abs(zeta - 1) < 1e-9 {
            kind = .critical; wd = 0; r1 = -omega; r2 = -omega
        } else if zeta < 1 {
            kind = .under; wd = omega * (1 - zeta * zeta).squareRoot(); r1 = 0; r2 = 0
        } else {
            kind = .over; wd = 0
            let s = (zeta * zeta - 1).squareRoot()
            r1 = -omega * (zeta - s); r2 = -omega * (zeta + s)
        }
    }

    /// τ with (1 + τ)e^(−τ) = `SpringTimingParameters.settlingTolerance` (Newton's method).
    static let criticalSettlingTau: Double = {
        let eps = SpringTimingParameters.settlingTolerance
        var tau = 9.0
        for _ in 0..<50 {
            let f = (1 + tau) * exp(-tau) - eps, d = -tau * exp(-tau)
            tau -= f / d
        }
        return tau
    }()

    /// The spring (ζ in (0, 1], at rest) that settles at `duration`: its displacement bound
    /// e^(−ζω₀t)·min(1/√(1−ζ²), 1 + ζω₀t) — exact for ζ = 1, the envelope for ζ < 1 — equals
    /// the settling tolerance ε at t = `duration`. With τ = ζω₀·duration: τ is the smaller of
    /// the roots of (1 + τ)e^(−τ) = ε and e^(−τ)/√(1−ζ²) = ε, and ω₀ = τ / (ζ·duration).
    static func lasting(_ duration: TimeInterval, dampingRatio zeta: Double) -> SpringResponse {
        let eps = SpringTimingParameters.settlingTolerance
        var tau = criticalSettlingTau
        if zeta < 1 { tau = min(tau, log(1 / (eps * (1 - zeta * zeta).squareRoot()))) }
        return SpringResponse(dampingRatio: zeta, omega: tau / (zeta * max(duration, 1e-9)))
    }

    /// a(t), b(t) and their time derivatives.
    @inline(__always)
    func basis(at t: Double) -> (a: Double, b: Double, da: Double, db: Double) {
        switch kind {
        case .under:
            let e = exp(-sigma * t), c = cos(wd * t), s = sin(wd * t)
            return (e * (c + sigma / wd * s), e * s / wd, -e * s * omega * omega / wd, e * (c - sigma * s / wd))
        case .critical:
            let e = exp(-omega * t)
            return (e * (1 + omega * t), t * e, -omega * omega * t * e, e * (1 - omega * t))
        case .over:
            let e1 = exp(r1 * t), e2 = exp(r2 * t), d = r2 - r1
            return ((r2 * e1 - r1 * e2) / d, (e2 - e1) / d, r1 * r2 * (e1 - e2) / d, (r2 * e2 - r1 * e1) / d)
        }
    }

    /// Progress 1 − x(t) (0 at the start, 1 at the end) for initial velocity `v`.
    @inline(__always)
    func progress(at t: Double, velocity v: Double) -> Double {
        let p = basis(at: t)
        return 1 - (p.a - v * p.b)
    }

    /// The time derivative of `progress` (distances per second).
    func progressVelocity(at t: Double, velocity v: Double) -> Double {
        let p = basis(at: t)
        return -(p.da - v * p.db)
    }

    /// The time after which |x(t)| stays within the settling tolerance, by a bound on |x|:
    /// for ζ < 1, e^(−σt)·min(√(1 + k²), 1 + |σ − v|·t) with k = (σ − v)/ω_d (|sin ω_d t| ≤ ω_d t);
    /// for ζ = 1, e^(−ω₀t)(1 + |ω₀ − v|t), exact; for ζ > 1, (|A| + |B|)e^(r1·t). Each bound is
    /// at least 1 at t = 0 and stays above the tolerance on an interval [0, t*): t* is found by
    /// bisection.
    func settlingTime(velocity v: Double) -> TimeInterval {
        let eps = SpringTimingParameters.settlingTolerance
        let bound: (Double) -> Double
        switch kind {
        case .under:
            let k = (sigma - v) / wd, amp = (1 + k * k).squareRoot(), c = abs(sigma - v)
            bound = { t in exp(-self.sigma * t) * min(amp, 1 + c * t) }
        case .critical:
            let c = abs(omega - v)
            bound = { t in exp(-self.omega * t) * (1 + c * t) }
        case .over:
            let a = (-v - r2) / (r1 - r2), sum = abs(a) + abs(1 - a)
            bound = { t in sum * exp(self.r1 * t) }
        }
        var lo = 0.0, hi = 1 / max(sigma, 1e-9)
        while bound(hi) > eps { lo = hi; hi *= 2 }
        for _ in 0..<200 where hi - lo > 1e-12 * hi {
            let mid = (lo + hi) / 2
            if bound(mid) > eps { lo = mid } else { hi = mid }
        }
        return hi
    }
}

/// An animator's timing in the form the clock evaluates every frame: a cubic curve or a
/// spring (no existential on the hot path).
enum AnimatorTiming: Sendable, Equatable {
    case cubic(CubicBezier)
    /// A spring, its velocities (normalized, x and y), and whether it lasts its own settling
    /// time (else the animator's duration).
    case spring(SpringTimingParameters.Snapshot)

    init(_ provider: any TimingCurveProvider) {
        switch provider.timingCurveType {
        case .builtin, .cubic:
            if let c = provider.cubicTimingParameters { self = .cubic(c.bezier) } else { self = .cubic(CubicBezier(0.42, 0, 0.58, 1)) }
        case .spring, .composed:
            if let s = provider.springTimingParameters { self = .spring(s.snapshot) }
            else if let c = provider.cubicTimingParameters { self = .cubic(c.bezier) }
            else { self = .cubic(CubicBezier(0.42, 0, 0.58, 1)) }
        }
    }
}

extension SpringTimingParameters {
    /// The values of a spring, as a value type.
    struct Snapshot: Sendable, Equatable {
        var zeta: Double
        var omega: Double?        // physical springs: ω₀; nil: derived from the duration
        var vx: Double, vy: Double

        /// The spring's response and how long it lasts, for an animation of `duration`: a
        /// physical spring lasts its own settling time (the slower of its two velocities),
        /// one given by its damping ratio lasts `duration`.
        func response(lasting duration: Double) -> (response: SpringResponse, duration: Double) {
            guard let w = omega else { return (SpringResponse.lasting(duration, dampingRatio: zeta), duration) }
            let r = SpringResponse(dampingRatio: zeta, omega: w)
            return (r, max(r.settlingTime(velocity: vx), r.settlingTime(velocity: vy)))
        }
    }

    var snapshot: Snapshot {
        Snapshot(zeta: Double(dampingRatio), omega: physical.map { ($0.stiffness / $0.mass).squareRoot() },
                 vx: Double(initialVelocity.dx), vy: Double(initialVelocity.dy))
    }
}

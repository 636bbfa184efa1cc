/// Timing curves of view animations (UIKit's `UIView.AnimationCurve`): the cubic Béziers Core
/// Animation uses — ease-in-out (0.42, 0, 0.58, 1), ease-in (0.42, 0, 1, 1), ease-out
/// (0, 0, 0.58, 1) — and linear.
public enum AnimationCurve: Int, Sendable, CaseIterable {
    /// Slow at both ends, slow at the start, slow at the end, or even speed (raw values as
    /// UIKit's).
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

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
        if self == .linear { return min(max(fraction, 0), 1) }
        let (x1, y1, x2, y2) = controlPoints
        return CubicBezier(x1, y1, x2, y2).value(at: fraction)
    }
}

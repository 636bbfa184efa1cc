/// A 2D vector of the engine: points (pt) for positions, pt/s for velocities.
///
/// The engine works in single precision; the public API layer converts from `Double`.
public typealias Vec2 = SIMD2<Float>

@inline(__always) @usableFromInline
func dot(_ a: Vec2, _ b: Vec2) -> Float { a.x * b.x + a.y * b.y }

/// The z component of the 3D cross product of `a` and `b`.
@inline(__always) @usableFromInline
func cross(_ a: Vec2, _ b: Vec2) -> Float { a.x * b.y - a.y * b.x }

/// `w × v` for a scalar angular velocity `w` (z axis) and a vector `v`.
@inline(__always) @usableFromInline
func cross(_ w: Float, _ v: Vec2) -> Vec2 { Vec2(-w * v.y, w * v.x) }

/// `v × s`: the vector rotated by -90° and scaled.
@inline(__always) @usableFromInline
func cross(_ v: Vec2, _ s: Float) -> Vec2 { Vec2(s * v.y, -s * v.x) }

/// The left perpendicular (rotated +90° in a y-up frame).
@inline(__always) @usableFromInline
func leftPerp(_ v: Vec2) -> Vec2 { Vec2(-v.y, v.x) }

/// The right perpendicular (rotated -90° in a y-up frame).
@inline(__always) @usableFromInline
func rightPerp(_ v: Vec2) -> Vec2 { Vec2(v.y, -v.x) }

@inline(__always) @usableFromInline
func lengthSquared(_ v: Vec2) -> Float { v.x * v.x + v.y * v.y }

@inline(__always) @usableFromInline
func length(_ v: Vec2) -> Float { (v.x * v.x + v.y * v.y).squareRoot() }

@inline(__always) @usableFromInline
func distance(_ a: Vec2, _ b: Vec2) -> Float { length(b - a) }

/// Returns the unit vector along `v`, or zero when `v` is (almost) zero.
@inline(__always) @usableFromInline
func normalize(_ v: Vec2) -> Vec2 {
    let l = length(v)
    if l < 1.0e-12 { return .zero }
    return v * (1 / l)
}

/// Component-wise min / max (the generic `pointwiseMin` / `pointwiseMax` are not always
/// inlined in hot loops).
@inline(__always) @usableFromInline
func vmin(_ a: Vec2, _ b: Vec2) -> Vec2 { Vec2(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y) }

@inline(__always) @usableFromInline
func vmax(_ a: Vec2, _ b: Vec2) -> Vec2 { Vec2(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y) }

@inline(__always) @usableFromInline
func clamp(_ x: Float, _ lo: Float, _ hi: Float) -> Float { x < lo ? lo : (x > hi ? hi : x) }

extension SIMD2 where Scalar == Float {
    /// True when both components are finite (not NaN, not infinite).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// A rotation stored as cosine and sine of the angle.
public struct Rot: Sendable, Equatable {
    /// The cosine of the angle.
    public var c: Float
    /// The sine of the angle.
    public var s: Float

    /// A rotation from its cosine and sine, which must form a unit vector.
    @inlinable public init(c: Float, s: Float) { self.c = c; self.s = s }
    /// The rotation by `angle` radians (counter-clockwise with y up, clockwise with y down).
    @inlinable public init(angle: Float) { c = cosf(angle); s = sinf(angle) }
    /// No rotation (angle 0).
    public static let identity = Rot(c: 1, s: 0)

    /// The angle in radians, in (-π, π].
    @inlinable public var angle: Float { atan2f(s, c) }

    /// The angle in radians, in [-π, π], by the engine's own arctangent (the one behind
    /// `relativeAngle`): within 3 units in the last place of the exact angle, the same bits on
    /// every platform and C library version (`angle` asks the C library, whose last bits
    /// differ between versions), and cheaper than the library's call. The animator writes its
    /// items' rotations from it.
    @inline(__always) @inlinable public var portableAngle: Float { solverAtan2(s, c) }

    /// `v` rotated by this rotation.
    @inline(__always) @inlinable
    public func rotate(_ v: Vec2) -> Vec2 { Vec2(c * v.x - s * v.y, s * v.x + c * v.y) }
    /// `v` rotated by the inverse of this rotation.
    @inline(__always) @inlinable
    public func invRotate(_ v: Vec2) -> Vec2 { Vec2(c * v.x + s * v.y, -s * v.x + c * v.y) }

    /// Rotation `self * b` (apply b, then self).
    @inline(__always) @inlinable
    public func mul(_ b: Rot) -> Rot { Rot(c: c * b.c - s * b.s, s: s * b.c + c * b.s) }
    /// Rotation `self⁻¹ * b`.
    @inline(__always) @inlinable
    public func invMul(_ b: Rot) -> Rot { Rot(c: c * b.c + s * b.s, s: c * b.s - s * b.c) }

    /// Integrates an angular change `da` (small) and renormalises.
    @inline(__always) @inlinable
    public func integrated(_ da: Float) -> Rot {
        let c2 = c - da * s
        let s2 = s + da * c
        let mag = (c2 * c2 + s2 * s2).squareRoot()
        let inv: Float = mag > 0 ? 1 / mag : 0
        return Rot(c: c2 * inv, s: s2 * inv)
    }

    /// The relative angle of `b` with respect to `a`, in [-π, π], by the engine's own
    /// arctangent (`solverAtan2`: within 3 units in the last place of the exact angle, the
    /// same bits on every platform). The joint solver's angles all come from here.
    @inline(__always) @inlinable
    public static func relativeAngle(_ b: Rot, _ a: Rot) -> Float {
        let s = b.s * a.c - b.c * a.s
        let c = b.c * a.c + b.s * a.s
        return solverAtan2(s, c)
    }
}

/// `atan2(y, x)` for finite arguments, in [-π, π], from a fixed polynomial instead of the C
/// library: the joint solver takes several angles a step (a snapped item seven), and libm's
/// `atan2f` goes through several wrappers for each — this polynomial is cheaper, and gives
/// the same bits on every platform and C library version.
///
/// Accuracy: the arctangent of the ratio t = min(|x|, |y|) / max(|x|, |y|) ∈ [0, 1] is
/// t + t³·P(t²), P of degree 7 fitted (weighted least squares on the relative error) to
/// atan on [0, 1]: within 1.1e-7 relative there; with the octant and quadrant folds
/// (π/2 − r, π − r, sign) and their roundings, within 3 units in the last place of the exact
/// angle (`SolverAtanTests`; worst seen 2.5). Signed zeros as `atan2f` (±0 for x ≥ +0,
/// ±π for x = −0); NaN in, NaN out; infinite arguments are not supported (NaN for two).
@inline(__always) @usableFromInline
func solverAtan2(_ y: Float, _ x: Float) -> Float {
    let ax = abs(x), ay = abs(y)
    let big = ay > ax ? ay : ax, small = ay > ax ? ax : ay
    let t = big == 0 ? 0 : small / big   // (NaN stays NaN: NaN == 0 is false)
    let t2 = t * t
    var p: Float = 0.00292068999260664
    p = p * t2 - 0.016367919743061066
    p = p * t2 + 0.04321184754371643
    p = p * t2 - 0.07552213221788406
    p = p * t2 + 0.10666004568338394
    p = p * t2 - 0.14211055636405945
    p = p * t2 + 0.19993773102760315
    p = p * t2 - 0.33333152532577515
    var r = t + (t * t2) * p
    if ay > ax { r = Float.pi / 2 - r }
    if x.sign == .minus { r = Float.pi - r }
    return y.sign == .minus ? -r : r
}

/// A rigid transform: translation then rotation.
public struct Transform: Sendable, Equatable {
    /// The translation: where the frame's origin is.
    public var p: Vec2
    /// The rotation of the frame.
    public var q: Rot
    /// A transform from its translation and rotation.
    @inlinable public init(p: Vec2, q: Rot) { self.p = p; self.q = q }
    /// No translation, no rotation.
    public static let identity = Transform(p: .zero, q: .identity)

    /// A point of the frame in the outer space: rotated by `q`, then moved by `p` (a body's
    /// local point to a world point).
    @inline(__always) @inlinable
    public func apply(_ v: Vec2) -> Vec2 { q.rotate(v) + p }
    /// A point of the outer space in the frame: the inverse of `apply(_:)`.
    @inline(__always) @inlinable
    public func invApply(_ v: Vec2) -> Vec2 { q.invRotate(v - p) }
    /// `self⁻¹ * b`: b expressed in self's frame.
    @inline(__always) @inlinable
    public func invMul(_ b: Transform) -> Transform {
        Transform(p: q.invRotate(b.p - p), q: q.invMul(b.q))
    }
}

/// An axis-aligned bounding box.
public struct AABB: Sendable, Equatable {
    /// The corner with the smallest x and y.
    public var lower: Vec2
    /// The corner with the largest x and y.
    public var upper: Vec2
    /// A box from its two corners (`lower` ≤ `upper` in x and y for a valid box).
    @inlinable public init(lower: Vec2, upper: Vec2) { self.lower = lower; self.upper = upper }

    /// Whether the two boxes share a point (touching edges count).
    @inline(__always) @inlinable
    public func overlaps(_ b: AABB) -> Bool {
        !(b.lower.x > upper.x || b.lower.y > upper.y || lower.x > b.upper.x || lower.y > b.upper.y)
    }
    /// The smallest box that holds both boxes.
    @inline(__always) @inlinable
    public func union(_ b: AABB) -> AABB {
        AABB(lower: vmin(lower, b.lower), upper: vmax(upper, b.upper))
    }
    /// The box grown by `m` on every side.
    @inline(__always) @inlinable
    public func expanded(by m: Float) -> AABB {
        AABB(lower: lower - Vec2(m, m), upper: upper + Vec2(m, m))
    }
    /// The centre of the box.
    @inlinable public var center: Vec2 { (lower + upper) * 0.5 }
    /// Half the width and half the height.
    @inlinable public var extents: Vec2 { (upper - lower) * 0.5 }
    /// Whether both corners are finite and ordered.
    @inlinable public var isValid: Bool { lower.isFinite && upper.isFinite && lower.x <= upper.x && lower.y <= upper.y }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

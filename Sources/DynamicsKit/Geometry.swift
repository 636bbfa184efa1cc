import Foundation

#if !canImport(CoreGraphics)
/// A two-dimensional vector (CoreGraphics' `CGVector`, which Foundation on Linux lacks).
public struct CGVector: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The x component.
    public var dx: CGFloat
    /// The y component (down the screen in UIKit's coordinates).
    public var dy: CGFloat
    /// A vector from its components.
    public init(dx: CGFloat, dy: CGFloat) { self.dx = dx; self.dy = dy }
    /// The zero vector.
    public init() { dx = 0; dy = 0 }
    /// The zero vector.
    public static let zero = CGVector(dx: 0, dy: 0)
    /// The vector as `(dx, dy)`.
    public var description: String { "(\(dx), \(dy))" }
}

/// An affine transform (CoreGraphics' `CGAffineTransform`, which Foundation on Linux lacks):
/// x' = a·x + c·y + tx, y' = b·x + d·y + ty.
public struct CGAffineTransform: Sendable, Equatable, Hashable {
    /// The matrix entries: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat
    /// A transform from its six matrix entries.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    /// The transform that changes nothing.
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    /// The rotation by `angle` radians (positive turns +x toward +y: clockwise on a y-down screen).
    public init(rotationAngle angle: CGFloat) {
        // One call each: with the calls written in the initializer's arguments, the release
        // build calls `cos` twice, and an animator writes a turned view's rotation back with
        // this every tick.
        let c = cos(angle), s = sin(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }
    /// Scales x by `sx` and y by `sy`.
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// Moves by (`tx`, `ty`).
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }
    /// Whether this is the identity transform.
    public var isIdentity: Bool { self == .identity }
    /// `self` followed by `t`.
    public func concatenating(_ t: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(a: a * t.a + b * t.c, b: a * t.b + b * t.d,
                          c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                          tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }
    /// This transform with a rotation by `angle` radians applied first (CoreGraphics' order).
    public func rotated(by angle: CGFloat) -> CGAffineTransform { CGAffineTransform(rotationAngle: angle).concatenating(self) }
    /// This transform with a scale by (`sx`, `sy`) applied first (CoreGraphics' order).
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform { CGAffineTransform(scaleX: sx, y: sy).concatenating(self) }
}
#endif

extension CGAffineTransform {
    /// The rotation angle of the transform (radians; y down, so positive is clockwise on screen).
    public var rotationAngle: CGFloat { atan2(b, a) }
}

extension CGVector {
    /// The angle in radians (0 = +x, π/2 = down the screen).
    var angle: CGFloat { atan2(dy, dx) }
    /// The length.
    var magnitude: CGFloat { (dx * dx + dy * dy).squareRoot() }
    /// The vector of this angle and length (length 0 gives the zero vector).
    init(angle: CGFloat, magnitude: CGFloat) {
        precondition(angle.isFinite && magnitude.isFinite, "setAngle(_:magnitude:): values must be finite")
        self.init(dx: magnitude * cos(angle), dy: magnitude * sin(angle))
    }
}

/// UIKit's `UIOffset`.
public struct Offset: Sendable, Equatable, Hashable {
    /// The horizontal offset (pt, positive to the right).
    public var horizontal: CGFloat
    /// The vertical offset (pt, positive down).
    public var vertical: CGFloat
    /// An offset from its two components.
    public init(horizontal: CGFloat, vertical: CGFloat) { self.horizontal = horizontal; self.vertical = vertical }
    /// No offset.
    public static let zero = Offset(horizontal: 0, vertical: 0)
}

/// UIKit's `UIEdgeInsets`.
public struct EdgeInsets: Sendable, Equatable, Hashable {
    /// The inset of each edge (pt, positive inward).
    public var top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat
    /// Insets from the four edges.
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    /// No inset.
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// UIKit's `UIFloatRange`.
public struct FloatRange: Sendable, Equatable, Hashable {
    /// The lower end of the range.
    public var minimum: CGFloat
    /// The upper end of the range.
    public var maximum: CGFloat
    /// The range `minimum` … `maximum`.
    public init(minimum: CGFloat, maximum: CGFloat) { self.minimum = minimum; self.maximum = maximum }
    /// The range 0 … 0.
    public static let zero = FloatRange(minimum: 0, maximum: 0)
    /// The range −∞ … +∞: no limit.
    public static let infinite = FloatRange(minimum: -.infinity, maximum: .infinity)
    /// Whether the range is −∞ … +∞.
    public var isInfinite: Bool { minimum == -.infinity && maximum == .infinity }
}

extension CGPoint {
    @inline(__always) var vec: Vec2 { Vec2(Float(x), Float(y)) }
    @inline(__always) init(_ v: Vec2) { self.init(x: CGFloat(v.x), y: CGFloat(v.y)) }
}

import DynamicsEngine

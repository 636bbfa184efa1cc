import Foundation

#if !canImport(CoreGraphics)
/// A two-dimensional vector (CoreGraphics' `CGVector`, which Foundation on Linux lacks).
public struct CGVector: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var dx: CGFloat
    public var dy: CGFloat
    public init(dx: CGFloat, dy: CGFloat) { self.dx = dx; self.dy = dy }
    public init() { dx = 0; dy = 0 }
    public static let zero = CGVector(dx: 0, dy: 0)
    public var description: String { "(\(dx), \(dy))" }
}

/// An affine transform (CoreGraphics' `CGAffineTransform`, which Foundation on Linux lacks):
/// x' = a·x + c·y + tx, y' = b·x + d·y + ty.
public struct CGAffineTransform: Sendable, Equatable, Hashable {
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    /// The rotation by `angle` radians (positive turns +x toward +y: clockwise on a y-down screen).
    public init(rotationAngle angle: CGFloat) {
        // One call each: with the calls written in the initializer's arguments, the release
        // build called `cos` twice, and an animator writes a turned view's rotation back with
        // this every tick.
        let c = cos(angle), s = sin(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }
    public var isIdentity: Bool { self == .identity }
    /// `self` followed by `t`.
    public func concatenating(_ t: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(a: a * t.a + b * t.c, b: a * t.b + b * t.d,
                          c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                          tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }
    public func rotated(by angle: CGFloat) -> CGAffineTransform { CGAffineTransform(rotationAngle: angle).concatenating(self) }
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
    public var horizontal: CGFloat
    public var vertical: CGFloat
    public init(horizontal: CGFloat, vertical: CGFloat) { self.horizontal = horizontal; self.vertical = vertical }
    public static let zero = Offset(horizontal: 0, vertical: 0)
}

/// UIKit's `UIEdgeInsets`.
public struct EdgeInsets: Sendable, Equatable, Hashable {
    public var top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// UIKit's `UIFloatRange`.
public struct FloatRange: Sendable, Equatable, Hashable {
    public var minimum: CGFloat
    public var maximum: CGFloat
    public init(minimum: CGFloat, maximum: CGFloat) { self.minimum = minimum; self.maximum = maximum }
    public static let zero = FloatRange(minimum: 0, maximum: 0)
    public static let infinite = FloatRange(minimum: -.infinity, maximum: .infinity)
    public var isInfinite: Bool { minimum == -.infinity && maximum == .infinity }
}

extension CGPoint {
    @inline(__always) var vec: Vec2 { Vec2(Float(x), Float(y)) }
    @inline(__always) init(_ v: Vec2) { self.init(x: CGFloat(v.x), y: CGFloat(v.y)) }
}

import DynamicsEngine

import Foundation
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

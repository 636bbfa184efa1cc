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

/// One property of one view animated by a block animation (`run`) or by a property
/// animator (`animator`, animation group `group`). A run's track presents its value between
/// `from` and `to`; a property animator's track is additive, as UIKit's: it adds
/// (from − to)·(1 − progress) to what is presented beneath it, so that animators of one
/// property compose and each ends on the model value.
struct AnimationTrack {
    let property: AnimatableProperty
    let from: AnimatableValue
    let to: AnimatableValue
    let run: ViewAnimationRun?
    let animator: ViewPropertyAnimator?
    let group: Int

    init(property: AnimatableProperty, from: AnimatableValue, to: AnimatableValue, run: ViewAnimationRun) {
        self.property = property; self.from = from; self.to = to; self.run = run; animator = nil; group = 0
    }

    init(property: AnimatableProperty, from: AnimatableValue, to: AnimatableValue, animator: ViewPropertyAnimator, group: Int) {
        self.property = property; self.from = from; self.to = to; run = nil; self.animator = animator; self.group = group
    }

    /// What the track presents on top of `base` (the model value or what the tracks beneath
    /// present), nil when it presents nothing (an ended run).
    @inline(__always)
    func presented(over base: AnimatableValue) -> AnimatableValue? {
        if let run {
            guard let f = run.presentedFraction else { return nil }
            return from.interpolated(to: to, f)
        }
        guard let a = animator else { return nil }
        let (qx, qy) = a.progress(ofGroup: group)
        return base.offset(by: from, to, 1 - qx, 1 - qy)
    }
}

extension AnimatableValue {
    /// `self` + (a − b)·k componentwise (points: kx on x, ky on y; everything else kx);
    /// transforms by their rotation (the shorter way), scales and translation.
    func offset(by a: AnimatableValue, _ b: AnimatableValue, _ kx: Double, _ ky: Double) -> AnimatableValue {
        let k = CGFloat(kx)
        switch (self, a, b) {
        case let (.point(p), .point(pa), .point(pb)):
            return .point(CGPoint(x: p.x + (pa.x - pb.x) * k, y: p.y + (pa.y - pb.y) * CGFloat(ky)))
        case let (.scalar(v), .scalar(va), .scalar(vb)): return .scalar(v + (va - vb) * k)
        case let (.size(s), .size(sa), .size(sb)):
            return .size(CGSize(width: s.width + (sa.width - sb.width) * k, height: s.height + (sa.height - sb.height) * k))
        case let (.color(c), .color(ca), .color(cb)):
            return .color(Color(red: c.red + (ca.red - cb.red) * k, green: c.green + (ca.green - cb.green) * k,
                                blue: c.blue + (ca.blue - cb.blue) * k, alpha: c.alpha + (ca.alpha - cb.alpha) * k))
        case let (.transform(t), .transform(ta), .transform(tb)):
            let d = Decomposed(t), da = Decomposed(ta), db = Decomposed(tb)
            var turn = da.angle - db.angle
            if turn > .pi { turn -= 2 * .pi } else if turn < -.pi { turn += 2 * .pi }
            return .transform(Decomposed(angle: d.angle + turn * k, sx: d.sx + (da.sx - db.sx) * k, sy: d.sy + (da.sy - db.sy) * k,
                                         tx: d.tx + (da.tx - db.tx) * k, ty: d.ty + (da.ty - db.ty) * k).transform)
        default: return self
        }
    }
}

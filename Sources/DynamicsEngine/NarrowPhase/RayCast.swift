/// Ray casts against single shapes.
///
/// The ray is `origin + t * translation`, t in [0, 1], in world coordinates. The result is the
/// first hit: `fraction` = t, the world hit `point`, and the world unit surface `normal` there
/// (facing the ray). A ray that starts inside a circle or polygon returns nil, as does a zero
/// translation. Segments are two-sided; the normal faces the side the ray comes from.
/// A polygon with a radius (a rounded polygon or a capsule) is cast as its rounded outline;
/// the radius of a segment is ignored.
enum RayCaster {
    static func cast(_ s: ShapeView, _ xf: Transform, origin: Vec2, translation: Vec2)
        -> (fraction: Float, point: Vec2, normal: Vec2)?
    {
        switch s.kind {
        case .circle: return circle(s, xf, origin: origin, translation: translation)
        case .polygon:
            if s.radius > 0 { return rounded(s, xf, origin: origin, translation: translation) }
            return polygon(s, xf, origin: origin, translation: translation)
        case .segment: return segment(s, xf, origin: origin, translation: translation)
        }
    }

    static func circle(_ s: ShapeView, _ xf: Transform, origin: Vec2, translation: Vec2)
        -> (fraction: Float, point: Vec2, normal: Vec2)?
    {
        let len = length(translation)
        if !(len > 0) { return nil }
        let r = s.radius
        // Work relative to the centre for precision.
        let c = xf.apply(s.center)
        let p = origin - c
        if dot(p, p) < r * r { return nil }  // starts inside
        let u = translation * (1 / len)
        // Closest approach of the (infinite) line to the centre.
        let along = -dot(p, u)
        let perp = p + along * u
        let h2 = r * r - dot(perp, perp)
        if h2 < 0 { return nil }
        let dist = along - h2.squareRoot()
        if dist < 0 || dist > len { return nil }
        let hitLocal = p + dist * u
        let normal = normalize(hitLocal)
        return (dist / len, c + hitLocal, normal == .zero ? -u : normal)
    }

    static func polygon(_ s: ShapeView, _ xf: Transform, origin: Vec2, translation: Vec2)
        -> (fraction: Float, point: Vec2, normal: Vec2)?
    {
        if translation == .zero { return nil }
        let p = xf.invApply(origin)
        let d = xf.q.invRotate(translation)
        var lower: Float = 0, upper: Float = 1
        var index = -1
        for i in 0..<s.count {
            let n = s.normals[i]
            // Inside half-plane: dot(n, x - v_i) <= 0, i.e. numerator >= t * denominator.
            let numerator = dot(n, s.vertices[i] - p)
            let denominator = dot(n, d)
            if denominator == 0 {
                if numerator < 0 { return nil }  // parallel and outside this face
            } else if denominator < 0 {
                // Entering this face's half-plane.
                if numerator < lower * denominator {
                    lower = numerator / denominator
                    index = i
                }
            } else if numerator < upper * denominator {
                // Leaving it.
                upper = numerator / denominator
            }
            if upper < lower { return nil }
        }
        if index < 0 { return nil }  // starts inside (or on the surface going in)
        return (lower, origin + lower * translation, xf.q.rotate(s.normals[index]))
    }

    /// A convex polygon (or a capsule's two-vertex core) grown by its radius: the first of the
    /// ray's entries into an edge's face pushed out by the radius (within the edge's length) and
    /// into a corner's circle. Over the pieces the rounded outline is made of (core, edge
    /// strips, corner discs) the earliest entry is the outline's, for a ray from outside.
    static func rounded(_ s: ShapeView, _ xf: Transform, origin: Vec2, translation: Vec2)
        -> (fraction: Float, point: Vec2, normal: Vec2)?
    {
        if translation == .zero { return nil }
        let p = xf.invApply(origin)
        let d = xf.q.invRotate(translation)
        let r = s.radius, count = s.count
        // Starts inside: within the radius of the core (or inside it; a capsule's two-vertex
        // core has no inside).
        var inside = count >= 3, nearest = Float.greatestFiniteMagnitude
        for i in 0..<count {
            let v1 = s.vertices[i], v2 = s.vertices[i + 1 == count ? 0 : i + 1]
            if dot(s.normals[i], p - v1) > 0 { inside = false }
            let e = v2 - v1
            let f = clamp(dot(p - v1, e) / dot(e, e), 0, 1)
            nearest = min(nearest, lengthSquared(p - (v1 + f * e)))
        }
        if inside || nearest <= r * r { return nil }
        var best: Float = 2, normal = Vec2.zero
        for i in 0..<count {
            let v1 = s.vertices[i], v2 = s.vertices[i + 1 == count ? 0 : i + 1]
            let n = s.normals[i]
            // The edge's face, pushed out by r: entered where dot(n, x − v1) = r going in.
            let dn = dot(n, d)
            if dn < 0 {
                let t = (r - dot(n, p - v1)) / dn
                if t >= 0 && t < best {
                    let e = v2 - v1
                    let f = dot(p + t * d - v1, e)
                    if f >= 0 && f <= dot(e, e) { best = t; normal = n }
                }
            }
            // The corner's circle.
            let w = p - v1
            let a = dot(d, d), b = dot(w, d), c = dot(w, w) - r * r
            let disc = b * b - a * c
            if b < 0 && disc >= 0 {
                let t = (-b - disc.squareRoot()) / a
                if t >= 0 && t < best { best = t; normal = (w + t * d) * (1 / r) }
            }
        }
        guard best <= 1 else { return nil }
        return (best, origin + best * translation, xf.q.rotate(normalize(normal)))
    }

    static func segment(_ s: ShapeView, _ xf: Transform, origin: Vec2, translation: Vec2)
        -> (fraction: Float, point: Vec2, normal: Vec2)?
    {
        let p = xf.invApply(origin)
        let d = xf.q.invRotate(translation)
        let v1 = s.vertices[0], v2 = s.vertices[1]
        let e = v2 - v1
        let denom = cross(d, e)
        // Parallel (or zero translation): no single crossing point.
        if abs(denom) <= 1.0e-12 * (dot(d, d) + dot(e, e)) { return nil }
        let w = v1 - p
        let t = cross(w, e) / denom  // along the ray
        let u = cross(w, d) / denom  // along the segment
        if t < 0 || t > 1 || u < 0 || u > 1 { return nil }
        var n = normalize(rightPerp(e))
        if dot(n, d) > 0 { n = -n }
        return (t, origin + t * translation, xf.q.rotate(n))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors for data supplied to the engine that cannot describe a physical shape or state.
public enum GeometryError: Error, Equatable, CustomStringConvertible {
    /// A number that must be finite was NaN or infinite.
    case nonFinite(String)
    /// A size or radius that must be positive was zero or negative.
    case nonPositiveSize(String)
    /// A polygon with fewer than 3 vertices.
    case tooFewVertices(Int)
    /// A polygon with more vertices than `Geometry.maxPolygonVertices`.
    case tooManyVertices(Int)
    /// A polygon whose area is (almost) zero.
    case zeroArea
    /// A polygon whose vertices wind clockwise (negative signed area).
    case clockwise
    /// A polygon that is not convex (or has repeated / collinear vertices).
    case notConvex
    /// A segment whose end points coincide.
    case degenerateSegment
    /// A boundary path with fewer than 2 points.
    case tooFewPoints(Int)

    /// A sentence saying what is wrong, naming the offending value.
    public var description: String {
        switch self {
        case .nonFinite(let what): return "\(what) must be finite (got NaN or infinity)"
        case .nonPositiveSize(let what): return "\(what) must be greater than zero"
        case .tooFewVertices(let n): return "a polygon needs at least 3 vertices (got \(n))"
        case .tooManyVertices(let n): return "a polygon may have at most \(Geometry.maxPolygonVertices) vertices (got \(n))"
        case .zeroArea: return "the polygon has zero area"
        case .clockwise: return "the polygon winds clockwise; give its vertices counter-clockwise (positive signed area)"
        case .notConvex: return "the polygon is not convex (or repeats a vertex)"
        case .degenerateSegment: return "a segment's end points (or a capsule's two centres) must differ"
        case .tooFewPoints(let n): return "a boundary path needs at least 2 points (got \(n))"
        }
    }
}

/// The geometry of one collision shape, in the body's local frame.
public enum Geometry: Sendable, Equatable {
    /// A rectangle of the given half extents centred on `center`, turned by `angle`.
    case box(halfWidth: Float, halfHeight: Float, center: Vec2 = .zero, angle: Float = 0)
    /// A circle.
    case circle(radius: Float, center: Vec2 = .zero)
    /// A convex polygon, vertices counter-clockwise (positive signed area).
    case polygon([Vec2])
    /// A line segment (for static boundaries; a dynamic body cannot be a segment).
    case segment(Vec2, Vec2)
    /// A capsule: every point within `radius` of the segment between the two centres (its
    /// half circles' centres, in the body's frame). The centres must differ and the radius be
    /// positive.
    case capsule(Vec2, Vec2, radius: Float)
    /// A convex polygon grown by `radius` on every side, with round corners: every point within
    /// `radius` of the core polygon (vertices counter-clockwise, as for `polygon`). The radius
    /// must be positive.
    case roundedPolygon([Vec2], radius: Float)

    /// Checks that `points` form a valid convex, counter-clockwise polygon.
    /// - Throws: `GeometryError` saying what is wrong.
    public static func validatePolygon(_ points: [Vec2]) throws { _ = try GeometryBuilder.polygon(points) }

    /// The most vertices a polygon may have.
    public static let maxPolygonVertices = 64

    /// An ellipse of the given half axes approximated by a convex polygon of `segments` sides.
    public static func ellipse(halfWidth: Float, halfHeight: Float, center: Vec2 = .zero, segments: Int = 24) -> Geometry {
        let n = max(8, min(segments, maxPolygonVertices))
        var pts: [Vec2] = []
        pts.reserveCapacity(n)
        for i in 0..<n {
            let a = Float(i) * 2 * Float.pi / Float(n)
            pts.append(center + Vec2(halfWidth * cosf(a), halfHeight * sinf(a)))
        }
        return .polygon(pts)
    }
}

/// Validated polygon data: vertices, outward normals and centroid.
struct PolygonData {
    var vertices: [Vec2]
    var normals: [Vec2]
    var centroid: Vec2
    var area: Float
}

/// Four points held inline: a box's corners or its edges' normals. Unlike a four-element
/// array it needs no heap block, so a body made of a box (a component's item, made again
/// each time it rejoins its animator) is created without allocating.
struct Quad: RandomAccessCollection, MutableCollection {
    var p0: Vec2, p1: Vec2, p2: Vec2, p3: Vec2

    init(_ p0: Vec2, _ p1: Vec2, _ p2: Vec2, _ p3: Vec2) {
        self.p0 = p0; self.p1 = p1; self.p2 = p2; self.p3 = p3
    }

    var startIndex: Int { 0 }
    var endIndex: Int { 4 }

    subscript(i: Int) -> Vec2 {
        get {
            switch i {
            case 0: return p0
            case 1: return p1
            case 2: return p2
            default: precondition(i == 3, "Quad: index \(i) out of 0..<4"); return p3
            }
        }
        set {
            switch i {
            case 0: p0 = newValue
            case 1: p1 = newValue
            case 2: p2 = newValue
            default: precondition(i == 3, "Quad: index \(i) out of 0..<4"); p3 = newValue
            }
        }
    }
}

/// A validated box: its corners and outward edge normals counter-clockwise, centroid and
/// area — what `PolygonData` holds for any polygon, inline.
struct BoxPolygon {
    var vertices: Quad
    var normals: Quad
    var centroid: Vec2
    var area: Float
}

/// A validated capsule's core: its two centres and the outward normal of its first side
/// (from `a` to `b`; the other side's is the opposite).
struct CapsuleCore {
    var a: Vec2, b: Vec2
    var normal: Vec2
}

/// A shape's geometry once `createBody` has validated it: a polygon's or box's computed
/// vertices and normals, or nothing more to compute (circles and segments).
enum PreparedGeometry {
    case direct
    case polygon(PolygonData)
    case box(BoxPolygon)
    case capsule(CapsuleCore)
}

enum GeometryBuilder {
    /// Validates a convex polygon and computes normals, centroid and area.
    static func polygon(_ points: [Vec2]) throws -> PolygonData {
        var normals: [Vec2] = []
        normals.reserveCapacity(min(points.count, Geometry.maxPolygonVertices))
        let (centroid, area) = try validate(points) { _, n in normals.append(n) }
        return PolygonData(vertices: points, normals: normals, centroid: centroid, area: area)
    }

    /// Validates a capsule and makes its core: the two centres as a two-vertex polygon whose
    /// two faces are the segment's sides (normals `rightPerp(b - a)` and its opposite).
    /// (Held inline, like a box, so that a body of capsules is created without allocating.)
    static func capsule(_ a: Vec2, _ b: Vec2, radius: Float) throws -> CapsuleCore {
        guard a.isFinite, b.isFinite, radius.isFinite else { throw GeometryError.nonFinite("capsule centres and radius") }
        guard radius > 0 else { throw GeometryError.nonPositiveSize("capsule radius") }
        let l = distance(a, b)
        guard l > 1.0e-4 else { throw GeometryError.degenerateSegment }
        return CapsuleCore(a: a, b: b, normal: rightPerp(b - a) / l)
    }

    /// Validates a rounded polygon's radius.
    static func checkRadius(_ radius: Float) throws {
        guard radius.isFinite else { throw GeometryError.nonFinite("rounded polygon radius") }
        guard radius > 0 else { throw GeometryError.nonPositiveSize("rounded polygon radius") }
    }

    /// A polygon's validated data: inline for four vertices (like a box: no allocation, so a
    /// body of quadrilaterals is created without allocating), else in arrays.
    static func prepared(_ points: [Vec2]) throws -> PreparedGeometry {
        guard points.count == 4 else { return .polygon(try polygon(points)) }
        let corners = Quad(points[0], points[1], points[2], points[3])
        var normals = Quad(.zero, .zero, .zero, .zero)
        let (centroid, area) = try validate(corners) { i, n in normals[i] = n }
        return .box(BoxPolygon(vertices: corners, normals: normals, centroid: centroid, area: area))
    }

    /// Validates the box `boxCorners` describes and computes its normals, centroid and area:
    /// the same checks and the same arithmetic as `polygon(boxPoints(…))`, without an array.
    static func box(halfWidth hx: Float, halfHeight hy: Float, center: Vec2, angle: Float) throws -> BoxPolygon {
        let corners = try boxCorners(halfWidth: hx, halfHeight: hy, center: center, angle: angle)
        var normals = Quad(.zero, .zero, .zero, .zero)
        let (centroid, area) = try validate(corners) { i, n in normals[i] = n }
        return BoxPolygon(vertices: corners, normals: normals, centroid: centroid, area: area)
    }

    /// Validates a convex polygon given by `points`, hands `normal(i, n)` the outward unit
    /// normal of each edge i (from vertex i to vertex i + 1) in order, and returns the
    /// centroid and area.
    @inline(__always)
    private static func validate<P: RandomAccessCollection>(_ points: P, normal: (Int, Vec2) -> Void) throws -> (centroid: Vec2, area: Float)
    where P.Element == Vec2, P.Index == Int {
        let n = points.count
        if n < 3 { throw GeometryError.tooFewVertices(n) }
        if n > Geometry.maxPolygonVertices { throw GeometryError.tooManyVertices(n) }
        for p in points where !p.isFinite { throw GeometryError.nonFinite("polygon vertex") }
        // Signed area (shoelace) relative to the first vertex for precision.
        let o = points[0]
        var area2: Float = 0
        var cen = Vec2.zero
        for i in 1..<(n - 1) {
            let e1 = points[i] - o, e2 = points[i + 1] - o
            let a = cross(e1, e2)
            area2 += a
            cen += a * (e1 + e2) / 3
        }
        // Scale-aware tolerance: zero area relative to the polygon's extent.
        var lo = points[0], hi = points[0]
        for p in points { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        let ext = hi - lo
        let scale = max(ext.x, ext.y)
        if !(abs(area2) > 1.0e-6 * scale * scale) || scale == 0 { throw GeometryError.zeroArea }
        if area2 < 0 { throw GeometryError.clockwise }
        for i in 0..<n {
            let e = points[(i + 1) % n] - points[i]
            let l = length(e)
            if l <= 1.0e-5 * scale { throw GeometryError.notConvex }
            normal(i, rightPerp(e) / l)
        }
        // Convexity: every vertex strictly left of every edge turn.
        for i in 0..<n {
            let e1 = points[(i + 1) % n] - points[i]
            let e2 = points[(i + 2) % n] - points[(i + 1) % n]
            if cross(e1, e2) <= 1.0e-7 * scale * scale { throw GeometryError.notConvex }
        }
        // A convex polygon turns through exactly 2π; a star-shaped one (all left turns) more.
        var turn: Float = 0
        for i in 0..<n {
            let e1 = points[(i + 1) % n] - points[i]
            let e2 = points[(i + 2) % n] - points[(i + 1) % n]
            turn += atan2f(cross(e1, e2), dot(e1, e2))
        }
        if turn > 2 * Float.pi + 0.01 { throw GeometryError.notConvex }
        let area = area2 * 0.5
        return (o + cen / area2, area)
    }

    /// The corners of a box, counter-clockwise from its lower left (before turning).
    static func boxCorners(halfWidth hx: Float, halfHeight hy: Float, center: Vec2, angle: Float) throws -> Quad {
        guard hx.isFinite, hy.isFinite, center.isFinite, angle.isFinite else {
            throw GeometryError.nonFinite("box size, center or angle")
        }
        guard hx > 0, hy > 0 else { throw GeometryError.nonPositiveSize("box half extents") }
        let q = Rot(angle: angle)
        return Quad(center + q.rotate(Vec2(-hx, -hy)), center + q.rotate(Vec2(hx, -hy)),
                    center + q.rotate(Vec2(hx, hy)), center + q.rotate(Vec2(-hx, hy)))
    }

    /// `boxCorners` as an array.
    static func boxPoints(halfWidth hx: Float, halfHeight hy: Float, center: Vec2, angle: Float) throws -> [Vec2] {
        Array(try boxCorners(halfWidth: hx, halfHeight: hy, center: center, angle: angle))
    }
}

/// Mass properties of a shape or body about its origin.
struct MassData {
    var mass: Float
    var center: Vec2
    /// Rotational inertia about `center`.
    var inertia: Float
}

enum MassComputer {
    static func circle(radius r: Float, center: Vec2, density: Float) -> MassData {
        let m = density * Float.pi * r * r
        return MassData(mass: m, center: center, inertia: m * 0.5 * r * r)
    }

    /// Mass of a convex polygon (vertices counter-clockwise).
    static func polygon(_ v: [Vec2], density: Float) -> MassData { polygonMass(v, density: density) }

    /// Mass of a convex polygon (vertices counter-clockwise, outward normals `n`) grown by
    /// `radius` > 0: a capsule when it has two vertices. Exact: the core polygon, a rectangle
    /// of depth `radius` on each edge, and a circular sector at each vertex between the normals
    /// of its two edges (the sectors make one full disc; a capsule's are two half discs).
    static func rounded<C: RandomAccessCollection>(_ v: C, normals n: C, radius r: Float, density: Float) -> MassData
    where C.Element == Vec2, C.Index == Int {
        let count = v.count
        let o = v[0]
        // Area, first moment and second moment (∫|x|² dA) about o.
        var area: Float = 0, first = Vec2.zero, second: Float = 0
        if count >= 3 {
            let core = polygonMass(v, density: 1)
            let c = core.center - o
            area = core.mass
            first = core.mass * c
            second = core.inertia + core.mass * dot(c, c)
        }
        for i in 0..<count {
            let a = v[i] - o, b = v[i + 1 == count ? 0 : i + 1] - o
            let ni = n[i]
            // The edge's rectangle: length l, depth r, centred half a radius out.
            let l = length(b - a)
            let ra = l * r
            let rc = 0.5 * (a + b) + (0.5 * r) * ni
            area += ra
            first += ra * rc
            second += ra * ((l * l + r * r) / 12 + dot(rc, rc))
            // The sector at vertex i, from the previous edge's normal to this edge's.
            let np = n[i == 0 ? count - 1 : i - 1]
            let theta = abs(atan2f(cross(np, ni), dot(np, ni)))
            let sa = 0.5 * theta * r * r
            let half = 0.5 * theta
            let bisector = Rot(angle: half).rotate(np)
            // Its centroid lies 4 r sin(θ/2) / (3θ) from the vertex along the bisector.
            let g = a + (4 * r * sinf(half) / (3 * theta)) * bisector
            area += sa
            first += sa * g
            // ∫|x|² over the sector: its moment about the vertex (θ r⁴ / 4) moved to o.
            second += 0.25 * theta * r * r * r * r + sa * dot(a, a) + 2 * sa * dot(a, g - a)
        }
        let c = first / area
        let mass = density * area
        return MassData(mass: mass, center: o + c, inertia: density * (second - area * dot(c, c)))
    }

    /// Mass of a convex polygon (vertices counter-clockwise), read in place.
    static func polygon(_ v: View<Vec2>, density: Float) -> MassData { polygonMass(v, density: density) }

    private static func polygonMass<C: RandomAccessCollection>(_ v: C, density: Float) -> MassData
    where C.Element == Vec2, C.Index == Int {
        let o = v[0]
        var area: Float = 0, cen = Vec2.zero, inertia: Float = 0
        let inv3: Float = 1.0 / 3.0
        for i in 1..<(v.count - 1) {
            let e1 = v[i] - o, e2 = v[i + 1] - o
            let d = cross(e1, e2)
            let a = 0.5 * d
            area += a
            cen += a * inv3 * (e1 + e2)
            let intx2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x
            let inty2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y
            inertia += (0.25 * inv3 * d) * (intx2 + inty2)
        }
        let mass = density * area
        let c = cen / area
        // inertia about o → about centroid
        let iCentroid = density * inertia - mass * dot(c, c)
        return MassData(mass: mass, center: o + c, inertia: iCentroid)
    }
}

/// The kind of a collision shape. The raw value orders contact pairs: a contact's shape A has
/// the larger kind, so the narrow phase needs only the routines listed in `Collide`.
public enum ShapeKind: UInt8, Sendable {
    /// A circle: a centre and a radius (`Geometry.circle`).
    case circle = 0
    /// A convex polygon (`Geometry.box`, `Geometry.polygon`, `Geometry.ellipse`).
    case polygon = 1
    /// A line segment of static geometry (`Geometry.segment`, boundaries).
    case segment = 2
}

/// A read-only view of one shape's local geometry, handed to the narrow phase.
///
/// - circle: `center` (local) and `radius`; `count == 0`.
/// - polygon: `count` vertices and outward unit normals (counter-clockwise), `center` = centroid.
/// - segment: `count == 2` vertices (the end points); normals are not used.
@usableFromInline
struct ShapeView {
    var kind: ShapeKind
    var count: Int
    var vertices: View<Vec2>
    var normals: View<Vec2>
    var center: Vec2
    var radius: Float
    /// A one-sided boundary segment: `normals[0]` is the only direction it pushes.
    var oneSided = false
}

extension ShapeView {
    /// Shape record `r`'s geometry in the vertex pool (`vertices`, `normals`).
    @inline(__always)
    init(_ r: ShapeRecord, vertices v: View<Vec2>, normals n: View<Vec2>) {
        let st = Int(r.vertexStart), m = r.kind == .circle ? 0 : Int(r.vertexCount)
        self.init(kind: r.kind, count: Int(r.vertexCount), vertices: v.subview(st ..< st + m),
                  normals: n.subview(st ..< st + m), center: r.center, radius: r.radius, oneSided: r.oneSided)
    }
}

/// The shape records with the vertex pool they index: what it takes to see any shape's
/// geometry, as views a pass can hand its worker threads.
struct ShapeGeometry {
    let records: View<ShapeRecord>
    let vertices: View<Vec2>
    let normals: View<Vec2>

    /// Shape `s`'s geometry.
    @inline(__always) func shape(_ s: Int) -> ShapeView { ShapeView(records[s], vertices: vertices, normals: normals) }
}

/// One contact point of a manifold.
@usableFromInline
struct ManifoldPoint: Sendable {
    /// World position of the contact (midway between the two surfaces).
    var point: Vec2 = .zero
    /// Contact recycling: the point relative to A's centre when the manifold was computed.
    /// (The two vectors first, then the floats: 40 bytes, no padding.)
    var anchorA = Vec2.zero
    /// Signed distance between the surfaces along the manifold normal (negative: overlap).
    var separation: Float = 0
    /// Feature key that identifies this point across steps (for warm starting).
    var id: UInt32 = 0
    /// Accumulated impulses (solver state carried across steps).
    var normalImpulse: Float = 0, tangentImpulse: Float = 0
    /// Largest normal impulse applied during the last step (for events and restitution).
    var maxNormalImpulse: Float = 0
    /// Contact recycling: the separation when the manifold was computed.
    var baseSeparation: Float = 0

    /// Keeps the solve's impulses for the next step's warm start. A non-finite one — from a
    /// body the solve sent to NaN, which `BodyFinalize` then stops — is kept as 0, so that no
    /// NaN stays in the world (and a snapshot of it restores).
    @inline(__always)
    mutating func storeImpulses(normal: Float, tangent: Float, maxNormal: Float) {
        normalImpulse = normal.isFinite ? normal : 0
        tangentImpulse = tangent.isFinite ? tangent : 0
        maxNormalImpulse = maxNormal.isFinite ? maxNormal : 0
    }
}

/// Up to two contact points sharing one normal, which points from shape A to shape B.
@usableFromInline
struct Manifold: Sendable {
    var normal: Vec2 = .zero
    var pointCount: Int = 0
    var p0 = ManifoldPoint()
    var p1 = ManifoldPoint()

    @inline(__always)
    subscript(i: Int) -> ManifoldPoint {
        get { i == 0 ? p0 : p1 }
        set { if i == 0 { p0 = newValue } else { p1 = newValue } }
    }

    /// Adds a point if there is room.
    @inline(__always)
    mutating func append(point: Vec2, separation: Float, id: UInt32) {
        if pointCount == 0 {
            p0 = ManifoldPoint(point: point, separation: separation, id: id)
        } else if pointCount == 1 {
            p1 = ManifoldPoint(point: point, separation: separation, id: id)
        } else {
            return
        }
        pointCount += 1
    }
}

/// Builds a feature id from two feature indices (for polygon pairs, a vertex of A and a vertex
/// of B) and `side`, which tells one-sided segment contacts apart.
@inline(__always) @usableFromInline
func featureID(_ a: Int, _ b: Int, side: Int = 0) -> UInt32 {
    UInt32(truncatingIfNeeded: a & 0xFF) | (UInt32(truncatingIfNeeded: b & 0xFF) << 8) | (UInt32(side & 0xFF) << 17)
}

// Compared field by field when a small world looks for exact rest (`Step/StepAtRest.swift`).
extension Manifold: Equatable {}
extension ManifoldPoint: Equatable {}

/// One collision shape. Indexed by shape slot. 64 bytes: the flags together, then the 4-byte
/// fields, the centre and the 8-byte identifier (declared in another order it would take 72).
@usableFromInline
struct ShapeRecord {
    var body: Int32 = -1
    var kind = ShapeKind.polygon
    var alive = false
    var isBoundary = false
    var isStatic = false
    /// A boundary segment of a loop that keeps bodies inside: it pushes only along its inward
    /// normal (stored as the segment's first normal), so a body squeezed past the line is
    /// pushed back in, never out.
    var oneSided = false
    /// The shape has a filter other than `ShapeFilter.default` (in `BroadPhase.filters`).
    var filtered = false
    var generation: UInt32 = 0
    /// The shape's vertices (and normals) in the pool: `vertexStart ..< vertexStart + vertexCount`.
    var vertexStart: Int32 = 0, vertexCount: Int32 = 0
    /// Circle centre or polygon centroid, body frame.
    var center = Vec2.zero
    var radius: Float = 0
    /// The shape's material.
    var friction: Float = 0.6, restitution: Float = 0, density: Float = 1
    /// Rolling resistance (`Material.rollingResistance`); a contact's lever arm is the larger
    /// of its shapes' `radius` (see `ContactSet.rollingResistance`).
    var rollingResistance: Float = 0
    /// For boundaries: the group they belong to and the caller's identifier.
    var boundaryGroup: Int32 = -1
    var boundaryID: UInt64 = 0
}

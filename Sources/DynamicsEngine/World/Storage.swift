/// Per-body data the solver reads: placement, mass and forces. Indexed by body slot.
@usableFromInline
struct BodySim {
    /// Placement of the body origin.
    var xf = Transform.identity
    /// World centre of mass, and its value at the start of the step.
    var center = Vec2.zero
    var center0 = Vec2.zero
    /// Centre of mass in the body frame.
    var localCenter = Vec2.zero
    var force = Vec2.zero
    var torque: Float = 0
    var mass: Float = 0, inertia: Float = 0
    var invMass: Float = 0, invInertia: Float = 0
    var linearDamping: Float = 0, angularDamping: Float = 0
    /// Gravitational acceleration applied to this body.
    var gravity = Vec2.zero
    /// Distance from the centre of mass to the farthest shape point.
    var maxExtent: Float = 0
    /// Radius of the largest circle around the centre of mass that lies inside one of the
    /// body's shapes (its "core"); the continuous step sweeps this circle.
    var coreRadius: Float = 0
}

/// Per-body velocity state the solver writes: 32 bytes, one cache line holds two.
/// The first 16 bytes (v, w, pad) are read and written as one `SIMD4<Float>` by the contact
/// solver (see `ContactSolver.PairVelocity`); keep that layout.
@usableFromInline
struct BodyState {
    var v = Vec2.zero
    var w: Float = 0
    var pad: Float = 0
    /// Position and rotation change accumulated during the current step.
    var dp = Vec2.zero
    var dq = Rot.identity
}

/// Bookkeeping for a body slot (cold data).
@usableFromInline
struct BodyMeta {
    var generation: UInt32 = 0
    var alive = false
    var type = BodyType.dynamic
    var awake = true
    /// From the body's definition and setters.
    var fixedRotation = false, ownGravity = false, allowSleep = true
    /// Moved farther than half its core radius in the last step: the continuous step checks
    /// its path against static geometry.
    var isFast = false
    /// A bullet (`BodyDef.isBullet`): when fast, also swept against other dynamic bodies.
    var isBullet = false
    var firstShape: Int32 = -1
    var shapeCount: Int32 = 0
    var sleepTime: Float = 0
    /// Collision groups (< 64) whose items / boundaries this body collides with.
    var itemMask: UInt64 = 0
    var boundaryMask: UInt64 = 0
    /// Member of a group with index ≥ 64 (consult `World.groupsOfBody`).
    var overflow = false
    /// Next body of the same sleeping island (a ring), or -1.
    var sleepNext: Int32 = -1
    var charge: Float = 0
    var userData: UInt64 = 0
    /// The island this body belonged to in the last step, or -1.
    var island: Int32 = -1
}

/// One collision shape. Indexed by shape slot.
@usableFromInline
struct ShapeRecord {
    var body: Int32 = -1
    var kind = ShapeKind.polygon
    var alive = false
    var isBoundary = false
    var isStatic = false
    var generation: UInt32 = 0
    /// The shape's vertices (and normals) in the pool: `vertexStart ..< vertexStart + vertexCount`.
    var vertexStart: Int32 = 0, vertexCount: Int32 = 0
    /// Circle centre or polygon centroid, body frame.
    var center = Vec2.zero
    var radius: Float = 0
    /// The shape's material.
    var friction: Float = 0.6, restitution: Float = 0, density: Float = 1
    /// For boundaries: the group they belong to and the caller's identifier.
    var boundaryGroup: Int32 = -1
    var boundaryID: UInt64 = 0
    /// A boundary segment of a loop that keeps bodies inside: it pushes only along its inward
    /// normal (stored as the segment's first normal), so a body squeezed past the line is
    /// pushed back in, never out.
    var oneSided = false
}

/// A collision group: its mode and members.
struct GroupRecord {
    var generation: UInt32 = 0
    var alive = false
    var mode = CollisionMode.everything
    var members: [Int32] = []
    var boundaries: [Int32] = []
}

/// A block allocator for polygon vertices: blocks of 4, 8, 16, 32 or 64 entries, reused.
struct VertexPool {
    let vertices = Column<Vec2>()
    let normals = Column<Vec2>()
    var free: [[Int32]] = Array(repeating: [], count: 5)

    static func sizeClass(_ n: Int) -> Int {
        var c = 0, cap = 4
        while cap < n { cap <<= 1; c += 1 }
        return c
    }

    mutating func allocate(_ v: [Vec2], _ n: [Vec2]) -> Int32 {
        let c = Self.sizeClass(v.count)
        let start: Int
        if let s = free[c].popLast() {
            start = Int(s)
        } else {
            start = vertices.count
            let cap = 4 << c
            vertices.append(contentsOf: repeatElement(.zero, count: cap))
            normals.append(contentsOf: repeatElement(.zero, count: cap))
        }
        for i in 0..<v.count { vertices[start + i] = v[i] }
        for i in 0..<n.count { normals[start + i] = n[i] }
        return Int32(start)
    }

    mutating func release(start: Int32, count: Int32) {
        free[Self.sizeClass(Int(count))].append(start)
    }
}

/// Generational slot allocation shared by bodies, shapes and joints.
struct SlotAllocator {
    var freeSlots: [Int32] = []
    var count: Int32 = 0

    /// Returns a free slot (lowest recently freed first) or a new one at the end.
    mutating func allocate() -> (slot: Int32, isNew: Bool) {
        if let s = freeSlots.popLast() { return (s, false) }
        count += 1
        return (count - 1, true)
    }

    mutating func release(_ slot: Int32) { freeSlots.append(slot) }
}

// Compared field by field when a small world looks for exact rest (`Rest.swift`).
extension BodySim: Equatable {}
extension BodyState: Equatable {}
extension BodyMeta: Equatable {}

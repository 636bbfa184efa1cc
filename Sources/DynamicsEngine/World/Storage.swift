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

/// Bookkeeping for a body slot (cold data). 64 bytes: the flags together, then the 4-byte
/// fields, then the 8-byte ones (declared in another order it took 72).
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
    /// Member of a group with index ≥ 64 (consult `CollisionGroupTable.ofBody`).
    var overflow = false
    var firstShape: Int32 = -1
    var shapeCount: Int32 = 0
    var sleepTime: Float = 0
    /// Next body of the same sleeping island (a ring), or -1.
    var sleepNext: Int32 = -1
    var charge: Float = 0
    /// The island this body belonged to in the last step, or -1.
    var island: Int32 = -1
    /// Collision groups (< 64) whose items / boundaries this body collides with.
    var itemMask: UInt64 = 0
    var boundaryMask: UInt64 = 0
    var userData: UInt64 = 0
}

/// One collision shape. Indexed by shape slot. 64 bytes: the flags together, then the 4-byte
/// fields, the centre and the 8-byte identifier (declared in another order it took 72).
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

    /// Stores a shape's `count` vertices and their normals, `element(i)` giving vertex i and
    /// normal i, and returns where they start. (No list is passed in: a box's or a segment's
    /// vertices need no heap block.)
    mutating func allocate(count: Int, _ element: (Int) -> (vertex: Vec2, normal: Vec2)) -> Int32 {
        let c = Self.sizeClass(count)
        let start: Int
        if let s = free[c].popLast() {
            start = Int(s)
        } else {
            start = vertices.count
            let cap = 4 << c
            vertices.append(contentsOf: repeatElement(.zero, count: cap))
            normals.append(contentsOf: repeatElement(.zero, count: cap))
        }
        for i in 0..<count {
            let (v, n) = element(i)
            vertices[start + i] = v
            normals[start + i] = n
        }
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

// Compared field by field when a small world looks for exact rest (`Step/StepAtRest.swift`).
extension BodySim: Equatable {}
extension BodyState: Equatable {}
extension BodyMeta: Equatable {}

/// The collision groups of each body slot, in the order the body joined them.
///
/// Nearly every body is in exactly one group (the default one), so that group is kept inline:
/// 4 bytes per body instead of an array of its own (8 bytes, plus a heap block of about 48
/// bytes once the body has a group — 50 MB of a million-body pile). A body in two or more
/// groups keeps them in one of `lists`; a list freed by a destroyed body is reused by the next
/// body that needs one.
struct BodyGroupTable {
    /// Per body slot: its only group (≥ 0), no group (-1), or `-2 - k`: its groups are `lists[k]`.
    let head = Column<Int32>()
    private(set) var lists: [[Int32]] = []
    private var freeLists: [Int32] = []

    /// Number of body slots.
    var count: Int { head.count }

    /// Body `i`'s groups, in the order it joined them.
    @inline(__always)
    subscript(i: Int) -> BodyGroupList {
        let h = head[i]
        if h >= -1 { return BodyGroupList(single: h, list: nil) }
        return BodyGroupList(single: -1, list: lists[Int(-2 - h)])
    }

    mutating func reserveCapacity(_ n: Int) { head.reserveCapacity(n) }

    /// A new body slot with the groups `list` (none by default).
    mutating func appendSlot(_ list: [Int32] = []) {
        head.append(-1)
        for g in list { append(g, toBody: head.count - 1) }
    }

    /// Body `i` joins group `g` (last in its order; the caller checks it is not a member yet).
    mutating func append(_ g: Int32, toBody i: Int) {
        let h = head[i]
        if h == -1 { head[i] = g; return }
        if h >= 0 {
            let k: Int
            if let f = freeLists.popLast() { k = Int(f) } else { k = lists.count; lists.append([]) }
            lists[k].append(h)
            lists[k].append(g)
            head[i] = Int32(-2 - k)
            return
        }
        lists[Int(-2 - h)].append(g)
    }

    /// Body `i` leaves its `n`-th group (in its order).
    mutating func remove(at n: Int, ofBody i: Int) {
        let h = head[i]
        if h >= 0 { precondition(n == 0, "BodyGroupTable: body \(i) has one group"); head[i] = -1; return }
        precondition(h != -1, "BodyGroupTable: body \(i) has no group")
        lists[Int(-2 - h)].remove(at: n)
    }

    /// Body `i` leaves every group (its list, if it had one, is kept for reuse).
    mutating func removeAll(ofBody i: Int) {
        let h = head[i]
        if h <= -2 {
            lists[Int(-2 - h)].removeAll(keepingCapacity: true)
            freeLists.append(-2 - h)
        }
        head[i] = -1
    }
}

/// One body's collision groups (see `BodyGroupTable`): its inline group or its list.
struct BodyGroupList: RandomAccessCollection {
    let single: Int32
    let list: [Int32]?
    @inline(__always) var startIndex: Int { 0 }
    @inline(__always) var endIndex: Int { list?.count ?? (single >= 0 ? 1 : 0) }
    @inline(__always) subscript(n: Int) -> Int32 {
        if let list { return list[n] }
        precondition(n == 0 && single >= 0, "BodyGroupList: index \(n) out of range")
        return single
    }
}

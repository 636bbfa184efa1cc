/// Per-body data the solver reads: placement, mass and forces. Indexed by body slot.
///
/// 96 bytes, so a record starts at the start or the middle of a 64-byte cache line: its
/// first 32 bytes (placement, centre of mass, extent, inverse mass) always share one line,
/// which is all the narrow phase reads of a body; the contact preparation reads the centre
/// and the inverse mass and inertia (one line, or two for half the bodies); the rest is read
/// once a step by the passes over bodies. (`DKBodySim` in the solver kernels' header has this
/// layout.)
@usableFromInline
struct BodySim {
    /// Placement of the body origin.
    var xf = Transform.identity
    /// World centre of mass.
    var center = Vec2.zero
    /// Distance from the centre of mass to the farthest shape point.
    var maxExtent: Float = 0
    var invMass: Float = 0, invInertia: Float = 0
    /// Radius of the largest circle around the centre of mass that lies inside one of the
    /// body's shapes (its "core"); the continuous step sweeps this circle.
    var coreRadius: Float = 0
    /// World centre of mass at the start of the step.
    var center0 = Vec2.zero
    /// Centre of mass in the body frame.
    var localCenter = Vec2.zero
    var force = Vec2.zero
    var torque: Float = 0
    var mass: Float = 0, inertia: Float = 0
    var linearDamping: Float = 0, angularDamping: Float = 0
    /// Gravitational acceleration applied to this body.
    var gravity = Vec2.zero
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
/// fields, then the 8-byte ones (declared in another order it would take 72).
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
    /// `BodyDef.sleepThreshold` (pt/s).
    var sleepThreshold: Float = BodyDef.defaultSleepThreshold
    /// Collision groups (< 64) whose items / boundaries this body collides with.
    var itemMask: UInt64 = 0
    var boundaryMask: UInt64 = 0
    var userData: UInt64 = 0
}

// Compared field by field when a small world looks for exact rest (`Step/StepAtRest.swift`).
extension BodySim: Equatable {}
extension BodyState: Equatable {}
extension BodyMeta: Equatable {}

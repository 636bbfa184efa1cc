/// The kinds of joint.
public enum JointType: UInt8, Sendable {
    /// Keeps two anchors at `length` (rigid), or a spring toward it, with optional
    /// `minLength` / `maxLength` limits (a rope is a spring of 0 Hz with a maximum length).
    case distance
    /// A pin: the anchors coincide; optional angular spring, motor (with speed 0: friction
    /// torque) and angle limits.
    case revolute
    /// Fixes relative position and rotation.
    case weld
    /// Slides along `localAxisA`: no rotation, no motion across the axis; optional spring along
    /// the axis, motor and limits.
    case prismatic
    /// Pulls body B's anchor to `target` with a spring (`hertz`, `dampingRatio`), and its
    /// rotation to `targetAngle` with a second spring (`angularHertz`); body A is unused.
    case target
}

/// Describes a joint. Anchors are in each body's frame (relative to its origin); for a
/// joint fixed to the world (`bodyA == nil`) `localAnchorA` is a world point.
public struct JointDef: Sendable {
    /// The kind of joint; it decides which of the other fields are read.
    public var type: JointType
    /// The first body, or nil to fix the joint to the world (then `localAnchorA` is a world
    /// point). Target joints ignore it.
    public var bodyA: BodyHandle?
    /// The second body: the one a target joint pulls.
    public var bodyB: BodyHandle
    /// The anchor on body A, in A's frame (pt from its origin); a world point when `bodyA` is nil.
    public var localAnchorA: Vec2 = .zero
    /// The anchor on body B, in B's frame (pt from its origin).
    public var localAnchorB: Vec2 = .zero
    /// Prismatic axis in A's frame (unit).
    public var localAxisA: Vec2 = Vec2(1, 0)
    /// Rotation of B relative to A (radians) that the joint measures from (`nil`: the one at
    /// creation). A weld joint keeps it; a revolute joint's angle is B's rotation relative to
    /// A less this one, which its limits bound and its spring pulls toward 0.
    public var referenceAngle: Float? = nil
    /// Distance joints: the rest length (`nil`: the current distance).
    public var length: Float? = nil
    /// Distance joints with `enableSpring`: the shortest the anchors may come (pt).
    public var minLength: Float = 0
    /// Distance joints with `enableSpring`: the farthest the anchors may part (pt); infinity
    /// for no limit.
    public var maxLength: Float = .infinity
    /// A spring of `hertz` and `dampingRatio`. Distance joints: a spring toward `length`
    /// instead of a rigid rod (`hertz` 0: no spring force, only the limits act). Revolute
    /// joints: an angular spring pulling the joint angle (see `referenceAngle`) toward 0, the
    /// shortest way round. Prismatic joints: a spring pulling the translation along the axis
    /// (anchor B's offset from anchor A along it, pt) toward 0. On revolute and prismatic
    /// joints each sub-step solves the spring before the motor and the limits, so a motor
    /// holds the joint where the spring's pull equals its maximum torque or force, and limits
    /// stop a spring whose rest lies outside them; with `hertz` 0 the joint moves exactly as
    /// without a spring. Weld and target joints ignore it.
    public var enableSpring = false
    /// Spring frequency (Hz) of a distance, revolute or prismatic joint's spring (with
    /// `enableSpring`) or of a target joint's pull; 0 makes a target joint rigid (up to
    /// `maxForce`). The stiffness scales with the joint's effective mass along the spring
    /// (revolute: 1 / (1/I_A + 1/I_B), the inertias about the centres of mass; prismatic: the
    /// mass along the axis), so a body pinned at its centre of mass, or sliding, oscillates at
    /// `hertz` whatever its mass.
    public var hertz: Float = 0
    /// Damping ratio of the spring that `hertz` sets (0: none, 1: critical). The sub-stepped
    /// spring behaves as if it were about 2π · `hertz` · h higher (h the sub-step): the implicit
    /// step's own loss.
    public var dampingRatio: Float = 0
    /// Revolute: angle limits (radians); prismatic: translation limits (pt).
    public var enableLimit = false
    /// The lower limit: the smallest joint angle (revolute, radians, measured from
    /// `referenceAngle`) or translation along the axis (prismatic, pt).
    public var lower: Float = 0
    /// The upper limit: the largest joint angle (revolute, radians, measured from
    /// `referenceAngle`) or translation along the axis (prismatic, pt).
    public var upper: Float = 0
    /// Revolute / prismatic motor; with speed 0 it is joint friction.
    public var enableMotor = false
    /// Torque (revolute) or force (prismatic) limit of the motor.
    public var maxMotorTorque: Float = 0
    /// The speed the motor drives toward: rad/s (revolute) or pt/s along the axis (prismatic).
    public var motorSpeed: Float = 0
    /// Target joints.
    public var target: Vec2 = .zero
    /// Target joints: the world angle (radians) the angular spring turns body B to.
    public var targetAngle: Float = 0
    /// Largest force of a target joint (mass · pt/s²); infinity = unlimited.
    public var maxForce: Float = .infinity
    /// Target joints: frequency (Hz) of the angular spring; 0 leaves the rotation free.
    public var angularHertz: Float = 0
    /// Target joints: damping ratio of the angular spring.
    public var angularDampingRatio: Float = 0

    /// A joint of `type` between `bodyA` (nil: the world) and `bodyB`, every other field at
    /// its default; set the fields its type reads before `World.createJoint(_:)`.
    public init(type: JointType, bodyA: BodyHandle?, bodyB: BodyHandle) {
        self.type = type; self.bodyA = bodyA; self.bodyB = bodyB
    }

    /// Every number finite where it must be, and limits ordered.
    func validate() -> String? {
        let finite: [Float] = [localAnchorA.x, localAnchorA.y, localAnchorB.x, localAnchorB.y, localAxisA.x, localAxisA.y,
                               referenceAngle ?? 0, length ?? 0, minLength, hertz, dampingRatio, lower, upper,
                               maxMotorTorque, motorSpeed, target.x, target.y, targetAngle, angularHertz, angularDampingRatio]
        if finite.contains(where: { !$0.isFinite }) { return "joint parameters must be finite" }
        if maxLength.isNaN || maxForce.isNaN { return "joint parameters must not be NaN" }
        if (length ?? 0) < 0 || minLength < 0 || maxLength < minLength { return "joint lengths must satisfy 0 ≤ minLength ≤ maxLength" }
        if hertz < 0 || dampingRatio < 0 || angularHertz < 0 || angularDampingRatio < 0 { return "joint spring settings must not be negative" }
        if maxMotorTorque < 0 || maxForce < 0 { return "joint motor and force limits must not be negative" }
        if enableLimit && lower > upper { return "joint limits must satisfy lower ≤ upper" }
        if type == .prismatic && lengthSquared(localAxisA) < 1.0e-12 { return "a prismatic axis must not be zero" }
        return nil
    }
}

/// A joint: its definition (body slots resolved) and the solver's scratch state.
///
/// The fields every step's preparation reads come first — the bodies, the reference angle, the
/// accumulated impulses, then the definition — so a joint prepared in lanes (`WideJoint`),
/// whose record is read in colour order, not in memory order, costs three cache lines, not five.
@usableFromInline
struct JointRecord {
    var alive = false
    var generation: UInt32 = 0
    var bodyA: Int32 = 0
    var bodyB: Int32 = 0
    var restLength: Float = 0
    var referenceAngle: Float = 0
    // Accumulated impulses (warm started across steps).
    var linearImpulse = Vec2.zero
    var angularImpulse: Float = 0
    var springImpulse: Float = 0
    var lowerImpulse: Float = 0, upperImpulse: Float = 0
    var motorImpulse: Float = 0
    var def = JointDef(type: .distance, bodyA: nil, bodyB: BodyHandle(index: 0, generation: 0))

    // Solver scratch (valid during a step).
    var rA = Vec2.zero, rB = Vec2.zero
    var deltaCenter = Vec2.zero
    var deltaAngle: Float = 0
    var axis = Vec2.zero
    var invMassA: Float = 0, invIA: Float = 0
    var invMassB: Float = 0, invIB: Float = 0
    var writeA = false, writeB = false
    var axialMass: Float = 0
    var softness = Softness.rigid
    var springSoftness = Softness.rigid
    var angularSoftness = Softness.rigid
    var linearMass = SIMD4<Float>()  // 2×2 inverse for the target joint

    /// Whether every accumulated impulse is finite.
    @inline(__always)
    var impulsesAreFinite: Bool {
        linearImpulse.isFinite && angularImpulse.isFinite && springImpulse.isFinite && lowerImpulse.isFinite
            && upperImpulse.isFinite && motorImpulse.isFinite
    }

    /// Forgets the accumulated impulses: the next step starts the joint cold.
    @inline(__always)
    mutating func clearImpulses() {
        linearImpulse = .zero; angularImpulse = 0; springImpulse = 0; lowerImpulse = 0; upperImpulse = 0; motorImpulse = 0
    }
}

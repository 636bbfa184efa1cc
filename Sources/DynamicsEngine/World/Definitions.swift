/// How a body takes part in the simulation.
public enum BodyType: UInt8, Sendable {
    /// Never moves; infinite mass (ground, anchored items).
    case `static` = 0
    /// Moves with the velocity it is given; infinite mass; pushes dynamic bodies.
    case kinematic = 1
    /// Moves under forces, contacts and joints.
    case dynamic = 2
}

/// A handle to a body. It carries a generation so a handle kept after its body was destroyed
/// is detected (see `World.isValid(_:)`) instead of silently addressing a new body.
public struct BodyHandle: Hashable, Sendable, CustomStringConvertible {
    /// The body's slot in the world.
    public let index: Int32
    /// The slot's generation when the handle was made; a destroyed body's slot moves on to the
    /// next, so an old handle no longer matches.
    public let generation: UInt32
    @inlinable init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    /// The handle as text: `Body(slot#generation)`.
    public var description: String { "Body(\(index)#\(generation))" }
}

/// A handle to a joint, with the same stale-use detection as `BodyHandle`.
public struct JointHandle: Hashable, Sendable, CustomStringConvertible {
    /// The joint's slot in the world.
    public let index: Int32
    /// The slot's generation when the handle was made (see `BodyHandle.generation`).
    public let generation: UInt32
    @inlinable init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    /// The handle as text: `Joint(slot#generation)`.
    public var description: String { "Joint(\(index)#\(generation))" }
}

/// A handle to a static boundary shape (segment) added with `World.addBoundary`.
public struct BoundaryHandle: Hashable, Sendable, CustomStringConvertible {
    /// The boundary segment's shape slot in the world.
    public let shape: Int32
    /// The shape slot's generation when the handle was made (see `BodyHandle.generation`).
    public let generation: UInt32
    @inlinable init(shape: Int32, generation: UInt32) { self.shape = shape; self.generation = generation }
    /// The handle as text: `Boundary(slot#generation)`.
    public var description: String { "Boundary(\(shape)#\(generation))" }
}

/// A collision group: bodies collide only with bodies and boundaries of a group they share.
/// There is no limit on the number of groups.
public struct CollisionGroupID: Hashable, Sendable, CustomStringConvertible {
    /// The group's slot in the world; 0 is the default group.
    public let index: Int32
    /// The slot's generation when the group was created (see `BodyHandle.generation`).
    public let generation: UInt32
    @inlinable init(index: Int32, generation: UInt32) { self.index = index; self.generation = generation }
    /// The group every body joins unless its definition says otherwise (mode `.everything`).
    public static let `default` = CollisionGroupID(index: 0, generation: 0)
    /// The group as text: `Group(slot#generation)`.
    public var description: String { "Group(\(index)#\(generation))" }
}

/// What the members of a collision group collide with.
public struct CollisionMode: OptionSet, Sendable, Hashable {
    /// The option bits: 1 items, 2 boundaries.
    public let rawValue: UInt8
    /// A mode from its option bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Members collide with each other.
    public static let items = CollisionMode(rawValue: 1)
    /// Members collide with the group's boundaries.
    public static let boundaries = CollisionMode(rawValue: 2)
    /// Both.
    public static let everything: CollisionMode = [.items, .boundaries]
}

/// Surface and mass material of a shape.
public struct Material: Sendable, Equatable {
    /// Density in UIKit's units: mass = area (pt²) × density / 10 000, so a 100 × 100 pt
    /// box of density 1 has mass 1 (1 kg/m² with 100 pt = 1 m). Finite and > 0.
    public var density: Float
    /// Coulomb friction coefficient (≥ 0). Pairs combine with `sqrt(a · b)`.
    public var friction: Float
    /// Coefficient of restitution (0 … 1). Pairs combine with `max(a, b)`.
    public var restitution: Float
    /// A material; the defaults are density 1, friction 0.6 and no bounce.
    public init(density: Float = 1, friction: Float = 0.6, restitution: Float = 0) {
        self.density = density; self.friction = friction; self.restitution = restitution
    }
}

/// Describes one shape of a body.
public struct ShapeDef: Sendable {
    /// The shape's geometry, in the body's frame.
    public var geometry: Geometry
    /// Density, friction and restitution of the shape.
    public var material: Material
    /// A shape of `geometry` with `material` (by default density 1, friction 0.6, restitution 0).
    public init(_ geometry: Geometry, material: Material = Material()) {
        self.geometry = geometry; self.material = material
    }
}

/// Describes a body to create. All numbers must be finite.
public struct BodyDef: Sendable {
    /// Static, kinematic or dynamic (default dynamic).
    public var type: BodyType = .dynamic
    /// World position of the body origin (the shapes' local (0, 0)).
    public var position: Vec2 = .zero
    /// Rotation in radians.
    public var angle: Float = 0
    /// The starting velocity of the centre of mass (pt/s).
    public var linearVelocity: Vec2 = .zero
    /// The starting angular velocity (rad/s).
    public var angularVelocity: Float = 0
    /// Linear damping (1/s): velocity decays as `v / (1 + h · damping)` per sub-step.
    public var linearDamping: Float = 0
    /// Angular damping (1/s).
    public var angularDamping: Float = 0
    /// This body's own gravitational acceleration; `nil` uses the world's gravity.
    public var gravity: Vec2? = nil
    /// Prevents rotation (infinite rotational inertia).
    public var fixedRotation: Bool = false
    /// May this body fall asleep?
    public var allowSleep: Bool = true
    /// A bullet: a small, fast dynamic body (a projectile) that must not pass through other
    /// dynamic bodies either. Every fast body's centre is kept from crossing static geometry;
    /// a fast bullet's core is also swept against the other dynamic bodies (not bullets) at
    /// their placements at the end of the step and stops before the first it would touch, so
    /// that next step's contact hits it. Costs a pass over the dynamic bodies per fast bullet
    /// per step: meant for a few bodies. See `World.setBullet(_:_:)`.
    public var isBullet: Bool = false
    /// Starts asleep (woken by a touch, force or property change).
    public var startsAsleep: Bool = false
    /// Electric charge, read by field forces applied from outside the world.
    public var charge: Float = 0
    /// Collision groups the body belongs to.
    public var groups: [CollisionGroupID] = [.default]
    /// Free for the caller (the API layer keeps an item index here).
    public var userData: UInt64 = 0
    /// A dynamic body at the origin, every other field at its default.
    public init() {}
    /// A body of `type` at `position` (the body origin, pt) turned by `angle` radians.
    public init(type: BodyType, position: Vec2, angle: Float = 0) {
        self.type = type; self.position = position; self.angle = angle
    }
}

/// Global solver settings. Lengths are in points (100 pt = 1 m).
public struct WorldSettings: Sendable, Equatable {
    /// Sub-steps per `step(dt:)`.
    public var subSteps: Int = 4
    /// Contact stiffness in Hz (capped at a quarter of the sub-step rate) and damping ratio.
    public var contactHertz: Float = 30, contactDampingRatio: Float = 10
    /// The largest speed (pt/s) at which overlap is pushed apart.
    public var maxContactPushSpeed: Float = 300
    /// Joint stiffness for rigid joints (Hz) and damping ratio.
    public var jointHertz: Float = 60, jointDampingRatio: Float = 2
    /// Relative approach speed (pt/s) below which contacts do not bounce.
    public var restitutionThreshold: Float = 100
    /// Allowed overlap and the contact tolerance (pt).
    public var linearSlop: Float = 0.5
    /// Contact recycling: a touching contact whose bodies moved less than this (pt) relative
    /// to each other since its manifold was computed keeps the manifold and only updates its
    /// separations (a contact not touching uses the smaller speculative distance). 0 turns it
    /// off. Default 10 × the default linear slop.
    public var contactRecycleDistance: Float = 5
    /// Speeds below which a body may sleep.
    public var sleepLinearThreshold: Float = 1
    /// The angular speed (rad/s) below which a body may sleep (2°/s).
    public var sleepAngularThreshold: Float = 2 * Float.pi / 180
    /// Seconds at rest before an island sleeps.
    public var timeToSleep: Float = 0.5
    /// Whether islands at rest fall asleep at all.
    public var isSleepEnabled: Bool = true
    /// Largest speed (pt/s) a body may reach (guards against explosions).
    public var maxLinearSpeed: Float = 400_000
    /// Continuous collision against static geometry: no dynamic body's centre of mass crosses
    /// a static shape or boundary, whatever moves it (its own speed, a collision, a joint, a
    /// kinematic body squeezing it against a wall). A body that moved more than half its core
    /// radius in a step has its core's path checked against static shapes and boundaries and is
    /// stopped where its core would cross one; a body touching a static shape, or whose core
    /// already overlaps one, is checked with half its core, so a squeezed body sinks in at most
    /// that far. Fast bullets (`BodyDef.isBullet`) are also checked against dynamic bodies.
    /// Default on; about 1 % of a step where nothing is fast.
    public var isContinuousEnabled: Bool = true
    /// The default settings (each field's documentation gives its default).
    public init() {}
}

/// How a body takes part in the simulation.
public enum BodyType: UInt8, Sendable {
    /// Never moves; infinite mass (ground, anchored items).
    case `static` = 0
    /// Moves with the velocity it is given; infinite mass; pushes dynamic bodies.
    case kinematic = 1
    /// Moves under forces, contacts and joints.
    case dynamic = 2
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
    /// Rolling resistance (≥ 0, usually 0 … 1; default 0: none). A contact resists the two
    /// bodies' relative turning with a torque of at most `max(a, b)` × the larger rounding
    /// radius of its two shapes (a circle's or capsule's radius, a rounded polygon's rounding;
    /// plain polygons, boxes, ellipses and segments have none) × its normal force — so a ball
    /// rolling on the flat slows at ⅔ × resistance × g and a pile of balls settles, where without
    /// it a rolling contact loses no energy. A contact between two shapes without a rounding
    /// radius has none.
    public var rollingResistance: Float
    /// A material; the defaults are density 1, friction 0.6, no bounce and no rolling resistance.
    public init(density: Float = 1, friction: Float = 0.6, restitution: Float = 0, rollingResistance: Float = 0) {
        self.density = density; self.friction = friction; self.restitution = restitution
        self.rollingResistance = rollingResistance
    }

    /// Throws `WorldError.nonFinite` or `.negative` for a material no shape can have.
    func validate() throws {
        guard density.isFinite, friction.isFinite, restitution.isFinite, rollingResistance.isFinite else {
            throw WorldError.nonFinite("material")
        }
        guard density >= 0, friction >= 0, restitution >= 0, rollingResistance >= 0 else { throw WorldError.negative("material") }
    }
}

/// Which other shapes a shape collides with, as Box2D's `b2Filter`: two shapes collide when
/// each one's category is in the other's mask, unless they share a non-zero `groupIndex`, which
/// decides alone (positive: always collide, negative: never). It works beside collision
/// groups (`createCollisionGroup`), which decide per body: a pair of shapes collides only
/// when both allow it, so a positive group index cannot make two bodies of different
/// collision groups collide. Two shapes of one body never collide.
public struct ShapeFilter: Sendable, Hashable {
    /// The categories this shape is in (one bit each; default 1).
    public var categoryBits: UInt64
    /// The categories of the shapes it collides with (default: every one).
    public var maskBits: UInt64
    /// Shapes with the same non-zero index always collide (positive) or never (negative),
    /// whatever their categories and masks (default 0: no group).
    public var groupIndex: Int32

    /// A filter; the defaults (category 1, every category in the mask, no group) collide with
    /// every other default shape.
    public init(categoryBits: UInt64 = 1, maskBits: UInt64 = .max, groupIndex: Int32 = 0) {
        self.categoryBits = categoryBits; self.maskBits = maskBits; self.groupIndex = groupIndex
    }

    /// Category 1, every category in the mask, no group.
    public static let `default` = ShapeFilter()

    /// Whether a shape with this filter and one with `other` collide (the rule above).
    @inlinable public func collides(with other: ShapeFilter) -> Bool {
        if groupIndex == other.groupIndex && groupIndex != 0 { return groupIndex > 0 }
        return categoryBits & other.maskBits != 0 && other.categoryBits & maskBits != 0
    }
}

/// Describes one shape of a body.
public struct ShapeDef: Sendable {
    /// The shape's geometry, in the body's frame.
    public var geometry: Geometry
    /// Density, friction and restitution of the shape.
    public var material: Material
    /// Which other shapes it collides with (default: all; see `ShapeFilter`).
    public var filter: ShapeFilter
    /// A shape of `geometry` with `material` (by default density 1, friction 0.6, restitution 0)
    /// and `filter` (by default colliding with every shape).
    public init(_ geometry: Geometry, material: Material = Material(), filter: ShapeFilter = .default) {
        self.geometry = geometry; self.material = material; self.filter = filter
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
    /// The speed (pt/s) below which the body counts as resting for sleep: its sleep speed is
    /// the speed of its fastest point at the end of a step, |v| + |ω| · (its farthest shape
    /// point from the centre of mass). An island falls asleep when every body in it stayed at
    /// or below its threshold (and the world's `sleepLinearThreshold` / `sleepAngularThreshold`) for
    /// `WorldSettings.timeToSleep`. Default `defaultSleepThreshold`, 5 pt/s: Box2D's 5 cm/s
    /// at 100 pt/m. Must be finite and not negative, or infinity (only the world's thresholds
    /// apply).
    public var sleepThreshold: Float = BodyDef.defaultSleepThreshold
    /// The default `sleepThreshold`: 5 pt/s.
    public static let defaultSleepThreshold: Float = 5
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

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
    /// off. Contacts with a circle are always computed afresh. Default 10 × the default linear
    /// slop.
    public var contactRecycleDistance: Float = 5
    /// A linear speed (pt/s) every body must stay at or below to sleep, besides its own
    /// `BodyDef.sleepThreshold`. Default infinity: each body's threshold decides.
    public var sleepLinearThreshold: Float = .infinity
    /// An angular speed (rad/s) every body must stay at or below to sleep, besides its own
    /// `BodyDef.sleepThreshold`. Default infinity: each body's threshold decides.
    public var sleepAngularThreshold: Float = .infinity
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
    /// Default on; cheap where nothing is fast (its cost is measured in docs/architecture.md,
    /// "The continuous step").
    public var isContinuousEnabled: Bool = true
    /// The default settings (each field's documentation gives its default).
    public init() {}
}

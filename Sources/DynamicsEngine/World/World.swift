/// A 2D rigid-body world: bodies with shapes, static boundaries, joints and collision groups,
/// advanced in fixed steps by `step(dt:)`.
///
/// Lengths are points, time seconds, angles radians; 100 pt = 1 m. The world is not
/// thread-safe: call it from one thread at a time (it uses worker threads inside `step`).
///
/// Programmer errors (a stale handle, a non-finite time step, a non-finite force) stop the
/// program with a precondition message; data errors (invalid geometry or body definitions)
/// are thrown as `GeometryError` / `WorldError`.
public final class World {
    // Every stored `var` is `@exclusivity(unchecked)` (a `let` needs no check): the world is
    // used from one thread at a time and its step hands buffers to workers through raw
    // pointers, so the runtime's dynamic exclusivity checks, dozens per step and a sizeable
    // part of a small world's step, would guard nothing. Each part of the step owns its own
    // state (a struct or class below); the world holds the records and the parts.
    /// Solver settings; change between steps.
    @exclusivity(unchecked) public var settings: WorldSettings { didSet { rest.settingsGeneration &+= 1; stateChanged() } }
    /// Notes a change made from outside a step (see `RestState.stateGeneration`).
    @inline(__always) func stateChanged() {
        rest.stateGeneration &+= 1
        // (The change may read or reset sleep timers that steps at rest only counted.)
        if rest.quietSteps | rest.pendingTimerSteps != 0 { endQuietRestSteps() }
    }
    /// Gravity for bodies that have no gravity of their own (pt/s²).
    @exclusivity(unchecked) public var gravity: Vec2 {
        didSet {
            precondition(gravity.isFinite, "World.gravity must be finite")
            stateChanged()
            for i in 0..<Int(bodySlots.count) where metas[i].alive && !metas[i].ownGravity {
                sims[i].gravity = gravity
            }
            wakeAll()
        }
    }

    // Bodies (slot-indexed, structure of arrays by access pattern).
    let sims = Column<BodySim>()
    let states = Column<BodyState>()
    let metas = Column<BodyMeta>()
    @exclusivity(unchecked) var bodySlots = SlotAllocator()
    /// Number of live bodies.
    @exclusivity(unchecked) public internal(set) var bodyCount = 0
    /// Number of live dynamic and kinematic bodies (with the awake list, tells whether any
    /// body sleeps: `wakeJointedBodies`).
    @exclusivity(unchecked) var movingBodyCount = 0
    /// The body that owns every boundary segment.
    @exclusivity(unchecked) var boundaryBody: Int32 = -1

    // Shapes (slot-indexed; their boxes are the broad phase's).
    let shapes = Column<ShapeRecord>()
    @exclusivity(unchecked) var shapeSlots = SlotAllocator()
    /// Next shape of the same body (a singly linked list per body), or -1.
    let shapeNext = Column<Int32>()
    /// The polygons' and segments' vertices and normals.
    @exclusivity(unchecked) var pool = VertexPool()
    /// `createBody`'s list of validated shapes, kept empty between calls for its capacity.
    @exclusivity(unchecked) var preparedShapes: [(ShapeDef, PreparedGeometry)] = []

    /// The collision groups and each body's groups.
    @exclusivity(unchecked) var groups = CollisionGroupTable()

    // Joints.
    let joints = Column<JointRecord>()
    @exclusivity(unchecked) var jointSlots = SlotAllocator()
    /// Number of live joints.
    @exclusivity(unchecked) public internal(set) var jointCount = 0
    /// The joints attached to each body.
    @exclusivity(unchecked) var jointGraph = JointGraph()

    // The step's parts. (The small ones a step at rest reads first, together.)
    /// What the last step of a small world ended in, to recognise exact rest, and what
    /// changed the world since (`Step/StepAtRest.swift`).
    let rest = RestState()
    /// What the steps count (the public counts, and which shortcuts they took).
    @exclusivity(unchecked) var counters = StepCounters()
    /// How steps run: workers, profiling, and the thresholds tests lower.
    @exclusivity(unchecked) var options = StepOptions()
    /// Set while `step` runs; structural changes are refused then.
    @exclusivity(unchecked) var isStepping = false
    /// The islands of the last step, and whether they must be rebuilt.
    @exclusivity(unchecked) var islands = IslandBuilder()
    /// The broad phase: shape boxes, fat boxes, grids, pairs and what makes them stale.
    @exclusivity(unchecked) var broadPhase = BroadPhase()
    /// What the world queries keep besides the broad phase's grids (`World/Queries.swift`).
    @exclusivity(unchecked) var queryIndex = QueryIndex()
    /// The contacts: records, manifolds, island links, events, per-shape lists and the narrow
    /// phase's lists (`ContactSet`).
    let contacts = ContactSet()
    /// The solver's reusable buffers.
    @exclusivity(unchecked) var solver = SolverScratch()
    /// This step's colour batches (kept apart from `solver` so both can be borrowed at once).
    @exclusivity(unchecked) var batches = ColoredBatches()
    /// The continuous step's counters and per-chunk hits.
    @exclusivity(unchecked) var continuous = ContinuousState()
    /// The step's views of this world and its numbers (`Step/StepContext.swift`).
    let stepContext = StepContext()
    /// Per-phase wall time summed over the steps taken while `isProfiling` was on.
    @exclusivity(unchecked) public internal(set) var profile = StepProfile()

    /// Contacts that began touching in the last step (point: largest normal impulse). Two
    /// shapes touch when a manifold point is within the linear slop, or when the solve pushed
    /// on a speculative point (a fast body that struck and bounced off within one step: it
    /// begins touching in the next step and stops in a later one, as UIKit reports a bounce).
    public var contactBeginEvents: [ContactEvent] { contacts.beginEvents }
    /// Contacts that stopped touching in the last step (or whose body was destroyed).
    public var contactEndEvents: [ContactEvent] { contacts.endEvents }
    /// True when the last step reported a contact that began or ended (`contactBeginEvents`
    /// or `contactEndEvents` not empty). Read here rather than from another module, where
    /// each read of those lists costs a dynamic exclusivity check.
    public var hasContactEvents: Bool { contacts.hasEvents }
    /// Accumulates per-phase wall time of `step` while true (see `profile`).
    public var isProfiling: Bool {
        get { options.isProfiling }
        set { options.isProfiling = newValue }
    }
    /// Number of steps taken.
    public internal(set) var stepCount: Int {
        get { counters.stepCount }
        set { counters.stepCount = newValue }
    }
    /// How many fast bodies the continuous step stopped at static geometry, ever.
    public internal(set) var continuousHits: Int {
        get { counters.continuousHits }
        set { counters.continuousHits = newValue }
    }
    /// Worker threads used by `step`: 1 runs everything on the calling thread with no
    /// Dispatch at all. The default is the number of active processors. The state after any
    /// number of steps is bit-identical for every worker count.
    public var workerCount: Int {
        get { options.workerCount }
        set {
            precondition(newValue >= 1, "World.workerCount must be at least 1")
            options.workerCount = newValue
        }
    }

    /// The active processor count.
    public static var defaultWorkerCount: Int { max(1, ProcessInfoShim.activeProcessorCount) }

    /// Extra preparations of the contact constraints per step, from the environment variable
    /// `DYNAMICS_REPEAT_PREPARE` (read once per process; 0 when unset). A benchmarking aid:
    /// with a value r every world's step prepares its contact constraints 1 + r times (a
    /// fraction spread over the steps: 0.5 is once more every other step), real work with the
    /// same inputs and outputs, so the results are bit for bit those of an unset variable and
    /// only the time grows — about 10 % per extra preparation in the contact-heavy benchmark
    /// scenes. `scripts/calibrate-gate` uses it for builds that are slower on purpose. A value
    /// that is not a non-negative number stops the process with a message.
    public static var repeatPrepareFromEnvironment: Double { StepOptions.environmentRepeatPrepare }

    /// Creates an empty world.
    public init(gravity: Vec2 = Vec2(0, 1000), settings: WorldSettings = WorldSettings()) {
        precondition(gravity.isFinite, "World gravity must be finite")
        self.gravity = gravity
        self.settings = settings
        // Block 0 of the vertex pool is never used, so its buffers are never empty.
        _ = pool.allocate(count: 1) { _ in (.zero, .zero) }
        // Group 0 is the default group (`CollisionGroupID.default`).
        _ = createCollisionGroup(mode: .everything)
        // A static body owns the boundaries.
        var def = BodyDef(type: .static, position: .zero)
        def.groups = []
        boundaryBody = try! createBody(def, shapes: []).index
        bodyCount -= 1  // the boundary owner is not a user body
    }

    // MARK: - Handles

    /// True when `handle` addresses a live body.
    public func isValid(_ handle: BodyHandle) -> Bool {
        metas.holdsLive(handle.index, generation: handle.generation) && handle.index != boundaryBody
    }

    @inline(__always)
    func slot(_ h: BodyHandle, _ function: StaticString = #function) -> Int {
        liveSlot(h.index, of: h, isLive: isValid(h), "body", function)
    }

    /// `index`, the slot of handle `h`, once `isLive` says that `h` is valid; a stale or
    /// foreign handle stops the program with a message naming `function` and what `h` is a
    /// handle of (`what`).
    @inline(__always)
    func liveSlot(_ index: Int32, of h: some CustomStringConvertible, isLive: Bool, _ what: StaticString,
                  _ function: StaticString) -> Int {
        precondition(isLive, "\(function): \(h) is not a live \(what) of this world (stale or foreign handle)")
        return Int(index)
    }

    func handle(ofBody i: Int) -> BodyHandle { BodyHandle(index: Int32(i), generation: metas[i].generation) }

    /// Every live body, in slot order.
    public var bodies: [BodyHandle] {
        var out: [BodyHandle] = []
        out.reserveCapacity(bodyCount)
        for i in 0..<Int(bodySlots.count) where metas[i].alive && Int32(i) != boundaryBody {
            out.append(handle(ofBody: i))
        }
        return out
    }

    func checkNotStepping(_ what: StaticString) {
        precondition(!isStepping, "\(what) called while the world is stepping")
    }

    /// The start of a change to what the world holds (bodies, shapes, joints, groups, a body's
    /// type): a state change, which the world does not take while it is stepping (`what` names
    /// the call in the message).
    @inline(__always) func structuralChange(_ what: StaticString) {
        stateChanged()
        checkNotStepping(what)
    }
}

/// Errors for body definitions that cannot be simulated.
public enum WorldError: Error, Equatable, CustomStringConvertible {
    /// A number of the definition that must be finite was NaN or infinite (named).
    case nonFinite(String)
    /// A number that must not be negative was (named).
    case negative(String)
    /// A dynamic body with no shape of positive density (no mass to move).
    case dynamicBodyWithoutMass
    /// A segment shape on a dynamic or kinematic body: segments are static geometry only.
    case segmentOnMovingBody
    /// The body lists a collision group that was destroyed or belongs to another world.
    case unknownGroup(CollisionGroupID)

    /// A sentence saying what is wrong.
    public var description: String {
        switch self {
        case .nonFinite(let w): return "\(w) must be finite (got NaN or infinity)"
        case .negative(let w): return "\(w) must not be negative"
        case .dynamicBodyWithoutMass: return "a dynamic body needs at least one shape with positive density"
        case .segmentOnMovingBody: return "segments are boundaries: only static bodies may have them"
        case .unknownGroup(let g): return "\(g) is not a live collision group of this world"
        }
    }
}

/// One contact event between a body and another body or a boundary.
public struct ContactEvent: Sendable, Equatable {
    /// What the body touched: another body, or a boundary segment.
    public enum Partner: Sendable, Equatable, Hashable {
        /// Another body.
        case body(BodyHandle)
        /// A boundary segment and the identifier it was created with.
        case boundary(BoundaryHandle, id: UInt64)
    }
    /// The body the event is about.
    public var body: BodyHandle
    /// What `body` touched: a body or a boundary.
    public var other: Partner
    /// World point of the manifold point with the largest normal impulse (begin events).
    public var point: Vec2
    /// Contact normal, from `body` toward `other` (begin events).
    public var normal: Vec2
}

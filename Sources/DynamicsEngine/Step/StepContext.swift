/// What one step's passes read and write: views of the world's columns and the step's
/// numbers (its length, the sub-step's length and inverse, the contact and joint softness
/// for a sub-step), set once at the start of a full step (`World.startStepContext`) and
/// reached by every pass and its workers through one reference, instead of each pass
/// re-declaring its own views or working its numbers out again. (A class the world keeps,
/// not a value: copied into every pass's task value, a struct of this size would cost a
/// `memcpy` per copy, a noticeable part of a small world's step.)
///
/// Lifetime: the body and shape columns keep their size for the whole step, so their views
/// stay valid; between steps they change only where `columnsChanged` is called (a body or
/// shape slot added, a restore), and `start` keeps the views until it is. The contact
/// columns grow in the merge (new contacts, new data slots, their island links): `start`
/// takes their views every step and `refreshContacts` renews them after a merge.
/// Concurrency: every pass documents which elements each worker writes (a body range, a
/// contact chunk, one colour's batches); the views themselves are plain addresses and counts,
/// and nothing changes the context while workers run. Hot loops copy the views they use
/// into locals.
final class StepContext: @unchecked Sendable {
    /// The step's length (s) and how many workers it uses.
    @exclusivity(unchecked) private(set) var dt: Float = 0
    @exclusivity(unchecked) private(set) var workers = 1
    // Bodies, in slot order.
    @exclusivity(unchecked) private(set) var sims = MutableView<BodySim>()
    @exclusivity(unchecked) private(set) var states = MutableView<BodyState>()
    @exclusivity(unchecked) private(set) var metas = MutableView<BodyMeta>()
    // Shapes: records, the vertex pool, boxes and fat boxes.
    @exclusivity(unchecked) private(set) var shapes = View<ShapeRecord>()
    @exclusivity(unchecked) private(set) var vertices = View<Vec2>()
    @exclusivity(unchecked) private(set) var normals = View<Vec2>()
    @exclusivity(unchecked) private(set) var boxes = MutableView<AABB>()
    @exclusivity(unchecked) private(set) var fatBoxes = MutableView<AABB>()
    // Contacts, their manifolds and island links (renewed by `refreshContacts`).
    @exclusivity(unchecked) private(set) var contacts = MutableView<Contact>()
    @exclusivity(unchecked) private(set) var contactData = MutableView<ContactData>()
    @exclusivity(unchecked) private(set) var links = MutableView<SIMD2<Int32>>()
    /// The step's numbers (after the views, which every pass reads; these only the solve).
    @exclusivity(unchecked) private(set) var numbers = StepNumbers()
    /// What `numbers` were worked out from: the step's length and the settings' generation
    /// (`RestState.settingsGeneration`). While these stay the same, so do the numbers, and
    /// `start` keeps them instead of working them out again (their divisions) in every step.
    @exclusivity(unchecked) private var numbersDT = Float.nan
    @exclusivity(unchecked) private var numbersSettingsGeneration = -1

    /// The shapes with the vertex pool, together.
    @inline(__always) var geometry: ShapeGeometry { ShapeGeometry(records: shapes, vertices: vertices, normals: normals) }

    /// Raised whenever a body or shape column (records, boxes, the vertex pool) may have grown
    /// or been replaced (`columnsChanged`): the next `start` takes those views again.
    @exclusivity(unchecked) private var viewsStale = true
    /// The parallel passes' stage list and progress (reused every step).
    let pipeline = StagePipeline()
    /// Raised during the solve's preparation when any contact can bounce (restitution > 0).
    let bounce = WorkFlag()
    /// Raised when a prepared contact has rolling resistance (`SolverViews.anyRolling`).
    let rolling = WorkFlag()

    /// Notes that a body or shape column may have grown or been replaced (a body or shape
    /// slot added, a restore).
    @inline(__always) func columnsChanged() { viewsStale = true }

    /// Points the context at world `w`'s columns for a step of `dt` seconds. The body and
    /// shape views are taken again only when those columns changed since the last step
    /// (`columnsChanged`): reading the column objects costs a small world's step about a
    /// dozen cold cache lines. Debug builds check that the kept views are the columns' own.
    fileprivate func start(_ w: World, dt: Float, workers: Int) {
        self.dt = dt
        self.workers = workers
        if dt != numbersDT || w.rest.settingsGeneration != numbersSettingsGeneration {
            numbers = StepNumbers(w.settings, dt: dt)
            numbersDT = dt; numbersSettingsGeneration = w.rest.settingsGeneration
        }
        assert(numbers == StepNumbers(w.settings, dt: dt),
               "the settings changed without RestState.settingsGeneration: the kept step numbers are stale")
        if viewsStale {
            sims = w.sims.mutableView; states = w.states.mutableView; metas = w.metas.mutableView
            shapes = w.shapes.view; vertices = w.pool.vertices.view; normals = w.pool.normals.view
            boxes = w.broadPhase.boxes.mutableView; fatBoxes = w.broadPhase.fatBoxes.mutableView
            viewsStale = false
        }
        assert(sims.readOnly.isView(of: w.sims) && states.readOnly.isView(of: w.states) && metas.readOnly.isView(of: w.metas)
               && shapes.isView(of: w.shapes) && vertices.isView(of: w.pool.vertices) && normals.isView(of: w.pool.normals)
               && boxes.readOnly.isView(of: w.broadPhase.boxes) && fatBoxes.readOnly.isView(of: w.broadPhase.fatBoxes),
               "a body or shape column changed without StepContext.columnsChanged()")
        refreshContacts(w)
    }

    /// Renews the contact views after the contact columns grew or were swapped.
    func refreshContacts(_ w: World) {
        contacts = w.contacts.mutableView; contactData = w.contacts.data.mutableView; links = w.contacts.links.mutableView
    }
}

/// The numbers of a step of `dt` seconds under a world's settings, worked out once per step
/// (`StepContext.numbers`) for every pass that needs them.
struct StepNumbers: Equatable {
    /// `WorldSettings.subSteps`, the sub-step's length h = dt / subSteps (s), and 1 / h.
    var subSteps = 1
    var h: Float = 0
    var invH: Float = 0
    /// The contacts' softness for a sub-step: between moving bodies (`WorldSettings.contactHertz`,
    /// at most a quarter of the sub-step rate), and against static bodies at twice the stiffness.
    var contactSoftness = Softness.rigid
    var staticSoftness = Softness.rigid
    /// The joints' softness for a sub-step.
    var jointSoftness = Softness.rigid

    init() {}

    init(_ settings: WorldSettings, dt: Float) {
        let n = settings.subSteps
        subSteps = n
        h = dt / Float(n)
        invH = 1 / h
        let contactHertz = min(settings.contactHertz, 0.25 * Float(n) / dt)
        contactSoftness = Softness(hertz: contactHertz, dampingRatio: settings.contactDampingRatio, h: h)
        staticSoftness = Softness(hertz: 2 * contactHertz, dampingRatio: settings.contactDampingRatio, h: h)
        jointSoftness = Softness(hertz: settings.jointHertz, dampingRatio: settings.jointDampingRatio, h: h)
    }

    /// What the joints' passes take: h, 1 / h and the joints' softness.
    @inline(__always) var jointContext: JointSolver.Context { JointSolver.Context(h: h, invH: invH, jointSoftness: jointSoftness) }
}

extension World {
    /// Points `stepContext` at this world for a full step of `dt` seconds. (The step then
    /// reads the world's own reference: a context returned from here would be a retain and a
    /// release every step.)
    @inline(__always) func startStepContext(dt: Float) {
        stepContext.start(self, dt: dt, workers: options.workers(work: bodyCount + contacts.count + jointCount))
    }

}

import Synchronization

extension World {
    /// Advances the world by `dt` seconds (typically 1/60 or 1/120), in `settings.subSteps`
    /// sub-steps: broad phase → narrow phase (contact begin/end) → islands → solve →
    /// integrate → sleep → events.
    ///
    /// After the call, `contactBeginEvents` and `contactEndEvents` describe this step.
    /// - Precondition: `dt` is finite and not negative; not called from inside a step.
    public func step(dt: Float = 1.0 / 60.0) {
        precondition(dt.isFinite && dt >= 0, "World.step(dt:): the time step must be finite and not negative (got \(dt))")
        precondition(!isStepping, "World.step(dt:) called while the world is already stepping")
        precondition(settings.subSteps >= 1, "WorldSettings.subSteps must be at least 1")
        contactBeginEvents.removeAll(keepingCapacity: true)
        contactEndEvents.removeAll(keepingCapacity: true)
        contactEndEvents.append(contentsOf: pendingEndEvents)
        pendingEndEvents.removeAll(keepingCapacity: true)
        guard dt > 0 else { return }
        isStepping = true
        defer { isStepping = false }

        // Below ~1 000 bodies one thread is faster than waking others (the result is the
        // same either way).
        stepWorkers = bodyCount < minBodiesForParallel ? 1 : workerCount
        let profiling = isProfiling
        var t = profiling ? StepProfile.now() : 0
        @inline(__always) func lap(_ field: WritableKeyPath<StepProfile, Double>) {
            guard profiling else { return }
            let now = StepProfile.now()
            profile[keyPath: field] += now - t
            t = now
        }
        findPairs(dt: dt)
        lap(\.broadPhase)
        mergeContacts()
        lap(\.merge)
        updateContacts(dt: dt)
        collectContactChanges()
        wakeJointedBodies()
        lap(\.narrowPhase)
        buildIslands()
        lap(\.islands)
        solve(dt: dt)
        lap(\.solve)
        finalizeBodies(dt: dt)
        collectBeginEvents()
        lap(\.finalize)
        if profiling { profile.steps += 1 }
        stepCount += 1
    }

    /// A joint between an awake and a sleeping body wakes the sleeping one.
    func wakeJointedBodies() {
        for j in 0..<Int(jointSlots.count) where joints[j].alive {
            let a = Int(joints[j].bodyA), b = Int(joints[j].bodyB)
            let da = metas[a].type != .static, db = metas[b].type != .static
            if da && db && metas[a].awake != metas[b].awake { wakeBody(a); wakeBody(b) }
        }
    }

    func solve(dt: Float) {
        let n = settings.subSteps
        let h = dt / Float(n)
        let contactHertz = min(settings.contactHertz, 0.25 * Float(n) / dt)
        let soft = Softness(hertz: contactHertz, dampingRatio: settings.contactDampingRatio, h: h)
        let staticSoft = Softness(hertz: 2 * contactHertz, dampingRatio: settings.contactDampingRatio, h: h)
        let jointSoft = Softness(hertz: settings.jointHertz, dampingRatio: settings.jointDampingRatio, h: h)
        let nc = islands.count > 0 ? Int(islands.contactStart[islands.count]) : 0
        if solver.constraints.count < nc {
            solver.constraints.append(contentsOf: repeatElement(ContactConstraint(), count: nc - solver.constraints.count))
        }
        let nj = islands.count > 0 ? Int(islands.jointStart[islands.count]) : 0
        let ctx = JointSolver.Context(h: h, invH: 1 / h, jointSoftness: jointSoft)
        let workers = stepWorkers
        scheduleIslands(workers: workers)
        let solveStart = isProfiling ? StepProfile.now() : 0
        var prepareEnd = solveStart
        defer { if isProfiling { profile.prepare += prepareEnd - solveStart; profile.solve -= prepareEnd - solveStart } }
        // Index arrays through local references: the buffers below are borrowed mutably.
        let ib = islands
        let smallIslands = solver.smallIslands, bigIslands = solver.bigIslands
        sims.withUnsafeMutableBufferPointer { simsB in
        states.withUnsafeMutableBufferPointer { statesB in
        metas.withUnsafeBufferPointer { metasB in
        solver.constraints.withUnsafeMutableBufferPointer { consB in
        joints.withUnsafeMutableBufferPointer { jointsB in
        contacts.withUnsafeMutableBufferPointer { contactsB in
            let cons = orDummy(consB.baseAddress), contactList = ib.contactList.baseOrDummy
            let simsP = orDummy(simsB.baseAddress), statesP = orDummy(statesB.baseAddress)
            let metasP = orDummy(metasB.baseAddress), contactsP = orDummy(contactsB.baseAddress)
            let shared = SharedPointers(cons: cons, contactList: contactList, sims: simsP, states: statesP,
                                        metas: metasP, contacts: contactsP)
            // Colour the islands and prepare the constraints in one parallel pass: the colouring
            // tasks (chunks of islands, claimed first, so a giant island's colouring starts at
            // once) read only the contacts' bodies; the preparation chunks write only their own
            // constraints. Each prepare chunk notes whether any of its contacts can bounce.
            let coloring = batches.coloring(islands: ib, contacts: contactsP, metas: metasP, bodyCount: Int(bodySlots.count))
            let islandChunk = 8, prepareChunk = 512
            let colorTasks = (ib.count + islandChunk - 1) / islandChunk
            let prepareTasks = (nc + prepareChunk - 1) / prepareChunk
            let bounce = bounceFlag
            bounce.clear()
            Parallel.forChunks(workers: workers, count: colorTasks + prepareTasks, chunkSize: 1, counter: chunkCounter) { r, _ in
                let task = r.lowerBound
                if task < colorTasks {
                    for isl in (task * islandChunk)..<min(ib.count, (task + 1) * islandChunk) { coloring.color(island: isl) }
                    return
                }
                let p = task - colorTasks
                var bounces = false
                for k in (p * prepareChunk)..<min(nc, (p + 1) * prepareChunk) {
                    let contact = shared.contacts[Int(shared.contactList[k])]
                    ContactSolver.prepare(&shared.cons[k], contact: contact,
                                          sims: shared.sims, states: shared.states, metas: shared.metas,
                                          soft: soft, staticSoft: staticSoft)
                    bounces = bounces || contact.restitution > 0
                }
                if bounces { bounce.set() }
            }
            let jointList = ib.jointList.baseOrDummy
            for k in 0..<nj {
                JointSolver.prepare(&jointsB[Int(jointList[k])], sims: simsP, metas: metasP, ctx: ctx)
            }
            let colorStart = isProfiling ? StepProfile.now() : 0
            batches.layoutAndPack(islands: ib, constraints: cons, padBody: boundaryBody, workers: workers, counter: chunkCounter)
            if isProfiling { prepareEnd = StepProfile.now(); profile.coloring += prepareEnd - colorStart }
            let bt = batches
            let views = SolverViews(
                sims: simsP, states: statesP, metas: metasP, constraints: cons,
                wide: batches.wide.baseOrDummyMutable, wideStart: bt.wideStart.baseOrDummy,
                colorStart: bt.colorStart.baseOrDummy,
                overflow: bt.overflow.baseOrDummy, overflowStart: bt.overflowStart.baseOrDummy,
                joints: orDummy(jointsB.baseAddress),
                bodies: ib.bodies.baseOrDummy, bodyStart: ib.bodyStart.baseOrDummy,
                contactStart: ib.contactStart.baseOrDummy, jointList: jointList,
                jointStart: ib.jointStart.baseOrDummy, subSteps: n, h: h, invH: 1 / h,
                maxBiasVelocity: settings.maxContactPushSpeed, restitutionThreshold: settings.restitutionThreshold,
                maxLinearSpeed: settings.maxLinearSpeed, jointContext: ctx, anyRestitution: bounce.isSet)
            if workers == 1 {
                for isl in 0..<ib.count { views.solveIsland(isl) }
                for k in 0..<nc { ContactSolver.store(cons[k], into: &contactsB[Int(contactList[k])]) }
            } else {
                // One pipeline: the big islands' stages (each split into blocks), then the small
                // islands claimed whole, then storing impulses.
                pipeline.stages.removeAll(keepingCapacity: true)
                for k in 0..<bigIslands.count { views.appendStages(island: Int(bigIslands[k]), to: &pipeline.stages) }
                if !smallIslands.isEmpty {
                    // Islands claimed a few at a time (largest first): one claim per island made the
                    // workers contend on the pipeline's counter.
                    let perClaim = max(1, min(8, smallIslands.count / (workers * 32)))
                    pipeline.stages.append(Stage(kind: SolverViews.StageKind.smallIslands.rawValue, pass: 0, island: -1,
                                                 begin: 0, end: Int32(smallIslands.count), blockSize: Int32(perClaim)))
                }
                if nc > 0 {
                    pipeline.stages.append(Stage(kind: SolverViews.StageKind.store.rawValue, pass: 0, island: -1,
                                                 begin: 0, end: Int32(nc), blockSize: 1024))
                }
                smallIslands.withUnsafeBufferPointer { small in
                    let smallP = orDummy(small.baseAddress)
                    pipeline.run(workers: workers) { stage, block in
                        views.execute(stage, block: block, smallIslands: smallP, shared: shared)
                    }
                }
            }
        }}}}}}
    }

    /// Splits this step's islands into those solved by all workers together (many colour
    /// batches) and those solved whole by one worker (largest first, for balance). The split
    /// changes only who does the work, never the arithmetic.
    func scheduleIslands(workers: Int) {
        solver.smallIslands.removeAll(keepingCapacity: true)
        solver.bigIslands.removeAll(keepingCapacity: true)
        guard workers > 1 else { return }
        let ib = islands
        for isl in 0..<ib.count {
            let contacts = Int(ib.contactStart[isl + 1] - ib.contactStart[isl])
            if contacts >= 512 * workers { solver.bigIslands.append(Int32(isl)) } else { solver.smallIslands.append(Int32(isl)) }
        }
        // Largest first (ties by index): long islands do not end up last on one worker.
        solver.smallIslands.sort { a, b in
            let ca = ib.contactStart[Int(a) + 1] - ib.contactStart[Int(a)] + ib.bodyStart[Int(a) + 1] - ib.bodyStart[Int(a)]
            let cb = ib.contactStart[Int(b) + 1] - ib.contactStart[Int(b)] + ib.bodyStart[Int(b) + 1] - ib.bodyStart[Int(b)]
            return ca != cb ? ca > cb : a < b
        }
    }

    /// Applies each solved body's position change, moves kinematic bodies, clears forces,
    /// updates sleep timers and puts resting islands to sleep.
    func finalizeBodies(dt: Float) {
        let linTol = settings.sleepLinearThreshold, angTol = settings.sleepAngularThreshold
        let nb = Int(bodySlots.count)
        sims.withUnsafeMutableBufferPointer { simsB in
        states.withUnsafeMutableBufferPointer { statesB in
        metas.withUnsafeMutableBufferPointer { metasB in
            let v = BodyFinalize(sims: orDummy(simsB.baseAddress), states: orDummy(statesB.baseAddress),
                                 metas: orDummy(metasB.baseAddress), dt: dt, linTol: linTol, angTol: angTol,
                                 kinematicSleepTime: settings.isSleepEnabled ? settings.timeToSleep : .infinity)
            // Each body is written only by the worker owning its slot range.
            Parallel.forRanges(workers: stepWorkers, count: nb, minPerWorker: parallelMin(2048)) { r, _ in v.finalize(r) }
        }}}
        guard settings.isSleepEnabled else { return }
        // Islands whose every body rested long enough fall asleep together.
        for isl in 0..<islands.count where islands.canSleep[isl] != 0 {
            let b0 = Int(islands.bodyStart[isl]), b1 = Int(islands.bodyStart[isl + 1])
            var minTime = Float.infinity
            for k in b0..<b1 { minTime = min(minTime, metas[Int(islands.bodies[k])].sleepTime) }
            if minTime >= settings.timeToSleep {
                islands.bodies.withUnsafeBufferPointer { sleepIsland(UnsafeBufferPointer(rebasing: $0[b0..<b1])) }
            }
        }
    }
}

/// The per-body part of `finalizeBodies` over raw pointers (bodies `r` of one worker).
struct BodyFinalize: @unchecked Sendable {
    var sims: UnsafeMutablePointer<BodySim>
    var states: UnsafeMutablePointer<BodyState>
    var metas: UnsafeMutablePointer<BodyMeta>
    var dt: Float
    var linTol: Float
    var angTol: Float
    /// Resting kinematic bodies sleep alone after this long (infinity: sleeping is off).
    var kinematicSleepTime: Float

    func finalize(_ r: Range<Int>) {
        for i in r where metas[i].alive && metas[i].type != .static && metas[i].awake {
            var sim = sims[i]
            var st = states[i]
            if metas[i].type == .kinematic {
                st.dp = dt * st.v
                st.dq = Rot.identity.integrated(dt * st.w)
            }
            let center = sim.center + st.dp
            let qn = st.dq.mul(sim.xf.q).normalized
            if center.isFinite && qn.c.isFinite && qn.s.isFinite && st.v.isFinite && st.w.isFinite {
                sim.center = center
                sim.xf.q = qn
                sim.xf.p = center - qn.rotate(sim.localCenter)
            } else {
                // Never let a NaN enter the world: keep the last good placement, stop the body.
                st.v = .zero; st.w = 0
            }
            sim.center0 = sim.center
            sim.force = .zero
            sim.torque = 0
            st.dp = .zero
            st.dq = .identity
            if !metas[i].allowSleep || lengthSquared(st.v) > linTol * linTol || abs(st.w) > angTol {
                metas[i].sleepTime = 0
            } else {
                metas[i].sleepTime += dt
            }
            // Kinematic bodies are in no island: they fall asleep on their own.
            if metas[i].type == .kinematic && metas[i].sleepTime >= kinematicSleepTime {
                metas[i].awake = false
                metas[i].sleepNext = Int32(i)
            }
            sims[i] = sim
            states[i] = st
        }
    }
}

extension Rot {
    /// The rotation scaled back to unit length.
    @inlinable var normalized: Rot {
        let m = (c * c + s * s).squareRoot()
        return m > 0 ? Rot(c: c / m, s: s / m) : .identity
    }
}

/// A flag any worker may raise during a parallel pass (set at most once per chunk of work).
final class WorkFlag: @unchecked Sendable {
    private let value = Atomic<Bool>(false)
    func clear() { value.store(false, ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
    /// Read after the pass (the pass's join orders it after every `set`).
    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// Pointers shared with worker threads during one solve (see `SolverViews` for the rules).
struct SharedPointers: @unchecked Sendable {
    var cons: UnsafeMutablePointer<ContactConstraint>
    var contactList: UnsafePointer<Int32>
    var sims: UnsafeMutablePointer<BodySim>
    var states: UnsafeMutablePointer<BodyState>
    var metas: UnsafePointer<BodyMeta>
    var contacts: UnsafeMutablePointer<Contact>
}

/// A base address, or a never-dereferenced dummy when the buffer is empty.
@inline(__always) func orDummy<T>(_ p: UnsafeMutablePointer<T>?) -> UnsafeMutablePointer<T> {
    p ?? UnsafeMutablePointer(bitPattern: 64)!
}
@inline(__always) func orDummy<T>(_ p: UnsafePointer<T>?) -> UnsafePointer<T> {
    p ?? UnsafePointer(bitPattern: 64)!
}

extension Array {
    /// The array's element storage, valid while the array is neither mutated nor released
    /// (the solve keeps local references for its duration), or a never-dereferenced dummy.
    @inline(__always) var baseOrDummy: UnsafePointer<Element> {
        withUnsafeBufferPointer { $0.baseAddress } ?? UnsafePointer(bitPattern: 64)!
    }
    @inline(__always) var baseOrDummyMutable: UnsafeMutablePointer<Element> {
        mutating get { withUnsafeMutableBufferPointer { $0.baseAddress } ?? UnsafeMutablePointer(bitPattern: 64)! }
    }
}

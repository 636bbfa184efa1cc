import DynamicsSolverKernels
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
        // (Each only when needed: a call on an empty array still costs ~50 instructions, a
        // sizeable part of a small world's step.)
        if !contactBeginEvents.isEmpty { contactBeginEvents.removeAllKeepingCapacity() }
        if !contactEndEvents.isEmpty { contactEndEvents.removeAllKeepingCapacity() }
        if !pendingEndEvents.isEmpty {
            contactEndEvents.append(contentsOf: pendingEndEvents)
            pendingEndEvents.removeAllKeepingCapacity()
        }
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
        let keptIslands = buildIslands()
        lap(\.islands)
        solve(dt: dt, keptIslands: keptIslands)
        lap(\.solve)
        finalizeBodies(dt: dt)
        solveContinuous()
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

    /// Solves this step's islands; `keptIslands`: they are last step's, and so are their
    /// colouring and batch layout.
    func solve(dt: Float, keptIslands: Bool) {
        // The islands in place (`islands` is exclusivity-unchecked and only read below): a
        // local copy retained and released each of its buffers.
        solve(dt: dt, keptIslands: keptIslands, &islands)
    }

    private func solve(dt: Float, keptIslands: Bool, _ ib: inout IslandBuilder) {
        let n = settings.subSteps
        let h = dt / Float(n)
        let contactHertz = min(settings.contactHertz, 0.25 * Float(n) / dt)
        let soft = Softness(hertz: contactHertz, dampingRatio: settings.contactDampingRatio, h: h)
        let staticSoft = Softness(hertz: 2 * contactHertz, dampingRatio: settings.contactDampingRatio, h: h)
        let jointSoft = Softness(hertz: settings.jointHertz, dampingRatio: settings.jointDampingRatio, h: h)
        // The solver works on solve groups of islands (see `IslandBuilder.groupCount`).
        let nj = ib.groupCount > 0 ? Int(ib.groupJointStart[ib.groupCount]) : 0
        let ctx = JointSolver.Context(h: h, invH: 1 / h, jointSoftness: jointSoft)
        let workers = stepWorkers
        scheduleIslands(workers: workers)
        let solveStart = isProfiling ? StepProfile.now() : 0
        var prepareEnd = solveStart
        defer { if isProfiling { profile.prepare += prepareEnd - solveStart; profile.solve -= prepareEnd - solveStart } }
        // 1. Colour the islands (each one task; they read only the contacts' bodies) and lay
        // out their batches — unless the islands are last step's, whose colours and layout
        // still hold. (The contacts and bodies are not resized during the solve.)
        let overflowCount: Int
        if keptIslands {
            overflowCount = ib.groupCount > 0 ? Int(batches.overflowStart[ib.groupCount]) : 0
        } else {
            let coloring = batches.coloring(islands: &ib, contacts: contacts.baseOrDummy, metas: metas.baseOrDummy,
                                            bodyCount: Int(bodySlots.count))
            let islandChunk = 8
            Parallel.forChunks(workers: workers, count: (ib.groupCount + islandChunk - 1) / islandChunk, chunkSize: 1,
                               counter: chunkCounter, IslandColoringTask(coloring: coloring, islands: ib.groupCount, chunk: islandChunk))
            overflowCount = batches.layout(islands: &ib)
        }
        if isProfiling { profile.coloring += StepProfile.now() - solveStart }
        if solver.constraints.count < overflowCount {
            solver.constraints.append(contentsOf: repeatElement(ContactConstraint(), count: overflowCount - solver.constraints.count))
        }
        // Index arrays through local references: the buffers below are borrowed mutably.
        let dataP = contactData.baseOrDummyMutable
        sims.withUnsafeMutableBufferPointer { simsB in
        states.withUnsafeMutableBufferPointer { statesB in
        metas.withUnsafeBufferPointer { metasB in
        // (Often empty: opening the shared empty array mutably made a new one every step.)
        let cons = solver.constraints.baseOrDummyMutable, jointsP = joints.baseOrDummyMutable
        contacts.withUnsafeMutableBufferPointer { contactsB in
            let contactList = ib.contactList.baseOrDummyMutable
            let simsP = orDummy(simsB.baseAddress), statesP = orDummy(statesB.baseAddress)
            let metasP = orDummy(metasB.baseAddress), contactsP = orDummy(contactsB.baseAddress)
            let overflowP = batches.overflow.baseOrDummy
            let bounce = bounceFlag
            bounce.clear()
            // 2. The overflow constraints (rare: a body in more than `colorCount` contacts of one
            // island) as scalar constraints, then every batch straight from the world.
            for k in 0..<overflowCount {
                let contact = contactsP[Int(contactList[Int(overflowP[k])])]
                ContactSolver.prepare(cons + k, contact: contact, data: dataP + Int(contact.slot),
                                      sims: simsP, states: statesP, metas: metasP, soft: soft, staticSoft: staticSoft)
                if contact.restitution > 0 { bounce.set() }
            }
            let source = WideContactSolver.source(contacts: contactsP, data: dataP, sims: simsP, states: statesP, metas: metasP,
                                                  padBody: boundaryBody, contactCount: contactsB.count,
                                                  dataCount: contactData.count, bodyCount: statesB.count)
            batches.prepare(islands: &ib, source: source, workers: workers, counter: chunkCounter, bounce: bounce)
            let jointList = ib.jointList.baseOrDummyMutable
            for k in 0..<nj {
                JointSolver.prepare(&jointsP[Int(jointList[k])], sims: simsP, metas: metasP, ctx: ctx)
            }
            if isProfiling { prepareEnd = StepProfile.now() }
            // (The batches' buffers read in place: a local copy of `batches` retained each.)
            let batchCount = ib.groupCount > 0 ? Int(batches.wideStart[ib.groupCount]) : 0
            let views = SolverViews(
                sims: simsP, states: statesP, bodyCount: statesB.count, metas: metasP, constraints: cons,
                wide: batches.wide.baseOrDummyMutable, extra: batches.wideExtra.baseOrDummyMutable,
                wideStart: batches.wideStart.baseOrDummyMutable, colorStart: batches.colorStart.baseOrDummyMutable,
                overflowStart: batches.overflowStart.baseOrDummyMutable,
                batchCount: batchCount, overflow: overflowP,
                contactList: contactList, contacts: contactsP, data: dataP,
                joints: jointsP,
                bodies: ib.bodies.baseOrDummyMutable, bodyStart: ib.groupBodyStart.baseOrDummyMutable,
                jointList: jointList, jointStart: ib.groupJointStart.baseOrDummyMutable, subSteps: n, h: h, invH: 1 / h,
                maxBiasVelocity: settings.maxContactPushSpeed,
                softness: WideContactSolver.LaneSoftness(soft: soft, staticSoft: staticSoft),
                restitutionThreshold: settings.restitutionThreshold,
                maxLinearSpeed: settings.maxLinearSpeed, jointContext: ctx, anyRestitution: bounce.isSet)
            if workers == 1 {
                for isl in 0..<ib.groupCount { views.solveIsland(isl) }
                views.store(0..<(batchCount + overflowCount))
            } else {
                // One pipeline: the big islands' stages (each split into blocks), then the small
                // islands claimed whole, then storing impulses.
                let smallIslands = solver.smallIslands, bigIslands = solver.bigIslands
                pipeline.stages.removeAllKeepingCapacity()
                for k in 0..<bigIslands.count { views.appendStages(island: Int(bigIslands[k]), workers: workers, to: &pipeline.stages) }
                if !smallIslands.isEmpty {
                    // Islands claimed a few at a time (largest first): one claim per island made the
                    // workers contend on the pipeline's counter.
                    let perClaim = max(1, min(8, smallIslands.count / (workers * 32)))
                    pipeline.stages.append(Stage(kind: SolverViews.StageKind.smallIslands.rawValue, pass: 0, island: -1,
                                                 begin: 0, end: Int32(smallIslands.count), blockSize: Int32(perClaim)))
                }
                if batchCount + overflowCount > 0 {
                    pipeline.stages.append(Stage(kind: SolverViews.StageKind.store.rawValue, pass: 0, island: -1,
                                                 begin: 0, end: Int32(batchCount + overflowCount), blockSize: 256))
                }
                smallIslands.withUnsafeBufferPointer { small in
                    let smallP = orDummy(small.baseAddress)
                    pipeline.run(workers: workers, SolveStages(views: views, smallIslands: smallP))
                }
            }
        }}}}
    }

    /// Splits this step's islands into those solved by all workers together (many colour
    /// batches) and those solved whole by one worker (largest first, for balance). The split
    /// changes only who does the work, never the arithmetic.
    func scheduleIslands(workers: Int) {
        // (Each only when needed: a call on an empty array still costs a release.)
        if !solver.smallIslands.isEmpty { solver.smallIslands.removeAllKeepingCapacity() }
        if !solver.bigIslands.isEmpty { solver.bigIslands.removeAllKeepingCapacity() }
        guard workers > 1 else { return }
        let ib = islands  // (only with several workers)
        // Small islands, largest first (ties by index), so long islands do not end up last on
        // one worker: a counting sort on the size (contacts + bodies) into reused buffers (the
        // standard library's sort allocates its merge buffer on every call).
        var maxSize = 0
        for isl in 0..<ib.groupCount {
            let contacts = Int(ib.groupContactStart[isl + 1] - ib.groupContactStart[isl])
            if contacts >= 512 * workers { solver.bigIslands.append(Int32(isl)); continue }
            maxSize = max(maxSize, contacts + Int(ib.groupBodyStart[isl + 1] - ib.groupBodyStart[isl]))
        }
        let smallCount = ib.groupCount - solver.bigIslands.count
        guard smallCount > 0 else { return }
        let countsBuffer = solver.sizeCounts, orderBuffer = solver.smallIslands
        if countsBuffer.count < maxSize + 1 {
            countsBuffer.append(contentsOf: repeatElement(0, count: maxSize + 1 - countsBuffer.count))
        }
        orderBuffer.append(contentsOf: repeatElement(0, count: smallCount))
        countsBuffer.withUnsafeMutableBufferPointer { counts in
        orderBuffer.withUnsafeMutableBufferPointer { order in
            func size(_ isl: Int) -> Int {
                Int(ib.groupContactStart[isl + 1] - ib.groupContactStart[isl] + ib.groupBodyStart[isl + 1] - ib.groupBodyStart[isl])
            }
            for k in 0...maxSize { counts[k] = 0 }
            for isl in 0..<ib.groupCount where Int(ib.groupContactStart[isl + 1] - ib.groupContactStart[isl]) < 512 * workers {
                counts[size(isl)] += 1
            }
            // First slot of each size, sizes in decreasing order.
            var next: Int32 = 0
            for k in stride(from: maxSize, through: 0, by: -1) { let c = counts[k]; counts[k] = next; next += c }
            for isl in 0..<ib.groupCount where Int(ib.groupContactStart[isl + 1] - ib.groupContactStart[isl]) < 512 * workers {
                let k = size(isl)
                order[Int(counts[k])] = Int32(isl)
                counts[k] += 1
            }
        }}
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
                                 kinematicSleepTime: settings.isSleepEnabled ? settings.timeToSleep : .infinity,
                                 maxLinearSpeed: settings.maxLinearSpeed,
                                 continuous: settings.isContinuousEnabled, fastCount: fastCounter)
            fastCounter.reset()
            // Each body is written only by the worker owning its slot range.
            Parallel.forRanges(workers: stepWorkers, count: nb, minPerWorker: parallelMin(512), v)
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
struct BodyFinalize: RangeTask, @unchecked Sendable {
    var sims: UnsafeMutablePointer<BodySim>
    var states: UnsafeMutablePointer<BodyState>
    var metas: UnsafeMutablePointer<BodyMeta>
    var dt: Float
    var linTol: Float
    var angTol: Float
    /// Resting kinematic bodies sleep alone after this long (infinity: sleeping is off).
    var kinematicSleepTime: Float
    /// `WorldSettings.maxLinearSpeed`: also enforced after the solve, where joints and
    /// contacts may have pushed a body past it (on the velocity and on the step's move), as
    /// is `World.maxAngularSpeed`.
    var maxLinearSpeed: Float
    /// Whether fast bodies are flagged for the continuous step, and how many were.
    var continuous: Bool
    unowned(unsafe) var fastCount: FastCounter

    func run(_ r: Range<Int>, part: Int) { finalize(r) }

    func finalize(_ r: Range<Int>) {
        for i in r where metas[i].alive && metas[i].type != .static && metas[i].awake {
            var sim = sims[i]
            var st = states[i]
            if metas[i].type == .kinematic {
                st.dp = dt * st.v
                st.dq = Rot.identity.integrated(dt * st.w)
            }
            // No body moves farther in a step than the speed limit allows: the solve's
            // sub-steps may run faster than the limit (contacts and joints act after the
            // limit is applied), and a move of 10¹⁷ pt loses the body's placement to rounding.
            let maxMove = maxLinearSpeed * dt
            let moveSq = lengthSquared(st.dp)
            if moveSq > maxMove * maxMove { st.dp *= maxMove / moveSq.squareRoot() }
            let center = sim.center + st.dp
            let qn = st.dq.mul(sim.xf.q).normalized
            // The step's start stays in center0 for the continuous step.
            sim.center0 = sim.center
            if center.isFinite && qn.c.isFinite && qn.s.isFinite && st.v.isFinite && st.w.isFinite {
                sim.center = center
                sim.xf.q = qn
                sim.xf.p = center - qn.rotate(sim.localCenter)
            } else {
                // Never let a NaN enter the world: keep the last good placement, stop the body.
                st.v = .zero; st.w = 0
            }
            // The speed limit holds after the solve too (a stiff joint can exceed it).
            let speedSq = lengthSquared(st.v)
            if speedSq > maxLinearSpeed * maxLinearSpeed { st.v *= maxLinearSpeed / speedSq.squareRoot() }
            // And so does `World.maxAngularSpeed`: a body of tiny inertia hit by a contact spun
            // at 10²⁰ rad/s, and its rotation's integration lost all precision.
            if abs(st.w) > World.maxAngularSpeed { st.w = st.w > 0 ? World.maxAngularSpeed : -World.maxAngularSpeed }
            let fast = continuous && metas[i].type == .dynamic && lengthSquared(st.dp) > 0.25 * sim.coreRadius * sim.coreRadius
            if fast { fastCount.add(1) }
            metas[i].isFast = fast
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

/// The solve's colouring pass: task `t` colours islands `chunk·t ..< chunk·(t + 1)`.
struct IslandColoringTask: RangeTask, @unchecked Sendable {
    let coloring: IslandColoring
    let islands: Int
    let chunk: Int

    func run(_ r: Range<Int>, part: Int) {
        for task in r {
            for isl in (task * chunk)..<min(islands, (task + 1) * chunk) { coloring.color(island: isl) }
        }
    }
}

/// The solve's pipeline stages (big islands' colour batches, small islands, impulse stores).
struct SolveStages: StageExecutor, @unchecked Sendable {
    let views: SolverViews
    let smallIslands: UnsafePointer<Int32>
    func execute(_ stage: Stage, _ block: Int) {
        views.execute(stage, block: block, smallIslands: smallIslands)
    }
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
        mutating get {
            // No storage (the shared empty array): nothing to make unique — asking for a mutable
            // buffer would replace it with a new empty one on every call.
            if capacity == 0 { return UnsafeMutablePointer(bitPattern: 64)! }
            return withUnsafeMutableBufferPointer { $0.baseAddress } ?? UnsafeMutablePointer(bitPattern: 64)!
        }
    }
    /// `baseOrDummyMutable` with the count: the elements in place, under the same rule.
    @inline(__always) var mutableBufferInPlace: UnsafeMutableBufferPointer<Element> {
        mutating get { UnsafeMutableBufferPointer(start: baseOrDummyMutable, count: count) }
    }
}

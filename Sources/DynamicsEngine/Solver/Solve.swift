import DynamicsSolverKernels

extension World {
    /// Solves this step's islands; `keptIslands`: they are last step's, and so are their
    /// colouring and batch layout.
    func solve(_ ctx: StepContext, keptIslands: Bool) {
        continuous.fastCounter.reset()
        solver.finalizedInSolve = false
        // The islands in place (`islands` is exclusivity-unchecked and only read below): a
        // local copy would retain and release each of its buffers.
        solve(ctx, keptIslands: keptIslands, &islands)
    }

    private func solve(_ ctx: StepContext, keptIslands: Bool, _ ib: inout IslandBuilder) {
        // Islands without a contact or a joint on one worker (a body in flight): the bodies'
        // own stages are the whole solve.
        if ctx.workers == 1 && ib.contactsInIslands == 0 && ib.jointsInIslands == 0 {
            solveUnconstrained(ctx, &ib)
            return
        }
        // The step's numbers, worked out once by the step context.
        let numbers = ctx.numbers
        let soft = numbers.contactSoftness, staticSoft = numbers.staticSoftness, jointCtx = numbers.jointContext
        // The solver works on solve groups of islands (see `IslandBuilder.groupCount`).
        let nj = ib.groupCount > 0 ? Int(ib.groupJointStart[ib.groupCount]) : 0
        let workers = ctx.workers
        scheduleIslands(workers: workers)
        let solveStart = options.isProfiling ? StepProfile.now() : 0
        var prepareEnd = solveStart
        defer { if options.isProfiling { profile.prepare += prepareEnd - solveStart; profile.solve -= prepareEnd - solveStart } }
        // 1. Colour the islands (each one task; they read only the contacts' bodies) and lay
        // out their batches — unless the islands are last step's, whose colours and layout
        // still hold. (The contacts and bodies are not resized during the solve.)
        let overflowCount: Int
        if keptIslands && ib.colored {
            overflowCount = ib.groupCount > 0 ? Int(batches.overflowStart[ib.groupCount]) : 0
        } else {
            let coloring = batches.coloring(islands: &ib, links: ctx.links.readOnly, metas: ctx.metas.readOnly,
                                            bodyCount: Int(bodySlots.count))
            let islandChunk = 8
            Parallel.forChunks(workers: workers, count: (ib.groupCount + islandChunk - 1) / islandChunk, chunkSize: 1,
                               IslandColoringTask(coloring: coloring, islands: ib.groupCount, chunk: islandChunk))
            overflowCount = batches.layout(islands: &ib)
            if nj > 0 {
                batches.joints.color(islands: &ib, joints: joints.view, metas: ctx.metas.readOnly, bodyCount: Int(bodySlots.count),
                                     workers: workers)
            }
            ib.colored = true
        }
        if options.isProfiling { profile.coloring += StepProfile.now() - solveStart }
        if solver.constraints.count < overflowCount {
            solver.constraints.append(contentsOf: repeatElement(ContactConstraint(), count: overflowCount - solver.constraints.count))
        }
        let dataP = ctx.contactData
        let cons = solver.constraints.mutableView, jointsP = joints.mutableView
        do {
            let contactList = ib.contactList.view
            let simsP = ctx.sims, statesP = ctx.states
            let metasP = ctx.metas.readOnly, contactsP = ctx.contacts.readOnly
            let overflowP = batches.overflow.view
            let bounce = ctx.bounce, rolling = ctx.rolling
            bounce.clear()
            rolling.clear()
            // 2. The overflow constraints (rare: a body in more than `colorCount` contacts of one
            // island) as scalar constraints, then every batch straight from the world.
            for k in 0..<overflowCount {
                let contact = contactsP[Int(contactList[Int(overflowP[k])])]
                ContactSolver.prepare(&cons[k], contact: contact, data: dataP.readOnly,
                                      sims: simsP.readOnly, states: statesP.readOnly, metas: metasP, soft: soft, staticSoft: staticSoft)
                if contact.restitution > 0 { bounce.set() }
                if cons[k].rollingResistance > 0 { rolling.set() }
            }
            let source = WideContactSolver.source(contacts: contactsP, data: dataP.readOnly, sims: simsP.readOnly,
                                                  states: statesP.readOnly, metas: metasP, padBody: boundaryBody)
            batches.prepare(islands: &ib, source: source, workers: workers, bounce: bounce, rolling: rolling,
                            prefetches: ib.contactsInIslands >= options.prefetchingContacts)
            if options.repeatPrepare > 0 {
                // `DYNAMICS_REPEAT_PREPARE`: the same preparation again, from the same inputs
                // to the same outputs, as real work that makes the step slower and changes no
                // result (a slower build for calibrating the speed gate).
                counters.repeatPrepareCarry += options.repeatPrepare
                let extra = Int(counters.repeatPrepareCarry)
                counters.repeatPrepareCarry -= Double(extra)
                for _ in 0..<extra {
                    batches.prepare(islands: &ib, source: source, workers: workers, bounce: bounce, rolling: rolling,
                                    prefetches: ib.contactsInIslands >= options.prefetchingContacts)
                }
                counters.repeatedPreparations += extra
            }
            let jointList = ib.jointList.view
            // (Each joint's preparation writes only its own record: chunks on any worker.)
            // The joint batches (`ColoredJoints.wide`; their layout is kept with the colours, and
            // there is none without joints) are prepared straight from the records; the other
            // joints in their records.
            let jointBatchCount = nj > 0 ? batches.joints.wideCount : 0
            let jointBatchesP = batches.joints.wide.mutableView
            let prep = JointPreparation(joints: jointsP, list: jointList, inLanes: jointBatchCount > 0 ? batches.joints.inLanes.view : View(),
                                        sims: simsP.readOnly, metas: metasP, ctx: jointCtx)
            if workers > 1 && nj >= 1024 { Parallel.forChunks(workers: workers, count: nj, chunkSize: 512, prep) } else { prep.run(0..<nj, part: 0) }
            if jointBatchCount > 0 {
                let wide = WideJointPreparation(batches: jointBatchesP, joints: jointsP.readOnly, sims: simsP.readOnly, metas: metasP,
                                                ctx: jointCtx, pad: boundaryBody)
                if workers > 1 && jointBatchCount >= 256 {
                    Parallel.forChunks(workers: workers, count: jointBatchCount, chunkSize: 128, wide)
                } else {
                    wide.run(0..<jointBatchCount, part: 0)
                }
            }
            if options.isProfiling { prepareEnd = StepProfile.now() }
            // (The batches' buffers read in place: a local copy of `batches` would retain each.)
            let batchCount = ib.groupCount > 0 ? Int(batches.wideStart[ib.groupCount]) : 0
            let views = SolverViews(
                step: ctx, constraints: cons,
                wide: batches.wide.mutableView, extra: batches.wideExtra.mutableView,
                wideStart: batches.wideStart.view, colorStart: batches.colorStart.view,
                overflowStart: batches.overflowStart.view,
                batchCount: batchCount, overflow: overflowP,
                joints: jointsP, jointOrder: batches.joints.order.view, jointColorStart: batches.joints.colorStart.view,
                jointBatches: jointBatchesP, jointWideStart: batches.joints.wideStart.view,
                jointWideFrom: batches.joints.wideFrom.view,
                jointStep: DKJointStep(invH: jointCtx.invH, soft: DKSoftness(biasRate: jointCtx.jointSoftness.biasRate,
                                                                             massScale: jointCtx.jointSoftness.massScale,
                                                                             impulseScale: jointCtx.jointSoftness.impulseScale)),
                groups: ib.groups, subSteps: numbers.subSteps, h: numbers.h, invH: numbers.invH,
                maxBiasVelocity: settings.maxContactPushSpeed,
                softness: WideContactSolver.LaneSoftness(soft: soft, staticSoft: staticSoft),
                restitutionThreshold: settings.restitutionThreshold,
                maxLinearSpeed: settings.maxLinearSpeed, jointContext: jointCtx, anyRestitution: bounce.isSet,
                anyRolling: rolling.isSet,
                finalize: bodyFinalize(ctx, bodies: ib.bodies.view, skipsDynamic: false))
            solver.finalizedInSolve = true
            if workers == 1 {
                var fast = 0
                for isl in 0..<ib.groupCount { fast += views.solveIsland(isl) }
                views.finalize.count(fastBodies: fast)
                views.store(0..<(batchCount + overflowCount))
                views.storeJoints(0..<jointBatchCount)
            } else {
                // One pipeline: the big islands' stages (each split into blocks), then the small
                // islands claimed whole, then storing impulses.
                let smallIslands = solver.smallIslands, bigIslands = solver.bigIslands
                ctx.pipeline.stages.removeAllKeepingCapacity()
                for k in 0..<bigIslands.count { views.appendStages(island: Int(bigIslands[k]), workers: workers, to: ctx.pipeline.stages) }
                if !smallIslands.isEmpty {
                    // Islands claimed a few at a time (largest first): one claim per island would make
                    // the workers contend on the pipeline's counter.
                    let perClaim = max(1, min(8, smallIslands.count / (workers * 32)))
                    ctx.pipeline.stages.append(Stage(kind: SolverViews.StageKind.smallIslands.rawValue, pass: 0, island: -1,
                                                 begin: 0, end: Int32(smallIslands.count), blockSize: Int32(perClaim)))
                }
                if batchCount + overflowCount > 0 {
                    ctx.pipeline.stages.append(Stage(kind: SolverViews.StageKind.store.rawValue, pass: 0, island: -1,
                                                 begin: 0, end: Int32(batchCount + overflowCount), blockSize: 256))
                }
                if jointBatchCount > 0 {
                    ctx.pipeline.stages.append(Stage(kind: SolverViews.StageKind.storeJoints.rawValue, pass: 0, island: -1,
                                                 begin: 0, end: Int32(jointBatchCount), blockSize: 256))
                }
                ctx.pipeline.run(workers: workers, SolveStages(views: views, smallIslands: smallIslands.view))
            }
            // Never let a NaN stay in a joint (the bodies' guard is `BodyFinalize`'s): a joint
            // no solve can satisfy, its bodies held at the speed limit, pushes harder every
            // sub-step until its accumulated impulse overflows. Such an impulse is dropped and
            // the joint starts its next step cold; a world's snapshot holds no NaN.
            // (The joints in lanes were checked as their batches gave their impulses back.)
            let checked = prep.inLanes
            for k in 0..<nj where (checked.isEmpty || !checked[k]) && !jointsP[Int(jointList[k])].impulsesAreFinite {
                jointsP[Int(jointList[k])].clearImpulses()
            }
        }
    }

    /// The solve of islands that hold no contact and no joint, on one worker: every sub-step
    /// only integrates the bodies, as `SolverViews.solveIsland` does for such islands (same
    /// stages, same arithmetic; body by body, as nothing couples them), without the colouring, the batch
    /// preparation and the solver's views, which would find nothing to do. The islands stay
    /// uncoloured (`IslandBuilder.colored`) until a solve with constraints colours them.
    private func solveUnconstrained(_ ctx: StepContext, _ ib: inout IslandBuilder) {
        counters.unconstrainedSolves += 1
        let numbers = ctx.numbers
        let run = BodyIntegration(sims: ctx.sims, states: ctx.states, bodies: ib.bodies.view, h: numbers.h, invH: numbers.invH,
                                  maxLinearSpeed: settings.maxLinearSpeed)
        // Nothing couples the bodies of these islands: each takes its whole step alone.
        guard ib.groupCount > 0 else { return }
        run.unconstrainedSteps(0..<Int(ib.groupBodyStart[ib.groupCount]), subSteps: numbers.subSteps)
    }

    /// Splits this step's islands into those solved by all workers together (many colour
    /// batches) and those solved whole by one worker (largest first, for balance). The split
    /// changes only who does the work, never the arithmetic.
    func scheduleIslands(workers: Int) {
        // (One worker reads neither list: a small world's step does not touch them.)
        guard workers > 1 else { return }
        // (Each only when needed: a call on an empty array still costs a release.)
        if !solver.smallIslands.isEmpty { solver.smallIslands.removeAllKeepingCapacity() }
        if !solver.bigIslands.isEmpty { solver.bigIslands.removeAllKeepingCapacity() }
        let ib = islands  // (only with several workers)
        // Small islands, largest first (ties by index), so long islands do not end up last on
        // one worker: a counting sort on the size (contacts + bodies) into reused buffers (the
        // standard library's sort allocates its merge buffer on every call).
        // An island of at least 512 constraints (contacts and joints) a worker is split into
        // stages over the workers; a smaller one is solved whole by one worker.
        @inline(__always) func constraints(_ isl: Int) -> Int {
            Int(ib.groupContactStart[isl + 1] - ib.groupContactStart[isl] + ib.groupJointStart[isl + 1] - ib.groupJointStart[isl])
        }
        var maxSize = 0
        for isl in 0..<ib.groupCount {
            let n = constraints(isl)
            if n >= 512 * workers { solver.bigIslands.append(Int32(isl)); continue }
            maxSize = max(maxSize, n + Int(ib.groupBodyStart[isl + 1] - ib.groupBodyStart[isl]))
        }
        let smallCount = ib.groupCount - solver.bigIslands.count
        guard smallCount > 0 else { return }
        let countsBuffer = solver.sizeCounts, orderBuffer = solver.smallIslands
        if countsBuffer.count < maxSize + 1 {
            countsBuffer.append(contentsOf: repeatElement(0, count: maxSize + 1 - countsBuffer.count))
        }
        orderBuffer.append(contentsOf: repeatElement(0, count: smallCount))
        do {
            let counts = countsBuffer.mutableView, order = orderBuffer.mutableView
            func size(_ isl: Int) -> Int { constraints(isl) + Int(ib.groupBodyStart[isl + 1] - ib.groupBodyStart[isl]) }
            for k in 0...maxSize { counts[k] = 0 }
            for isl in 0..<ib.groupCount where constraints(isl) < 512 * workers {
                counts[size(isl)] += 1
            }
            // First slot of each size, sizes in decreasing order.
            var next: Int32 = 0
            for k in stride(from: maxSize, through: 0, by: -1) { let c = counts[k]; counts[k] = next; next += c }
            for isl in 0..<ib.groupCount where constraints(isl) < 512 * workers {
                let k = size(isl)
                order[Int(counts[k])] = Int32(isl)
                counts[k] += 1
            }
        }
    }

}

/// The joints' preparation for the step, for joints `list[r]` but those in lanes (`inLanes`,
/// per list position; empty when there are none), which their batches prepare.
struct JointPreparation: RangeTask, @unchecked Sendable {
    let joints: MutableView<JointRecord>
    let list: View<Int32>
    let inLanes: View<Bool>
    let sims: View<BodySim>
    let metas: View<BodyMeta>
    let ctx: JointSolver.Context

    func run(_ r: Range<Int>, part: Int) {
        for k in r where inLanes.isEmpty || !inLanes[k] {
            JointSolver.prepare(&joints[Int(list[k])], sims: sims, metas: metas, ctx: ctx)
        }
    }
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
    let smallIslands: View<Int32>
    func execute(_ stage: Stage, _ block: Int) {
        views.execute(stage, block: block, smallIslands: smallIslands)
    }
}

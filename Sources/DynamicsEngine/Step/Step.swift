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
        contacts.startStepEvents()
        guard dt > 0 else { return }
        isStepping = true
        // Bodies move: the queries check the grids' boxes again before they read them.
        queryIndex.isStale = true
        defer { isStepping = false }

        let profiling = options.isProfiling
        // A world asleep that no call changed since it fell asleep: nothing to do.
        if isAsleep {
            #if DEBUG
            let takeAsleepStep = rest.takesStepsInDebug
            #else
            let takeAsleepStep = true
            #endif
            if takeAsleepStep {
                // A full step would solve no island (`islandCount` reads 0 after it). The last
                // full step put every island it had to sleep, which marked them for a rebuild,
                // so the next full step rebuilds them whatever the count says.
                assert(islands.dirty || islands.count == 0, "a world asleep kept islands that are not rebuilt")
                assert(rest.pendingTimerSteps == 0, "a world asleep has sleep timers a step at rest only counted")
                islands.count = 0
                counters.asleepSteps += 1
                if profiling { profile.steps += 1 }
                counters.stepCount += 1
                return
            }
        }
        #if DEBUG
        let wasAsleep = isAsleep
        #endif
        // A small world at an exact rest point only advances its sleep timers (`Step/StepAtRest.swift`).
        // Debug builds take the full step (unless a test asks) and check that it ends where
        // the rest step would.
        let atRest = canStepAtRest(dt: dt)
        #if DEBUG
        let takeRestStep = atRest && (rest.takesStepsInDebug || rest.settled)
        #else
        let takeRestStep = atRest
        #endif
        if takeRestStep {
            stepAtRest(dt: dt)
            if profiling { profile.steps += 1 }
            counters.stepCount += 1
            return
        }
        // (A full step reads the timers that steps at rest may only have counted.)
        if rest.quietSteps | rest.pendingTimerSteps != 0 { endQuietRestSteps() }
        let hitsBefore = counters.continuousHits
        // Contacts of islands woken since the last step join the records, in key order (the
        // broad phase reads them as the standing pairs).
        if islands.setsPending { contacts.flushWoken(); contacts.sortIn(); islands.setsPending = false }
        var t = profiling ? StepProfile.now() : 0
        @inline(__always) func lap(_ field: WritableKeyPath<StepProfile, Double>) {
            guard profiling else { return }
            let now = StepProfile.now()
            profile[keyPath: field] += now - t
            t = now
        }
        startStepContext(dt: dt)
        let ctx = stepContext
        findPairs(ctx)
        lap(\.broadPhase)
        mergeContacts(ctx)
        // (Only a merge changes the contact columns during a step.)
        if broadPhase.pairsChanged { ctx.refreshContacts(self) }
        lap(\.merge)
        updateContacts(ctx)
        collectContactChanges()
        wakeJointedBodies()
        // The contacts of islands woken just now join this step's islands and solve.
        if islands.setsPending {
            contacts.flushWoken()
            ctx.refreshContacts(self)
        }
        lap(\.narrowPhase)
        let keptIslands = buildIslands(ctx)
        lap(\.islands)
        solve(ctx, keptIslands: keptIslands)
        lap(\.solve)
        let moved = finalizeBodies(ctx)
        solveContinuous(ctx, bodies: moved)
        collectBeginEvents()
        lap(\.finalize)
        #if DEBUG
        // (Unless an island or a kinematic body just fell asleep, which a step at rest does too.)
        if atRest && !islands.dirty && !kinematicSleptSinceRestCopy() {
            assert(restSnapshotMatches(bitwise: false) && counters.continuousHits - hitsBefore == rest.hits,
                   "a step from an exact rest point changed the world: the rest copy misses something a step reads")
        }
        #endif
        if islands.setsPending || islands.sleptThisStep > 0 { settleSleepingSets(retiring: islands.sleptThisStep > 0) }
        recordRest(ctx, hits: counters.continuousHits - hitsBefore)
        #if DEBUG
        if wasAsleep {
            assert(!anyBodyAwake() && !contacts.hasEvents && !broadPhase.pairsChanged && counters.continuousHits == hitsBefore,
                   "a step of a world asleep changed it: a call changed the world without stateChanged(), or a sleeping body is simulated")
        }
        #endif
        recordAsleep()
        if profiling { profile.steps += 1 }
        counters.stepCount += 1
    }

    /// After a full step: notes whether the world is now asleep (no awake body, nothing
    /// pending), so that the steps that follow do nothing until a call changes it. Looks at
    /// the bodies only when no island is left awake.
    func recordAsleep() {
        rest.asleepGeneration = .max
        guard islands.sleptThisStep == islands.count || islands.count == 0 else { return }
        guard !broadPhase.dirty, !broadPhase.shapesChanged, !broadPhase.staticDirty, !contacts.hasPendingEvents, !anyBodyAwake() else { return }
        rest.asleepGeneration = rest.stateGeneration
    }

    /// A joint between an awake and a sleeping body wakes the sleeping one. (Both: their
    /// timers start again together, so a body jointed to a kinematic one that sleeps alone
    /// falls asleep with it.)
    func wakeJointedBodies() {
        guard jointCount > 0 else { return }
        // The awake list up to date and holding every moving body: none sleeps, and no joint
        // can join an awake body to a sleeping one (a world that never sleeps, as Box2D's
        // joint_grid, reads none of its joints here).
        let noneAsleep = !islands.awakeStale && !islands.awakeUnsorted && !islands.awakeMayShrink
            && islands.awake.count == movingBodyCount
        assert(!noneAsleep || !metas.view.indices.contains { metas[$0].alive && metas[$0].type != .static && !metas[$0].awake },
               "every moving body is in the awake list, yet one sleeps: movingBodyCount is off")
        if noneAsleep { return }
        // (Joints with an awake body: others join two sleeping or static bodies, read by their
        // links. Waking appends the woken bodies' joints to the list, not to its links: the
        // loop covers the joints the list held before.)
        let count = awakeJointList().count
        let links = islands.awakeJointLinks.view
        for k in 0..<count {
            let a = Int(links[k].x), b = Int(links[k].y)
            let da = metas[a].type != .static, db = metas[b].type != .static
            if da && db && metas[a].awake != metas[b].awake { wakeBody(a); wakeBody(b) }
        }
    }
}

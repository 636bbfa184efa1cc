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

        findPairs(dt: dt)
        mergeContacts()
        updateContacts(dt: dt, range: 0..<contacts.count)
        collectContactChanges()
        wakeJointedBodies()
        buildIslands()
        solve(dt: dt)
        finalizeBodies(dt: dt)
        collectBeginEvents()
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
        let nc = islands.contactList.count > 0 ? Int(islands.contactStart[islands.count]) : 0
        if solver.constraints.count < nc {
            solver.constraints.append(contentsOf: repeatElement(ContactConstraint(), count: nc - solver.constraints.count))
        }
        let nj = islands.count > 0 ? Int(islands.jointStart[islands.count]) : 0
        let ctx = JointSolver.Context(h: h, invH: 1 / h, jointSoftness: jointSoft)
        sims.withUnsafeMutableBufferPointer { simsB in
        states.withUnsafeMutableBufferPointer { statesB in
        metas.withUnsafeBufferPointer { metasB in
        solver.constraints.withUnsafeMutableBufferPointer { consB in
        joints.withUnsafeMutableBufferPointer { jointsB in
        contacts.withUnsafeMutableBufferPointer { contactsB in
        islands.bodies.withUnsafeBufferPointer { bodiesB in
        islands.bodyStart.withUnsafeBufferPointer { bodyStartB in
        islands.contactStart.withUnsafeBufferPointer { contactStartB in
        islands.contactList.withUnsafeBufferPointer { contactListB in
        islands.jointList.withUnsafeBufferPointer { jointListB in
        islands.jointStart.withUnsafeBufferPointer { jointStartB in
            // Prepare contacts and joints.
            for k in 0..<nc {
                ContactSolver.prepare(&consB[k], contact: contactsB[Int(contactListB[k])], sims: simsB.baseAddress!,
                                      states: statesB.baseAddress!, metas: metasB.baseAddress!, soft: soft, staticSoft: staticSoft)
            }
            for k in 0..<nj {
                JointSolver.prepare(&jointsB[Int(jointListB[k])], sims: simsB.baseAddress!, metas: metasB.baseAddress!, ctx: ctx)
            }
            batches.build(islands: islands, constraints: consB.baseAddress!, bodyCount: Int(bodySlots.count), padBody: boundaryBody)
            // Index arrays through local references: `batches.wide` is borrowed mutably below.
            let wideStart = batches.wideStart, overflow = batches.overflow, overflowStart = batches.overflowStart
            batches.wide.withUnsafeMutableBufferPointer { wideB in
            wideStart.withUnsafeBufferPointer { wideStartB in
            overflow.withUnsafeBufferPointer { overflowB in
            overflowStart.withUnsafeBufferPointer { overflowStartB in
            let views = SolverViews(
                sims: simsB.baseAddress!, states: statesB.baseAddress!, metas: metasB.baseAddress!,
                constraints: consB.baseAddress!,
                wide: wideB.baseAddress ?? UnsafeMutablePointer(bitPattern: 16)!, wideStart: wideStartB.baseAddress!,
                overflow: overflowB.baseAddress ?? UnsafePointer(bitPattern: 16)!, overflowStart: overflowStartB.baseAddress!,
                joints: jointsB.baseAddress!,
                bodies: bodiesB.baseAddress!, bodyStart: bodyStartB.baseAddress!,
                contactStart: contactStartB.baseAddress!, jointList: jointListB.baseAddress!,
                jointStart: jointStartB.baseAddress!, subSteps: n, h: h, invH: 1 / h,
                maxBiasVelocity: settings.maxContactPushSpeed, restitutionThreshold: settings.restitutionThreshold,
                maxLinearSpeed: settings.maxLinearSpeed, jointContext: ctx)
            for isl in 0..<islands.count { views.solveIsland(isl) }
            }}}}
            // Store impulses for warm starting and events.
            for k in 0..<nc { ContactSolver.store(consB[k], into: &contactsB[Int(contactListB[k])]) }
        }}}}}}}}}}}}
    }

    /// Applies each solved body's position change, moves kinematic bodies, clears forces,
    /// updates sleep timers and puts resting islands to sleep.
    func finalizeBodies(dt: Float) {
        let linTol = settings.sleepLinearThreshold, angTol = settings.sleepAngularThreshold
        let nb = Int(bodySlots.count)
        sims.withUnsafeMutableBufferPointer { simsB in
        states.withUnsafeMutableBufferPointer { statesB in
        metas.withUnsafeMutableBufferPointer { metasB in
            for i in 0..<nb where metasB[i].alive && metasB[i].type != .static && metasB[i].awake {
                var sim = simsB[i]
                var st = statesB[i]
                if metasB[i].type == .kinematic {
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
                if !metasB[i].allowSleep || lengthSquared(st.v) > linTol * linTol || abs(st.w) > angTol {
                    metasB[i].sleepTime = 0
                } else {
                    metasB[i].sleepTime += dt
                }
                simsB[i] = sim
                statesB[i] = st
            }
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
        // Resting kinematic bodies sleep alone.
        for i in 0..<Int(bodySlots.count) where metas[i].alive && metas[i].type == .kinematic && metas[i].awake {
            if metas[i].sleepTime >= settings.timeToSleep {
                metas[i].awake = false
                metas[i].sleepNext = Int32(i)
            }
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

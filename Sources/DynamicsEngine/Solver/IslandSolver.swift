/// Reusable per-step solver buffers.
struct SolverScratch {
    var constraints: [ContactConstraint] = []
    var cursor: [Int32] = []
}

/// Raw views of the world's arrays for one step's solve. Valid only inside `World.solve`;
/// islands touch disjoint bodies, contacts and joints, so islands may be solved concurrently.
struct SolverViews: @unchecked Sendable {
    var sims: UnsafeMutablePointer<BodySim>
    var states: UnsafeMutablePointer<BodyState>
    var metas: UnsafePointer<BodyMeta>
    var constraints: UnsafeMutablePointer<ContactConstraint>
    var wide: UnsafeMutablePointer<WideContact>
    var wideStart: UnsafePointer<Int32>
    var overflow: UnsafePointer<Int32>
    var overflowStart: UnsafePointer<Int32>
    var joints: UnsafeMutablePointer<JointRecord>
    var bodies: UnsafePointer<Int32>
    var bodyStart: UnsafePointer<Int32>
    var contactStart: UnsafePointer<Int32>
    var jointList: UnsafePointer<Int32>
    var jointStart: UnsafePointer<Int32>
    var subSteps: Int
    var h: Float
    var invH: Float
    var maxBiasVelocity: Float
    var restitutionThreshold: Float
    var maxLinearSpeed: Float
    var jointContext: JointSolver.Context

    /// Solves island `isl` for the whole step: sub-steps, restitution.
    func solveIsland(_ isl: Int) {
        let b0 = Int(bodyStart[isl]), b1 = Int(bodyStart[isl + 1])
        let c0 = Int(contactStart[isl]), c1 = Int(contactStart[isl + 1])
        let j0 = Int(jointStart[isl]), j1 = Int(jointStart[isl + 1])
        let w0 = Int(wideStart[isl]), w1 = Int(wideStart[isl + 1])
        let o0 = Int(overflowStart[isl]), o1 = Int(overflowStart[isl + 1])
        let h = self.h
        let maxSpeedSq = maxLinearSpeed * maxLinearSpeed
        let maxAngularSpeed = 0.25 * Float.pi * invH
        for _ in 0..<subSteps {
            // Integrate velocities: gravity, forces, damping.
            for k in b0..<b1 {
                let b = Int(bodies[k])
                let sim = sims[b]
                var st = states[b]
                let linDamp = 1 / (1 + h * sim.linearDamping)
                let angDamp = 1 / (1 + h * sim.angularDamping)
                st.v = linDamp * (st.v + h * (sim.invMass * sim.force + sim.gravity))
                st.w = angDamp * (st.w + h * sim.invInertia * sim.torque)
                let sp = lengthSquared(st.v)
                if sp > maxSpeedSq { st.v *= maxLinearSpeed / sp.squareRoot() }
                // At most a quarter turn per sub-step: the linearised contacts stay valid.
                if abs(st.w) > maxAngularSpeed { st.w = st.w > 0 ? maxAngularSpeed : -maxAngularSpeed }
                states[b] = st
            }
            for k in j0..<j1 { JointSolver.warmStart(&joints[Int(jointList[k])], states) }
            for k in w0..<w1 { WideContactSolver.warmStart(&wide[k], states) }
            for k in o0..<o1 { ContactSolver.warmStart(&constraints[Int(overflow[k])], states) }
            for k in j0..<j1 { JointSolver.solve(&joints[Int(jointList[k])], states, ctx: jointContext, useBias: true) }
            for k in w0..<w1 {
                WideContactSolver.solve(&wide[k], states, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: true)
            }
            for k in o0..<o1 {
                ContactSolver.solve(&constraints[Int(overflow[k])], states, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: true)
            }
            // Integrate positions (as deltas from the start of the step).
            for k in b0..<b1 {
                let b = Int(bodies[k])
                var st = states[b]
                st.dq = st.dq.integrated(h * st.w)
                st.dp += h * st.v
                states[b] = st
            }
            for k in j0..<j1 { JointSolver.solve(&joints[Int(jointList[k])], states, ctx: jointContext, useBias: false) }
            for k in w0..<w1 {
                WideContactSolver.solve(&wide[k], states, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: false)
            }
            for k in o0..<o1 {
                ContactSolver.solve(&constraints[Int(overflow[k])], states, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: false)
            }
        }
        // Impulses back to the scalar constraints, then restitution once, in constraint order.
        for k in w0..<w1 {
            let index = wide[k].index
            for l in 0..<4 where index[l] >= 0 { wide[k].unload(lane: l, into: &constraints[Int(index[l])]) }
        }
        for k in c0..<c1 { ContactSolver.applyRestitution(&constraints[k], states, threshold: restitutionThreshold) }
    }
}

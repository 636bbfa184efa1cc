import DynamicsSolverKernels
import Synchronization

/// Views of the world's arrays for one step's solve. Valid only inside `World.solve`.
///
/// Concurrency: islands touch disjoint bodies, contacts and joints, so different islands may
/// be solved on different threads. Inside one island, the parallel stages touch a body range
/// (integration), a range of one colour's batches or of one joint colour's joints (no dynamic
/// body repeats within a colour); the joints without a colour, the overflow constraints and
/// restitution run on one thread.
/// The arithmetic and its order per body are the same as in the serial `solveIsland`, so the
/// result does not depend on the number of workers.
struct SolverViews: @unchecked Sendable {
    /// The bodies (their states are what the passes solve), the contacts and their manifolds
    /// (where `store` puts the impulses).
    unowned(unsafe) var step: StepContext
    var constraints: MutableView<ContactConstraint>
    var wide: MutableView<WideContact>
    var extra: MutableView<WideExtra>
    var wideStart, colorStart, overflowStart: View<Int32>
    /// The step's batch count (store items past it are overflow constraints), the overflow
    /// constraints' positions in the contact list, and where impulses go.
    var batchCount: Int
    var overflow: View<Int32>
    var joints: MutableView<JointRecord>
    /// The joints in solve order and each group's colours (`ColoredJoints`).
    var jointOrder, jointColorStart: View<Int32>
    /// The joint batches and where each group's colours have theirs (`ColoredJoints.wide`,
    /// `wideStart`, `wideFrom`), and the constants of their passes.
    var jointBatches: MutableView<WideJoint>
    var jointWideStart, jointWideFrom: View<Int32>
    var jointStep: DKJointStep
    var groups: SolveGroups
    var subSteps: Int
    var h, invH: Float
    var maxBiasVelocity: Float
    var softness: WideContactSolver.LaneSoftness
    var restitutionThreshold: Float
    var maxLinearSpeed: Float
    var jointContext: JointSolver.Context
    /// Whether any contact of this step has restitution; without, the restitution pass is skipped
    /// (it would change nothing).
    var anyRestitution: Bool
    /// Whether any contact of this step has rolling resistance; without, the rolling rows are
    /// skipped (they would change nothing).
    var anyRolling: Bool
    /// Each island's bodies are finalized right after its solve, on the thread that solved it
    /// (positions applied, sleep timers advanced: `BodyFinalize`, over island body list entries).
    var finalize: BodyFinalize

    // MARK: Stages

    /// Gravity, forces and damping for island body list entries `r`.
    @inline(__always)
    func integrateVelocities(_ r: Range<Int>) { integration.velocities(r) }

    /// Position and rotation change (as deltas from the start of the step).
    @inline(__always)
    func integratePositions(_ r: Range<Int>) { integration.positions(r) }

    /// The bodies' own stages, as the lean solve (`World.solveUnconstrained`) runs them too.
    @inline(__always)
    var integration: BodyIntegration {
        BodyIntegration(sims: step.sims, states: step.states, bodies: groups.bodies, h: h, invH: invH, maxLinearSpeed: maxLinearSpeed)
    }

    /// The three constraint passes of a sub-step.
    enum Pass: UInt8 { case warmStart, solve, relax }

    @inline(__always)
    func joints(_ pass: Pass, _ r: Range<Int>) {
        for k in r {
            let j = Int(jointOrder[k])
            switch pass {
            case .warmStart: JointSolver.warmStart(&joints[j], step.states)
            case .solve: JointSolver.solve(&joints[j], step.states, ctx: jointContext, useBias: true)
            case .relax: JointSolver.solve(&joints[j], step.states, ctx: jointContext, useBias: false)
            }
        }
    }

    /// Joint batches `r`, all of ONE joint colour (the kernels solve two side by side).
    @inline(__always)
    func jointBatches(_ pass: Pass, _ r: Range<Int>) {
        guard !r.isEmpty else { return }
        assert(WideJoint.layoutMatches, "the engine's joint batches and the C kernels' differ in layout")
        let p = UnsafeMutableRawPointer(jointBatches.pointer(at: r.lowerBound, count: r.count))
        let s = UnsafeMutableRawPointer(step.states.pointer(at: 0, count: step.states.count))
        switch pass {
        case .warmStart: dk_joint_warm_start(p, r.count, s, step.states.count)
        case .solve: withUnsafePointer(to: jointStep) { dk_joint_solve(p, r.count, s, step.states.count, $0, 1) }
        case .relax: withUnsafePointer(to: jointStep) { dk_joint_solve(p, r.count, s, step.states.count, $0, 0) }
        }
    }

    /// Group `isl`'s joints: when it has joint batches, colour by colour — the colour's
    /// batches, then its joints solved one by one — then the joints without a colour; else
    /// `joints` in their order.
    @inline(__always)
    func joints(_ pass: Pass, island isl: Int, _ range: Range<Int>) {
        let k = ColoredBatches.colorCount
        let w = isl * ColoredJoints.wideStride
        guard jointWideStart[w + k] > jointWideStart[w] else { joints(pass, range); return }
        for q in 0..<k {
            let c = ColoredJoints.colour(q, group: isl, wideStart: jointWideStart, wideFrom: jointWideFrom,
                                         colorStart: jointColorStart)
            jointBatches(pass, c.batches)
            joints(pass, c.single)
        }
        let tail = isl * ColoredJoints.stride + k
        joints(pass, Int(jointColorStart[tail])..<Int(jointColorStart[tail + 1]))
    }

    /// Items `r` of group `isl`'s joint colour `q` as one stage splits them: its batches
    /// first, then its joints solved one by one.
    @inline(__always)
    func jointColour(_ pass: Pass, island isl: Int, colour q: Int, _ r: Range<Int>) {
        let c = ColoredJoints.colour(q, group: isl, wideStart: jointWideStart, wideFrom: jointWideFrom,
                                     colorStart: jointColorStart)
        let n = c.batches.count
        let b = r.clamped(to: 0..<n), s = r.clamped(to: n..<(n + c.single.count))
        if !b.isEmpty { jointBatches(pass, (c.batches.lowerBound + b.lowerBound)..<(c.batches.lowerBound + b.upperBound)) }
        if !s.isEmpty { joints(pass, (c.single.lowerBound + s.lowerBound - n)..<(c.single.lowerBound + s.upperBound - n)) }
    }

    /// Gives joint batches `r`'s impulses back to their joints.
    @inline(__always)
    func storeJoints(_ r: Range<Int>) {
        guard !r.isEmpty else { return }
        let p = jointBatches.pointer(at: r.lowerBound, count: r.count)
        for b in 0..<r.count { WideJoint.unpack(UnsafePointer(p + b), joints) }
    }

    /// Batches `r`, all of ONE colour (the kernels solve two batches side by side).
    @inline(__always)
    func batches(_ pass: Pass, _ r: Range<Int>) {
        guard !r.isEmpty else { return }
        assert(WideContactSolver.layoutMatches, "the engine's structures and the C kernels' differ in layout")
        // (The C kernels get the batches' and the states' addresses; they check every body
        // index against `step.states.count` in debug builds.)
        let p = UnsafeMutableRawPointer(wide.pointer(at: r.lowerBound, count: r.count))
        let s = UnsafeMutableRawPointer(step.states.pointer(at: 0, count: step.states.count))
        switch pass {
        case .warmStart: dk_wide_warm_start(p, r.count, s, step.states.count)
        case .solve: dk_wide_solve(p, r.count, s, step.states.count, invH, maxBiasVelocity, softness.soft.kernel, softness.staticSoft.kernel)
        case .relax: dk_wide_relax(p, r.count, s, step.states.count, invH)
        }
        if anyRolling && pass != .solve {
            WideContact.rolling(warmStart: pass == .warmStart, wide.readOnly, extra, r, step.states)
        }
    }

    /// Island `isl`'s batches, colour by colour.
    /// (The colours in use are a prefix: a constraint takes colour q only when its bodies
    /// block every lower one, so the loop stops at the first empty colour.)
    @inline(__always)
    func batches(_ pass: Pass, island isl: Int) {
        let colors = colorStart.subview(isl * (ColoredBatches.colorCount + 1) ..< (isl + 1) * (ColoredBatches.colorCount + 1))
        var q = 0
        while q < ColoredBatches.colorCount && colors[q + 1] > colors[q] {
            batches(pass, Int(colors[q])..<Int(colors[q + 1]))
            q += 1
        }
    }

    @inline(__always)
    func overflowConstraints(_ pass: Pass, _ r: Range<Int>) {
        for i in r {
            switch pass {
            case .warmStart: ContactSolver.warmStart(&constraints[i], step.states)
            case .solve: ContactSolver.solve(&constraints[i], step.states, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: true)
            case .relax: ContactSolver.solve(&constraints[i], step.states, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: false)
            }
        }
    }

    /// Bounces of island `isl`: its batches lane by lane, colour by colour, then its overflow
    /// constraints.
    func restitution(island isl: Int) {
        for k in Int(wideStart[isl])..<Int(wideStart[isl + 1]) {
            for l in 0..<4 {
                WideContact.applyRestitution(&wide[k], extra.readOnly, k, lane: l, step.states, threshold: restitutionThreshold)
            }
        }
        for k in Int(overflowStart[isl])..<Int(overflowStart[isl + 1]) {
            ContactSolver.applyRestitution(&constraints[k], step.states, threshold: restitutionThreshold)
        }
    }

    /// Stores the impulses of items `r` for the next step's warm start: batches
    /// `0 ..< batchCount`, then overflow constraints (item `batchCount + k` is `constraints[k]`).
    @inline(__always)
    func store(_ r: Range<Int>) {
        for k in r {
            if k < batchCount {
                let slots = extra[k].slot
                for l in 0..<4 where slots[l] >= 0 { WideContact.store(wide.readOnly, extra.readOnly, k, lane: l, rolling: anyRolling, into: &step.contactData[Int(slots[l])]) }
            } else {
                let o = k - batchCount
                let slot = Int(step.contacts[Int(groups.contactList[Int(overflow[o])])].slot)
                ContactSolver.store(constraints[o], rolling: anyRolling, into: &step.contactData[slot])
            }
        }
    }

    // MARK: Whole islands

    /// What island `isl` has to solve, looked up once per step.
    struct IslandConstraints {
        var joints: Range<Int>
        var overflow: Range<Int>
        var hasBatches: Bool
        /// The batches when they are all of one colour (a small island's usual case), else empty.
        var single: Range<Int>
        /// The batch, when the island's only constraint is a lone batch, and its live lanes
        /// (`dk_lone_batch`).
        var lone: UnsafeMutableRawPointer?
        var loneLanes: Int32 = 0
        /// Nothing at all (a lone body in flight).
        var isEmpty: Bool { !hasBatches && joints.isEmpty && overflow.isEmpty }
    }

    @inline(__always)
    func islandConstraints(_ isl: Int) -> IslandConstraints {
        let k = ColoredBatches.colorCount
        let colors = colorStart.subview(isl * (k + 1) ..< (isl + 1) * (k + 1))
        var c = IslandConstraints(joints: groups.jointRange(isl),
                                  overflow: Int(overflowStart[isl])..<Int(overflowStart[isl + 1]),
                                  hasBatches: colors[1] > colors[0], single: 0..<0, lone: nil)
        if c.hasBatches && colors[2] == colors[1] { c.single = Int(colors[0])..<Int(colors[1]) }
        // (A batch with rolling resistance takes the general path, which solves its rolling rows.)
        if c.single.count == 1 && c.joints.isEmpty && c.overflow.isEmpty
            && !(anyRolling && any(extra[c.single.lowerBound].rollingResistance .> 0)) {
            assert(WideContactSolver.layoutMatches, "the engine's structures and the C kernels' differ in layout")
            let p = UnsafeMutableRawPointer(wide.pointer(at: c.single.lowerBound, count: 1))
            let lanes = dk_lone_batch(p, 1)
            if lanes != 0 { c.lone = p; c.loneLanes = lanes }
        }
        return c
    }

    /// One pass over island `isl`'s constraints: joints, colour batches in colour order,
    /// overflow constraints.
    @inline(__always)
    func constraints(_ pass: Pass, island isl: Int, _ c: IslandConstraints) {
        if !c.joints.isEmpty { joints(pass, island: isl, c.joints) }
        if !c.single.isEmpty { batches(pass, c.single) } else if c.hasBatches { batches(pass, island: isl) }
        if !c.overflow.isEmpty { overflowConstraints(pass, c.overflow) }
    }

    /// Solves island `isl` for the whole step on the calling thread: `SubStep`'s stages on the
    /// whole island, then restitution once (batch by batch, then the overflow), then finalizes
    /// its bodies. Returns how many of them are fast (`BodyFinalize`).
    @discardableResult
    func solveIsland(_ isl: Int) -> Int {
        let bodyRange = groups.bodyRange(isl)
        let c = islandConstraints(isl)
        if let j = loneTarget(c, bodyRange) {
            solveLoneTarget(j, body: Int(groups.bodies[bodyRange.lowerBound]))
        } else if let lone = c.lone, bodyRange.count <= BodyIntegration.oneCallBodies {
            // A lone batch and its few bodies: the whole step's sub-steps in one call.
            integration.solveInOneCall(bodyRange, subSteps: subSteps, batch: lone, lanes: c.loneLanes, maxBiasVelocity: maxBiasVelocity,
                                       soft: softness.soft.kernel, staticSoft: softness.staticSoft.kernel)
        } else {
            let none = c.isEmpty
            for _ in 0..<subSteps {
                SubStep.forEachStage { stage in
                    switch stage {
                    case .integrateVelocities: integrateVelocities(bodyRange)
                    case .constraints(let pass): if !none { constraints(pass, island: isl, c) }
                    case .integratePositions: integratePositions(bodyRange)
                    }
                }
            }
        }
        if anyRestitution && (c.hasBatches || !c.overflow.isEmpty) { restitution(island: isl) }
        return finalize.finalize(bodyRange)
    }

    /// Off: every island takes the general path (tests compare the two).
    static let loneTargetPathOff = Atomic<Bool>(false)

    /// The joint, when island `c`'s only constraint is one target joint and its only body is
    /// the one the joint writes (a snapped item): `solveLoneTarget` solves it.
    @inline(__always)
    func loneTarget(_ c: IslandConstraints, _ bodyRange: Range<Int>) -> Int? {
        guard c.joints.count == 1, !c.hasBatches, c.overflow.isEmpty, bodyRange.count == 1 else { return nil }
        let j = Int(groups.jointList[c.joints.lowerBound])
        guard joints[j].def.type == .target, joints[j].writeB, !joints[j].writeA,
              Int(joints[j].bodyB) == Int(groups.bodies[bodyRange.lowerBound]),
              !Self.loneTargetPathOff.load(ordering: .relaxed) else { return nil }
        return j
    }

    /// A snapped item's island for the whole step, with the body's state held in a local:
    /// `SubStep`'s stages as `solveIsland` runs them — the velocity stage, the joint's warm
    /// start and biased pass, the position stage, its relax pass (a target joint has no
    /// bias to leave out) — through the same functions, so bit for bit the same.
    @inline(__always)
    func solveLoneTarget(_ j: Int, body b: Int) {
        let run = integration
        let g = run.velocityStage(b)
        var st = step.states[b]
        // The body's turn so far (an `atan2f`), taken once for the relax pass and the next
        // biased pass: only the position stage between them changes it.
        let turns = JointSolver.turnsBody(joints[j])
        var turned: Float = 0, turnedIsCurrent = false
        for _ in 0..<subSteps {
            SubStep.forEachStage { stage in
                switch stage {
                case .integrateVelocities: run.applyVelocityStage(g, to: &st)
                case .constraints(.warmStart): JointSolver.warmStartTarget(joints[j], &st, rB: st.dq.rotate(joints[j].rB))
                case .constraints(.solve), .constraints(.relax):
                    if turns && !turnedIsCurrent { turned = JointSolver.turned(st); turnedIsCurrent = true }
                    JointSolver.solveTarget(&joints[j], &st, jointContext, turned: turned)
                case .integratePositions: run.applyPositionStage(to: &st); turnedIsCurrent = false
                }
            }
        }
        step.states[b] = st
    }

    // MARK: Stage pipeline (several workers)

    enum StageKind: UInt8 {
        case integrateVelocities, joints, jointColour, batches, overflow, integratePositions, restitution, finalize, smallIslands, store,
             storeJoints
    }

    /// The block size of a big island's stage of `count` items on `workers` threads: blocks of
    /// equal size, two a worker when each still holds `least` items, else one a worker; a
    /// stage of fewer than `least / 2` items is one block. Equal shares matter more than the
    /// size: a thread starts on the block its part of the stage begins with (see
    /// `StagePipeline`), so blocks of 32, 32, 32 and 4 would leave one thread 64 items and the
    /// other 36, and the stage would end with the longer share.
    static func blockSize(count: Int32, least: Int32, workers: Int) -> Int32 {
        guard count >= least / 2 else { return max(1, count) }
        let w = Int32(workers)
        let blocks = w * min(2, max(1, count / (least * w)))
        return (count + blocks - 1) / blocks
    }

    /// Appends the stages of a big island: `SubStep`'s stages, as `solveIsland` runs them, with body
    /// ranges and each colour's batches split into equal blocks, one per worker, two once each
    /// holds 32 batches or 256 bodies (`blockSize`): every block claim and every stage's end is
    /// a synchronisation, so smaller blocks cost more in waiting than they gain in balance.
    /// The blocks change who does the work, never the arithmetic.
    func appendStages(island isl: Int, workers: Int, to stages: Column<Stage>) {
        let k = ColoredBatches.colorCount
        let colors = colorStart.subview(isl * (k + 1) ..< (isl + 1) * (k + 1))
        let b0 = groups.bodyStart[isl], b1 = groups.bodyStart[isl + 1]
        let j0 = groups.jointStart[isl], j1 = groups.jointStart[isl + 1]
        let o0 = overflowStart[isl], o1 = overflowStart[isl + 1]
        let island = Int32(isl)
        func block(_ count: Int32, _ least: Int32) -> Int32 { Self.blockSize(count: count, least: least, workers: workers) }
        func add(_ kind: StageKind, _ pass: Pass, _ begin: Int32, _ end: Int32, _ block: Int32) {
            stages.append(Stage(kind: kind.rawValue, pass: pass.rawValue, island: island, begin: begin, end: end,
                                blockSize: max(1, block)))
        }
        // (Read only for an island with joints: a world without joints colours none.)
        let jc = j1 > j0 ? jointColorStart.subview(isl * ColoredJoints.stride ..< (isl + 1) * ColoredJoints.stride) : View()
        func constraintPass(_ pass: Pass) {
            if j1 > j0 {
                // Each joint colour in blocks (its joints share no body): its batches and its
                // joints solved one by one as one list of items (the colour rides in the
                // stage's pass byte); then the joints without a colour.
                for q in 0..<k where jc[q + 1] > jc[q] {
                    let c = ColoredJoints.colour(q, group: isl, wideStart: jointWideStart, wideFrom: jointWideFrom,
                                                 colorStart: jointColorStart)
                    let items = Int32(c.batches.count + c.single.count)
                    stages.append(Stage(kind: StageKind.jointColour.rawValue, pass: pass.rawValue | UInt8(q << 2), island: island,
                                        begin: 0, end: items, blockSize: max(1, block(items, 16))))
                }
                if jc[k + 1] > jc[k] { add(.joints, pass, jc[k], jc[k + 1], jc[k + 1] - jc[k]) }
            }
            for q in 0..<k where colors[q + 1] > colors[q] {
                add(.batches, pass, colors[q], colors[q + 1], block(colors[q + 1] - colors[q], 32))
            }
            if o1 > o0 { add(.overflow, pass, o0, o1, o1 - o0) }
        }
        for _ in 0..<subSteps {
            SubStep.forEachStage { stage in
                switch stage {
                case .integrateVelocities: add(.integrateVelocities, .solve, b0, b1, block(b1 - b0, 256))
                case .constraints(let pass): constraintPass(pass)
                case .integratePositions: add(.integratePositions, .solve, b0, b1, block(b1 - b0, 256))
                }
            }
        }
        if anyRestitution { add(.restitution, .solve, 0, 1, 1) }
        // (In the position stage's blocks: each block's bodies are where that stage left them.)
        add(.finalize, .solve, b0, b1, block(b1 - b0, 256))
    }

    /// Runs one block of a stage.
    @inline(__always)
    func execute(_ stage: Stage, block: Int, smallIslands: View<Int32>) {
        let r = stage.items(block)
        let pass = Pass(rawValue: stage.pass & 3) ?? .solve
        switch StageKind(rawValue: stage.kind)! {
        case .integrateVelocities: integrateVelocities(r)
        case .joints: joints(pass, r)
        case .jointColour: jointColour(pass, island: Int(stage.island), colour: Int(stage.pass >> 2), r)
        case .batches: batches(pass, r)
        case .overflow: overflowConstraints(pass, r)
        case .integratePositions: integratePositions(r)
        case .restitution: restitution(island: Int(stage.island))
        case .finalize: finalize.count(fastBodies: finalize.finalize(r))
        case .smallIslands:
            var fast = 0
            for k in r { fast += solveIsland(Int(smallIslands[k])) }
            finalize.count(fastBodies: fast)
        case .store: store(r)
        case .storeJoints: storeJoints(r)
        }
    }
}

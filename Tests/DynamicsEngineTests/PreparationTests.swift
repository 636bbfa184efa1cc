import DynamicsSolverKernels
import Testing
@testable import DynamicsEngine

/// The solver's batches are prepared in C, four contacts at a time, straight from the world
/// (`dk_prepare_batch`); the overflow constraints by the scalar `ContactSolver.prepare`. Both
/// must give every contact the same numbers, bit for bit, or a contact's result would depend
/// on whether it found a colour.
@Suite("Batch preparation")
struct PreparationTests {
    /// A heap of boxes, circles and polygons of mixed sizes, densities and materials (some
    /// bouncy) on a static ground, beside a moving kinematic box, stepped until most contacts
    /// carry warm-start impulses and many have two points.
    static func heap() throws -> World {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0)
        var rng = TestRandom(seed: 17)
        for i in 0..<60 {
            let p = Vec2(rng.float(-600, 600), -60 - Float(i) * 45)
            let material = Material(density: rng.float(0.2, 5), friction: rng.float(0, 1.2), restitution: i % 4 == 0 ? 0.5 : 0)
            switch i % 3 {
            case 0:
                try TestWorld.box(w, at: p, size: Vec2(rng.float(20, 120), rng.float(20, 80)), angle: rng.float(-0.3, 0.3),
                                  material: material)
            case 1:
                try TestWorld.circle(w, at: p, radius: rng.float(10, 40), material: material)
            default:
                let r = rng.float(15, 45)
                let shape = ShapeDef(.polygon([Vec2(-r, r), Vec2(0.3 * r, -r), Vec2(r, r)]), material: material)
                try w.createBody(BodyDef(type: .dynamic, position: p), shapes: [shape])
            }
        }
        var kinematic = BodyDef(type: .kinematic, position: Vec2(-700, -30))
        kinematic.linearVelocity = Vec2(40, 0)
        try w.createBody(kinematic, shapes: [ShapeDef(.box(halfWidth: 60, halfHeight: 30))])
        TestWorld.run(w, seconds: 2.5)
        return w
    }

    @Test("every lane prepared in C equals the scalar preparation of its contact, bit for bit (AVX2 and baseline)")
    func lanesMatchScalar() throws {
        let w = try Self.heap()
        let soft = Softness(hertz: 30, dampingRatio: 10, h: 1.0 / 240)
        let staticSoft = Softness(hertz: 60, dampingRatio: 10, h: 1.0 / 240)
        // The contacts with points, four to a batch (preparation does not need a colouring),
        // the last batch padded.
        var solved = (0..<w.contacts.count).filter { w.contacts[$0].flags & Contact.hasPoints != 0 }.map(Int32.init)
        // (One contact left out when they fill whole batches, so the last batch is padded.)
        if solved.count % 4 == 0 { solved.removeLast() }
        var twoPoint = 0, block = 0, onePoint = 0, padding = 0
        for baseline in [false, true] {
            WideContactSolver.forceBaseline(baseline)
            defer { WideContactSolver.forceBaseline(false) }
            do {
                let c = w.contacts.view, d = w.contacts.data.view, s = w.sims.view, v = w.states.view, m = w.metas.view
                var source = WideContactSolver.source(contacts: c, data: d, sims: s, states: v, metas: m, padBody: w.boundaryBody)
                for first in stride(from: 0, to: solved.count, by: 4) {
                    let lanes = Array(solved[first..<min(first + 4, solved.count)])
                    var wide = WideContact(), extra = WideExtra()
                    _ = lanes.withUnsafeBufferPointer { dk_prepare_batch(&source, $0.baseAddress!, lanes.count, &wide, &extra) }
                    for l in 0..<4 {
                        if l >= lanes.count {
                            padding += 1
                            #expect(extra.slot[l] == -1 && wide.bodyA[l] == w.boundaryBody && wide.bodyB[l] == w.boundaryBody)
                            #expect(!wide.writeA[l] && !wide.writeB[l] && wide.mA[l] == 0 && wide.mB[l] == 0 && wide.nm1[l] == 0)
                            #expect(wide.k11[l] == 1 && wide.k22[l] == 1 && wide.i11[l] == 0)
                            continue
                        }
                        let contact = c[Int(lanes[l])]
                        var k = ContactConstraint()
                        ContactSolver.prepare(&k, contact: contact, data: d, sims: s, states: v, metas: m,
                                              soft: soft, staticSoft: staticSoft)
                        let problems = Self.compare(wide, extra, lane: l, with: k, slot: contact.slot)
                        #expect(problems.isEmpty, "contact \(lanes[l]) (\(baseline ? "baseline" : "AVX2 if present")): \(problems)")
                        if k.pointCount == 2 { twoPoint += 1 } else { onePoint += 1 }
                        if k.useBlock { block += 1 }
                    }
                }
            }
        }
        // The heap must exercise every kind of lane.
        #expect(twoPoint > 20 && onePoint > 20 && block > 10 && padding > 0,
                "two-point \(twoPoint), one-point \(onePoint), block \(block), padding \(padding)")
    }

#if DEBUG
    @Test("debug builds stop with a message when the C kernels would follow an index outside the world's arrays")
    func kernelsCheckIndices() async {
        // A batch naming body 7 of a world of 2.
        let solve = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var batch = WideContact()
            batch.bodyB = SIMD4(0, 0, 0, 7)
            var states = [BodyState](repeating: BodyState(), count: 2)
            states.withUnsafeMutableBytes { s in
                withUnsafeMutablePointer(to: &batch) { dk_wide_warm_start($0, 1, s.baseAddress!, 2) }
            }
        }
        let solveMessage = String(decoding: solve?.standardErrorContent ?? [], as: UTF8.self)
        #expect(solveMessage.contains("body B 7 outside 0..<2"), "\(solveMessage)")
        // A batch prepared from contact 3 of a world of 1.
        let prepare = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let contacts = [Contact()], data = [ContactData()]
            let sims = [BodySim(), BodySim()], states = [BodyState(), BodyState()], metas = [BodyMeta(), BodyMeta()]
            var wide = WideContact(), extra = WideExtra()
            var index: Int32 = 3
            var source = WideContactSolver.source(contacts: View(contacts.withUnsafeBufferPointer { $0.baseAddress! }, 1),
                                                  data: View(data.withUnsafeBufferPointer { $0.baseAddress! }, 1),
                                                  sims: View(sims.withUnsafeBufferPointer { $0.baseAddress! }, 2),
                                                  states: View(states.withUnsafeBufferPointer { $0.baseAddress! }, 2),
                                                  metas: View(metas.withUnsafeBufferPointer { $0.baseAddress! }, 2),
                                                  padBody: 0)
            _ = dk_prepare_batch(&source, &index, 1, &wide, &extra)
        }
        let prepareMessage = String(decoding: prepare?.standardErrorContent ?? [], as: UTF8.self)
        #expect(prepareMessage.contains("contact 3 outside 0..<1"), "\(prepareMessage)")
    }
#endif

    /// The fields of lane `l` that differ from the scalar constraint `k` (empty: all equal).
    static func compare(_ w: WideContact, _ x: WideExtra, lane l: Int, with k: ContactConstraint, slot: Int32) -> [String] {
        var problems: [String] = []
        func same(_ name: String, _ a: Float, _ b: Float) {
            if a.bitPattern != b.bitPattern { problems.append("\(name): \(a) vs \(b)") }
        }
        if w.bodyA[l] != k.bodyA || w.bodyB[l] != k.bodyB { problems.append("bodies") }
        if w.writeA[l] != k.writeA || w.writeB[l] != k.writeB { problems.append("write flags") }
        if x.slot[l] != slot { problems.append("slot") }
        same("nx", w.nx[l], k.normal.x); same("ny", w.ny[l], k.normal.y)
        same("friction", w.friction[l], k.friction); same("restitution", x.restitution[l], k.restitution)
        same("mA", w.mA[l], k.invMassA); same("iA", w.iA[l], k.invIA); same("mB", w.mB[l], k.invMassB); same("iB", w.iB[l], k.invIB)
        let n = k.normal
        func point(_ i: Int, _ p: ConstraintPoint, present: Bool,
                   _ rnA: Float, _ rnB: Float, _ rtA: Float, _ rtB: Float, _ adj: Float, _ nm: Float, _ tm: Float,
                   _ ln: Float, _ lt: Float, _ mx: Float, _ rv: Float) {
            let q = present ? p : ConstraintPoint()
            same("rn\(i)A", rnA, cross(q.anchorA, n)); same("rn\(i)B", rnB, cross(q.anchorB, n))
            same("rt\(i)A", rtA, -(q.anchorA.x * n.x + q.anchorA.y * n.y)); same("rt\(i)B", rtB, -(q.anchorB.x * n.x + q.anchorB.y * n.y))
            same("adj\(i)", adj, q.adjustedSeparation); same("nm\(i)", nm, q.normalMass); same("tm\(i)", tm, q.tangentMass)
            same("ln\(i)", ln, q.normalImpulse); same("lt\(i)", lt, q.tangentImpulse); same("mx\(i)", mx, 0)
            same("rv\(i)", rv, q.relativeVelocity)
        }
        point(1, k.p0, present: true, w.rn1A[l], w.rn1B[l], w.rt1A[l], w.rt1B[l], w.adj1[l], w.nm1[l], w.tm1[l],
              w.ln1[l], w.lt1[l], w.mx1[l], x.rv1[l])
        point(2, k.p1, present: k.pointCount > 1, w.rn2A[l], w.rn2B[l], w.rt2A[l], w.rt2B[l], w.adj2[l], w.nm2[l], w.tm2[l],
              w.ln2[l], w.lt2[l], w.mx2[l], x.rv2[l])
        same("k12", w.k12[l], k.pointCount == 2 ? k.k12 : 0)
        same("k11", w.k11[l], k.useBlock ? k.k11 : 1); same("k22", w.k22[l], k.useBlock ? k.k22 : 1)
        same("i11", w.i11[l], k.useBlock ? k.invK.x : 0); same("i12", w.i12[l], k.useBlock ? k.invK.y : 0)
        same("i22", w.i22[l], k.useBlock ? k.invK.w : 0)
        return problems
    }
}

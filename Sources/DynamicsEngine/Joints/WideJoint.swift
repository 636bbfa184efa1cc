import DynamicsSolverKernels
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Four revolute or weld joints, four distance joints or four prismatic joints of one joint
/// colour, stored lane-wise (the C kernels' `DKWideJoint`, 560 bytes), so the joint passes of
/// a big island run four lanes at a time — eight, two batches side by side, with AVX2 — like
/// the contact batches (`WideContact`).
///
/// A batch is prepared each step straight from its joints' records and bodies, and its
/// impulses go back to the records after the solve (`prepare`, `unpack`): the records stay the
/// joints' state between steps (snapshots, `updateJoint`, the next step's warm start). The
/// kernels repeat the scalar solver's operations in its order, so a joint solved in a lane
/// gives the same bits as solved alone (tested), and where it is solved never changes a
/// result.
///
/// The point rows read the fields up to `rows`; the axial rows (spring, motor, limits, a weld's
/// angle row) read the rest only when some lane has one, so a batch of plain pins reads about
/// half the batch. Distance and prismatic joints have rows of their own, and batches of their
/// own (`kind`).
/// Padding lanes join the world's boundary body to itself with zero masses: they write nothing.
@usableFromInline
struct WideJoint {
    typealias F = SIMD4<Float>
    typealias I = SIMD4<Int32>

    var bodyA = I(repeating: 0), bodyB = I(repeating: 0)
    var writeA = I(repeating: 0), writeB = I(repeating: 0)
    var mA = F(), iA = F(), mB = F(), iB = F()
    var rAx = F(), rAy = F(), rBx = F(), rBy = F()
    var dcx = F(), dcy = F()
    var px = F(), py = F()
    /// Per lane: `DK_JOINT_SPRING | DK_JOINT_MOTOR | DK_JOINT_LIMIT` as a revolute joint has
    /// them, `DK_JOINT_WELD` for a weld joint.
    var rows = I(repeating: 0)
    var deltaAngle = F(), axialMass = F()
    var springImpulse = F(), motorImpulse = F(), lowerImpulse = F(), upperImpulse = F()
    /// A weld joint's angle row impulse (0 for a revolute joint).
    var angularImpulse = F()
    var springBiasRate = F(), springMassScale = F(), springImpulseScale = F()
    var motorSpeed = F(), maxMotorImpulse = F()
    var lower = F(), upper = F()
    /// A distance joint's rest length and its axis at the start of the step; a prismatic
    /// joint's axis.
    var restLength = F(), axisX = F(), axisY = F()
    /// Each lane's joint slot, -1 for padding (set when the batches are laid out).
    var joint = I(repeating: -1)

    /// An empty batch (its lanes padding).
    init() {}

    /// Off: no joint is solved in lanes (tests compare the two; results are the same).
    /// Read when a step colours its islands. Set at launch by the environment variable
    /// `DYNAMICS_SCALAR_JOINTS=1`, so that the CLI can time the lanes against the scalar solve.
    static let lanesOff = Atomic<Bool>(environmentScalarJoints)

    /// `DYNAMICS_SCALAR_JOINTS`, read once per process: set to 1, every joint is solved one by one.
    static let environmentScalarJoints: Bool = {
        #if canImport(Glibc)
        guard let raw = getenv("DYNAMICS_SCALAR_JOINTS") else { return false }
        let text = String(cString: raw)
        guard text.isEmpty || text == "0" || text == "1" else {
            preconditionFailure("DYNAMICS_SCALAR_JOINTS must be 0 or 1 (got '\(text)')")
        }
        return text == "1"
        #else
        return false
        #endif
    }()

    /// Whether a joint of this type is solved in lanes.
    @inline(__always)
    static func takes(_ type: JointType) -> Bool { type != .target }

    /// The batches a joint type shares (a batch holds one kind): 0 revolute and weld joints
    /// (point rows), 1 distance joints, 2 prismatic joints.
    @inline(__always)
    static func kind(_ type: JointType) -> Int { type == .distance ? 1 : type == .prismatic ? 2 : 0 }

    /// The batch's fields in order, each four lanes of 4 bytes (`DKWideJoint`): field `f`'s
    /// lane `l` is 4-byte word `4 f + l` of the batch.
    enum Field: Int {
        case bodyA, bodyB, writeA, writeB, mA, iA, mB, iB, rAx, rAy, rBx, rBy, dcx, dcy, px, py, rows
        case deltaAngle, axialMass, springImpulse, motorImpulse, lowerImpulse, upperImpulse, angularImpulse
        case springBiasRate, springMassScale, springImpulseScale, motorSpeed, maxMotorImpulse, lower, upper
        case restLength, axisX, axisY, joint
    }

    /// Prepares the batch for this step straight from its joints' records and bodies: what
    /// `JointSolver.prepare` computes for the joint, with the same functions (so the
    /// same bits), written to the lanes; a row that is off starts with no impulse, as there.
    /// `pad`: the body padding lanes name (static, never written).
    /// (Written in place, word by word, through `batch`: a copy of the batch made and written
    /// back would read the fresh words as vectors just after they were stored one by one, which
    /// stalls the processor.)
    @inline(__always)
    static func prepare(_ batch: UnsafeMutablePointer<WideJoint>, _ joints: View<JointRecord>, sims: View<BodySim>,
                        metas: View<BodyMeta>, ctx: JointSolver.Context, pad: Int32) {
        let raw = UnsafeMutableRawPointer(batch)
        @inline(__always) func put(_ f: Field, _ l: Int, _ v: Float) {
            raw.storeBytes(of: v, toByteOffset: 4 * (4 * f.rawValue + l), as: Float.self)
        }
        @inline(__always) func put(_ f: Field, _ l: Int, _ v: Int32) {
            raw.storeBytes(of: v, toByteOffset: 4 * (4 * f.rawValue + l), as: Int32.self)
        }
        do {
            // A batch holds one kind of joint, its padding lanes too (`DKWideJoint.rows`).
            var kindBits: Int32 = 0
            for l in 0..<4 {
                let slot = Int(raw.load(fromByteOffset: 4 * (4 * Field.joint.rawValue + l), as: Int32.self))
                guard slot >= 0 else {
                    put(.bodyA, l, pad); put(.bodyB, l, pad); put(.writeA, l, Int32(0)); put(.writeB, l, Int32(0))
                    for f in Field.mA.rawValue...Field.py.rawValue { put(Field(rawValue: f)!, l, Float(0)) }
                    put(.rows, l, kindBits); put(.deltaAngle, l, Float(0))
                    put(.axialMass, l, Float(0))
                    put(.angularImpulse, l, Float(0))
                    continue
                }
                let j = joints[slot]
                let def = j.def
                if def.type == .distance || def.type == .prismatic {
                    kindBits = def.type == .distance ? Int32(DK_JOINT_DISTANCE) : Int32(DK_JOINT_PRISMATIC)
                    prepareFromRecord(raw, lane: l, joints, slot, sims: sims, metas: metas, ctx: ctx)
                    continue
                }
                let weld = def.type == .weld
                assert(Self.takes(def.type) && (weld || j.angularImpulse == 0), "a joint in lanes is a revolute or weld joint")
                let a = Int(j.bodyA), b = Int(j.bodyB)
                let sA = sims[a], sB = sims[b]
                put(.bodyA, l, j.bodyA); put(.bodyB, l, j.bodyB)
                put(.writeA, l, metas[a].type == .dynamic ? Int32(-1) : 0)
                put(.writeB, l, metas[b].type == .dynamic ? Int32(-1) : 0)
                let iA = sA.invInertia, iB = sB.invInertia
                put(.mA, l, sA.invMass); put(.iA, l, iA); put(.mB, l, sB.invMass); put(.iB, l, iB)
                let rA = sA.xf.q.rotate(def.localAnchorA - sA.localCenter)
                let rB = sB.xf.q.rotate(def.localAnchorB - sB.localCenter)
                put(.rAx, l, rA.x); put(.rAy, l, rA.y); put(.rBx, l, rB.x); put(.rBy, l, rB.y)
                let dc = sB.center - sA.center
                put(.dcx, l, dc.x); put(.dcy, l, dc.y)
                put(.px, l, j.linearImpulse.x); put(.py, l, j.linearImpulse.y)
                // (A weld joint has no spring, and its motor and limits are never solved; their
                // impulses still enter its warm start, as in `JointSolver.warmStart`.)
                let spring = JointSolver.axialSpringActs(j)
                put(.rows, l, weld ? Int32(DK_JOINT_WELD)
                    : (spring ? Int32(DK_JOINT_SPRING) : 0) | (def.enableMotor ? Int32(DK_JOINT_MOTOR) : 0)
                        | (def.enableLimit ? Int32(DK_JOINT_LIMIT) : 0))
                put(.springImpulse, l, spring ? j.springImpulse : 0)
                put(.motorImpulse, l, def.enableMotor ? j.motorImpulse : 0)
                put(.lowerImpulse, l, def.enableLimit ? j.lowerImpulse : 0)
                put(.upperImpulse, l, def.enableLimit ? j.upperImpulse : 0)
                put(.angularImpulse, l, j.angularImpulse)
                // (Only the axial rows read the angle and the axial mass: a plain pin skips the
                // arctangent and the division.)
                guard spring || def.enableMotor || def.enableLimit || weld else { continue }
                put(.deltaAngle, l, JointSolver.wrapAngle(Rot.relativeAngle(sB.xf.q, sA.xf.q) - j.referenceAngle))
                let k = iA + iB
                put(.axialMass, l, k > 0 ? 1 / k : 0)
                let s = spring ? Softness(hertz: def.hertz, dampingRatio: def.dampingRatio, h: ctx.h) : .rigid
                put(.springBiasRate, l, s.biasRate); put(.springMassScale, l, s.massScale); put(.springImpulseScale, l, s.impulseScale)
                put(.motorSpeed, l, def.motorSpeed); put(.maxMotorImpulse, l, ctx.h * def.maxMotorTorque)
                put(.lower, l, def.lower); put(.upper, l, def.upper)
            }
        }
    }

    /// Lane `l` of the batch at `raw`: distance or prismatic joint `j`, prepared by
    /// `JointSolver.prepare` itself (on a copy of the record), so the lane holds the same bits
    /// the scalar solve would use, and flagged with the rows `JointSolver.solveDistance` or
    /// `solvePrismatic` runs.
    /// (Kept out of line: the copy of the record it prepares stays out of the revolute lanes'
    /// loop, which reads only the fields it needs.)
    @inline(never)
    static func prepareFromRecord(_ raw: UnsafeMutableRawPointer, lane l: Int, _ joints: View<JointRecord>, _ slot: Int,
                                  sims: View<BodySim>, metas: View<BodyMeta>, ctx: JointSolver.Context) {
        @inline(__always) func put(_ f: Field, _ v: Float) {
            raw.storeBytes(of: v, toByteOffset: 4 * (4 * f.rawValue + l), as: Float.self)
        }
        @inline(__always) func put(_ f: Field, _ v: Int32) {
            raw.storeBytes(of: v, toByteOffset: 4 * (4 * f.rawValue + l), as: Int32.self)
        }
        var j = joints[slot]
        JointSolver.prepare(&j, sims: sims, metas: metas, ctx: ctx)
        let def = j.def
        put(.bodyA, j.bodyA); put(.bodyB, j.bodyB)
        put(.writeA, j.writeA ? Int32(-1) : 0); put(.writeB, j.writeB ? Int32(-1) : 0)
        put(.mA, j.invMassA); put(.iA, j.invIA); put(.mB, j.invMassB); put(.iB, j.invIB)
        put(.rAx, j.rA.x); put(.rAy, j.rA.y); put(.rBx, j.rB.x); put(.rBy, j.rB.y)
        put(.dcx, j.deltaCenter.x); put(.dcy, j.deltaCenter.y)
        // (A distance joint's rows read neither the point impulses nor the motor's; they go back
        // unchanged.)
        put(.px, j.linearImpulse.x); put(.py, j.linearImpulse.y); put(.motorImpulse, j.motorImpulse)
        var rows: Int32
        if def.type == .prismatic {
            rows = Int32(DK_JOINT_PRISMATIC) | (JointSolver.axialSpringActs(j) ? Int32(DK_JOINT_SPRING) : 0)
                | (def.enableMotor ? Int32(DK_JOINT_MOTOR) : 0) | (def.enableLimit ? Int32(DK_JOINT_LIMIT) : 0)
            put(.motorSpeed, def.motorSpeed); put(.maxMotorImpulse, ctx.h * def.maxMotorTorque)
            put(.lower, def.lower); put(.upper, def.upper)
        } else {
            rows = Int32(DK_JOINT_DISTANCE)
            if def.enableSpring && def.minLength < def.maxLength {
                if def.hertz > 0 { rows |= Int32(DK_JOINT_SPRING) }
                if def.minLength > 0 || def.enableLimit { rows |= Int32(DK_DISTANCE_LOWER) }
                if def.maxLength.isFinite { rows |= Int32(DK_DISTANCE_UPPER) }
            } else {
                rows |= Int32(DK_DISTANCE_RIGID)
            }
            put(.lower, def.minLength); put(.upper, def.maxLength)
        }
        put(.rows, rows)
        put(.deltaAngle, j.deltaAngle); put(.axialMass, j.axialMass)
        put(.springImpulse, j.springImpulse); put(.lowerImpulse, j.lowerImpulse); put(.upperImpulse, j.upperImpulse)
        put(.angularImpulse, j.angularImpulse)
        let s = j.springSoftness
        put(.springBiasRate, s.biasRate); put(.springMassScale, s.massScale); put(.springImpulseScale, s.impulseScale)
        put(.restLength, j.restLength); put(.axisX, j.axis.x); put(.axisY, j.axis.y)
    }

    /// Gives the lanes' accumulated impulses back to their joints' records — or, where one is
    /// not finite, clears the joint's impulses, as the solve does for every joint
    /// (`JointRecord.clearImpulses`). (Read in place: a copy of the batch would cost more than
    /// the few words read.)
    @inline(__always)
    static func unpack(_ batch: UnsafePointer<WideJoint>, _ joints: MutableView<JointRecord>) {
        let raw = UnsafeRawPointer(batch)
        @inline(__always) func word(_ f: Field, _ l: Int) -> Float {
            raw.load(fromByteOffset: 4 * (4 * f.rawValue + l), as: Float.self)
        }
        for l in 0..<4 {
            let slot = Int(raw.load(fromByteOffset: 4 * (4 * Field.joint.rawValue + l), as: Int32.self))
            guard slot >= 0 else { continue }
            let linear = Vec2(word(.px, l), word(.py, l))
            let spring = word(.springImpulse, l), motor = word(.motorImpulse, l)
            let lower = word(.lowerImpulse, l), upper = word(.upperImpulse, l), angular = word(.angularImpulse, l)
            if linear.isFinite && spring.isFinite && motor.isFinite && lower.isFinite && upper.isFinite && angular.isFinite {
                joints[slot].linearImpulse = linear
                joints[slot].springImpulse = spring; joints[slot].motorImpulse = motor
                joints[slot].lowerImpulse = lower; joints[slot].upperImpulse = upper
                joints[slot].angularImpulse = angular
            } else {
                joints[slot].clearImpulses()
            }
        }
    }

    /// Whether `WideJoint` has `DKWideJoint`'s layout (asserted before the kernels run).
    static let layoutMatches: Bool = {
        typealias W = WideJoint
        typealias D = DKWideJoint
        let pairs: [(Int?, Int?)] = [
            (MemoryLayout<W>.offset(of: \W.bodyA), MemoryLayout<D>.offset(of: \D.bodyA)),
            (MemoryLayout<W>.offset(of: \W.writeB), MemoryLayout<D>.offset(of: \D.writeB)),
            (MemoryLayout<W>.offset(of: \W.mA), MemoryLayout<D>.offset(of: \D.mA)),
            (MemoryLayout<W>.offset(of: \W.rAx), MemoryLayout<D>.offset(of: \D.rAx)),
            (MemoryLayout<W>.offset(of: \W.dcx), MemoryLayout<D>.offset(of: \D.dcx)),
            (MemoryLayout<W>.offset(of: \W.px), MemoryLayout<D>.offset(of: \D.px)),
            (MemoryLayout<W>.offset(of: \W.rows), MemoryLayout<D>.offset(of: \D.rows)),
            (MemoryLayout<W>.offset(of: \W.deltaAngle), MemoryLayout<D>.offset(of: \D.deltaAngle)),
            (MemoryLayout<W>.offset(of: \W.springImpulse), MemoryLayout<D>.offset(of: \D.springImpulse)),
            (MemoryLayout<W>.offset(of: \W.upperImpulse), MemoryLayout<D>.offset(of: \D.upperImpulse)),
            (MemoryLayout<W>.offset(of: \W.angularImpulse), MemoryLayout<D>.offset(of: \D.angularImpulse)),
            (MemoryLayout<W>.offset(of: \W.springBiasRate), MemoryLayout<D>.offset(of: \D.springBiasRate)),
            (MemoryLayout<W>.offset(of: \W.maxMotorImpulse), MemoryLayout<D>.offset(of: \D.maxMotorImpulse)),
            (MemoryLayout<W>.offset(of: \W.upper), MemoryLayout<D>.offset(of: \D.upper)),
            (MemoryLayout<W>.offset(of: \W.restLength), MemoryLayout<D>.offset(of: \D.restLength)),
            (MemoryLayout<W>.offset(of: \W.axisY), MemoryLayout<D>.offset(of: \D.axisY)),
            (MemoryLayout<W>.offset(of: \W.joint), MemoryLayout<D>.offset(of: \D.joint)),
        ]
        let words: [(Field, Int?)] = [
            (.bodyA, MemoryLayout<D>.offset(of: \D.bodyA)), (.writeA, MemoryLayout<D>.offset(of: \D.writeA)),
            (.iB, MemoryLayout<D>.offset(of: \D.iB)), (.dcy, MemoryLayout<D>.offset(of: \D.dcy)),
            (.py, MemoryLayout<D>.offset(of: \D.py)), (.rows, MemoryLayout<D>.offset(of: \D.rows)),
            (.axialMass, MemoryLayout<D>.offset(of: \D.axialMass)), (.upperImpulse, MemoryLayout<D>.offset(of: \D.upperImpulse)),
            (.angularImpulse, MemoryLayout<D>.offset(of: \D.angularImpulse)),
            (.springImpulseScale, MemoryLayout<D>.offset(of: \D.springImpulseScale)),
            (.maxMotorImpulse, MemoryLayout<D>.offset(of: \D.maxMotorImpulse)), (.upper, MemoryLayout<D>.offset(of: \D.upper)),
            (.restLength, MemoryLayout<D>.offset(of: \D.restLength)), (.axisX, MemoryLayout<D>.offset(of: \D.axisX)),
            (.axisY, MemoryLayout<D>.offset(of: \D.axisY)),
            (.joint, MemoryLayout<D>.offset(of: \D.joint)),
        ]
        return MemoryLayout<W>.size == MemoryLayout<D>.size && MemoryLayout<W>.stride == MemoryLayout<D>.stride
            && MemoryLayout<W>.size == 16 * (Field.joint.rawValue + 1)
            && pairs.allSatisfy { $0.0 != nil && $0.0 == $0.1 }
            && words.allSatisfy { $0.1 == 16 * $0.0.rawValue }
    }()
}

/// Prepares the step's joint batches `r` (`WideJoint.prepare`).
struct WideJointPreparation: RangeTask, @unchecked Sendable {
    let batches: MutableView<WideJoint>
    let joints: View<JointRecord>
    let sims: View<BodySim>
    let metas: View<BodyMeta>
    let ctx: JointSolver.Context
    let pad: Int32

    /// How many batches ahead the joints' records are asked for: a colour's joints lie spread
    /// over the records, each a few cache lines, where the processor cannot guess them.
    static let ahead = 2

    func run(_ r: Range<Int>, part: Int) {
        guard !r.isEmpty else { return }
        let p = batches.pointer(at: r.lowerBound, count: r.count)
        for b in 0..<r.count {
            if b + Self.ahead < r.count {
                let next = p[b + Self.ahead].joint
                for l in 0..<4 where next[l] >= 0 { joints.prefetch(Int(next[l])) }
            }
            WideJoint.prepare(p + b, joints, sims: sims, metas: metas, ctx: ctx, pad: pad)
        }
    }
}

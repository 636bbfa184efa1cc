/// Joint solving in the soft-step scheme. Positions during the step are the start-of-step
/// placement plus each body's accumulated `dp` / `dq`, so no transform is rebuilt per
/// iteration. Only dynamic bodies are written.
enum JointSolver {
    /// The solution of the symmetric 2 × 2 system [k11 k12; k12 k22] x = rhs (zero when it is
    /// singular).
    @inline(__always)
    static func solve2x2(_ k11: Float, _ k12: Float, _ k22: Float, _ rhs: Vec2) -> Vec2 {
        let det = k11 * k22 - k12 * k12
        let inv: Float = det != 0 ? 1 / det : 0
        return Vec2(inv * (k22 * rhs.x - k12 * rhs.y), inv * (k11 * rhs.y - k12 * rhs.x))
    }

    struct Context {
        var h: Float
        var invH: Float
        var jointSoftness: Softness
    }

    @inline(__always)
    static func prepare(_ j: inout JointRecord, sims: View<BodySim>, metas: View<BodyMeta>, ctx: Context) {
        let a = Int(j.bodyA), b = Int(j.bodyB)
        let sA = sims[a], sB = sims[b]
        j.invMassA = sA.invMass; j.invIA = sA.invInertia
        j.invMassB = sB.invMass; j.invIB = sB.invInertia
        j.writeA = metas[a].type == .dynamic
        j.writeB = metas[b].type == .dynamic
        j.rA = sA.xf.q.rotate(j.def.localAnchorA - sA.localCenter)
        j.rB = sB.xf.q.rotate(j.def.localAnchorB - sB.localCenter)
        j.deltaCenter = sB.center - sA.center
        // (A target joint's angle is its body's own, set below.)
        if j.def.type != .target { j.deltaAngle = wrapAngle(Rot.relativeAngle(sB.xf.q, sA.xf.q) - j.referenceAngle) }
        j.softness = ctx.jointSoftness
        let mA = j.invMassA, mB = j.invMassB, iA = j.invIA, iB = j.invIB
        switch j.def.type {
        case .distance:
            let d = j.deltaCenter + j.rB - j.rA
            j.axis = normalize(d)
            let crA = cross(j.rA, j.axis), crB = cross(j.rB, j.axis)
            let k = mA + mB + iA * crA * crA + iB * crB * crB
            j.axialMass = k > 0 ? 1 / k : 0
            j.springSoftness = Softness(hertz: j.def.hertz, dampingRatio: j.def.dampingRatio, h: ctx.h)
            if !j.def.enableLimit { j.lowerImpulse = 0; j.upperImpulse = 0 }
        case .revolute, .weld:
            let k = iA + iB
            j.axialMass = k > 0 ? 1 / k : 0
            if !j.def.enableMotor { j.motorImpulse = 0 }
            if !j.def.enableLimit { j.lowerImpulse = 0; j.upperImpulse = 0 }
            prepareAxialSpring(&j, ctx)
        case .prismatic:
            j.axis = sA.xf.q.rotate(normalize(j.def.localAxisA))
            let d = j.deltaCenter + j.rB - j.rA
            let a1 = cross(d + j.rA, j.axis), a2 = cross(j.rB, j.axis)
            let k = mA + mB + iA * a1 * a1 + iB * a2 * a2
            j.axialMass = k > 0 ? 1 / k : 0
            if !j.def.enableMotor { j.motorImpulse = 0 }
            if !j.def.enableLimit { j.lowerImpulse = 0; j.upperImpulse = 0 }
            prepareAxialSpring(&j, ctx)
        case .target:
            j.deltaCenter = sB.center - j.def.target
            j.deltaAngle = wrapAngle(Rot.relativeAngle(sB.xf.q, .identity) - j.def.targetAngle)
            j.springSoftness = Softness(hertz: j.def.hertz, dampingRatio: j.def.dampingRatio, h: ctx.h)
            j.angularSoftness = Softness(hertz: j.def.angularHertz, dampingRatio: j.def.angularDampingRatio, h: ctx.h)
            let r = j.rB
            let k11 = mB + iB * r.y * r.y, k12 = -iB * r.x * r.y, k22 = mB + iB * r.x * r.x
            let det = k11 * k22 - k12 * k12
            let inv: Float = det != 0 ? 1 / det : 0
            j.linearMass = SIMD4(inv * k22, -inv * k12, -inv * k12, inv * k11)
            j.axialMass = iB > 0 ? 1 / iB : 0
        }
    }

    /// Whether a revolute or prismatic joint's spring pushes: enabled, with a frequency above 0
    /// (a spring of 0 Hz has no stiffness, so it exerts nothing). Weld joints have no spring.
    @inline(__always)
    static func axialSpringActs(_ j: JointRecord) -> Bool {
        j.def.enableSpring && j.def.hertz > 0 && (j.def.type == .revolute || j.def.type == .prismatic)
    }

    /// The spring coefficients of a revolute or prismatic joint for this step's sub-step; a
    /// joint whose spring does not act forgets its spring impulse, so turning the spring back
    /// on starts it cold.
    @inline(__always)
    static func prepareAxialSpring(_ j: inout JointRecord, _ ctx: Context) {
        if axialSpringActs(j) {
            j.springSoftness = Softness(hertz: j.def.hertz, dampingRatio: j.def.dampingRatio, h: ctx.h)
        } else {
            j.springImpulse = 0
        }
    }

    @inline(__always)
    static func warmStart(_ j: inout JointRecord, _ states: MutableView<BodyState>) {
        let a = Int(j.bodyA), b = Int(j.bodyB)
        var sA = states[a], sB = states[b]
        let rA = sA.dq.rotate(j.rA), rB = sB.dq.rotate(j.rB)
        var P = Vec2.zero, LA: Float = 0, LB: Float = 0
        switch j.def.type {
        case .distance:
            // Along the axis as the sub-step finds it, as the rows will use it: a link that turns
            // within the step would otherwise be pushed along where it pointed when it began.
            let d = j.deltaCenter + (sB.dp - sA.dp) + rB - rA
            let len = length(d)
            let axis = len > 1.0e-6 ? d / len : j.axis
            let axial = j.springImpulse + j.lowerImpulse - j.upperImpulse + j.angularImpulse
            P = axial * axis
            LA = cross(rA, P); LB = cross(rB, P)
        case .revolute, .weld:
            var axial = j.motorImpulse + j.lowerImpulse - j.upperImpulse + j.angularImpulse
            // (Added only when the spring acts, so that a joint without one keeps its exact sums.)
            if axialSpringActs(j) { axial += j.springImpulse }
            P = j.linearImpulse
            LA = cross(rA, P) + axial; LB = cross(rB, P) + axial
        case .prismatic:
            let d = j.deltaCenter + (sB.dp - sA.dp) + rB - rA
            let axis = sA.dq.rotate(j.axis), perp = leftPerp(axis)
            let a1 = cross(d + rA, axis), a2 = cross(rB, axis)
            let s1 = cross(d + rA, perp), s2 = cross(rB, perp)
            var axial = j.motorImpulse + j.lowerImpulse - j.upperImpulse
            if axialSpringActs(j) { axial += j.springImpulse }
            P = axial * axis + j.linearImpulse.x * perp
            LA = axial * a1 + j.linearImpulse.x * s1 + j.linearImpulse.y
            LB = axial * a2 + j.linearImpulse.x * s2 + j.linearImpulse.y
        case .target:
            warmStartTarget(j, &sB, rB: rB)
            if j.writeB { states[b] = sB }
            return
        }
        sA.v -= j.invMassA * P; sA.w -= j.invIA * LA
        sB.v += j.invMassB * P; sB.w += j.invIB * LB
        if j.writeA { states[a] = sA }
        if j.writeB { states[b] = sB }
    }

    /// A target joint's warm start of its body's state (`rB`: its anchor turned by the
    /// step's rotation so far, `sB.dq.rotate(j.rB)`).
    @inline(__always)
    static func warmStartTarget(_ j: JointRecord, _ sB: inout BodyState, rB: Vec2) {
        sB.v += j.invMassB * j.linearImpulse
        sB.w += j.invIB * (cross(rB, j.linearImpulse) + j.angularImpulse)
    }

    @inline(__always)
    static func solve(_ j: inout JointRecord, _ states: MutableView<BodyState>, ctx: Context, useBias: Bool) {
        let a = Int(j.bodyA), b = Int(j.bodyB)
        var sA = states[a], sB = states[b]
        switch j.def.type {
        case .distance: solveDistance(&j, &sA, &sB, ctx, useBias)
        case .revolute: solveRevolute(&j, &sA, &sB, ctx, useBias)
        case .weld: solveWeld(&j, &sA, &sB, ctx, useBias)
        case .prismatic: solvePrismatic(&j, &sA, &sB, ctx, useBias)
        case .target: solveTarget(&j, &sB, ctx)
        }
        if j.writeA { states[a] = sA }
        if j.writeB { states[b] = sB }
    }

    @inline(__always)
    static func wrapAngle(_ x: Float) -> Float {
        var a = x
        while a > Float.pi { a -= 2 * Float.pi }
        while a < -Float.pi { a += 2 * Float.pi }
        return a
    }

    /// Parameters of a one-sided (limit) or rigid row: speculative when apart, soft when
    /// violated during the biased pass, plain otherwise.
    @inline(__always)
    static func rowBias(_ C: Float, _ soft: Softness, _ ctx: Context, _ useBias: Bool) -> (bias: Float, massScale: Float, impulseScale: Float) {
        if C > 0 { return (C * ctx.invH, 1, 0) }
        if useBias { return (soft.biasRate * C, soft.massScale, soft.impulseScale) }
        return (0, 1, 0)
    }

    @inline(__always)
    static func applyAxial(_ j: JointRecord, _ sA: inout BodyState, _ sB: inout BodyState, _ rA: Vec2, _ rB: Vec2, _ axis: Vec2, _ impulse: Float) {
        let P = impulse * axis
        sA.v -= j.invMassA * P; sA.w -= j.invIA * cross(rA, P)
        sB.v += j.invMassB * P; sB.w += j.invIB * cross(rB, P)
    }

    static func solveDistance(_ j: inout JointRecord, _ sA: inout BodyState, _ sB: inout BodyState, _ ctx: Context, _ useBias: Bool) {
        let rA = sA.dq.rotate(j.rA), rB = sB.dq.rotate(j.rB)
        let d = j.deltaCenter + (sB.dp - sA.dp) + rB - rA
        let len = length(d)
        let axis = len > 1.0e-6 ? d / len : j.axis
        let def = j.def
        if def.enableSpring && def.minLength < def.maxLength {
            if def.hertz > 0 {
                let vr = sB.v + cross(sB.w, rB) - sA.v - cross(sA.w, rA)
                let C = len - j.restLength
                let s = j.springSoftness
                let impulse = -s.massScale * j.axialMass * (dot(axis, vr) + s.biasRate * C) - s.impulseScale * j.springImpulse
                j.springImpulse += impulse
                applyAxial(j, &sA, &sB, rA, rB, axis, impulse)
            }
            if def.minLength > 0 || def.enableLimit {
                let vr = sB.v + cross(sB.w, rB) - sA.v - cross(sA.w, rA)
                let (bias, ms, isc) = rowBias(len - def.minLength, j.softness, ctx, useBias)
                let impulse = -ms * j.axialMass * (dot(axis, vr) + bias) - isc * j.lowerImpulse
                let newImpulse = max(0, j.lowerImpulse + impulse)
                applyAxial(j, &sA, &sB, rA, rB, axis, newImpulse - j.lowerImpulse)
                j.lowerImpulse = newImpulse
            }
            if def.maxLength.isFinite {
                let vr = sA.v + cross(sA.w, rA) - sB.v - cross(sB.w, rB)
                let (bias, ms, isc) = rowBias(def.maxLength - len, j.softness, ctx, useBias)
                let impulse = -ms * j.axialMass * (dot(axis, vr) + bias) - isc * j.upperImpulse
                let newImpulse = max(0, j.upperImpulse + impulse)
                applyAxial(j, &sA, &sB, rA, rB, axis, -(newImpulse - j.upperImpulse))
                j.upperImpulse = newImpulse
            }
        } else {
            // Rigid rod: the accumulated impulse is stored in angularImpulse (axial row).
            let vr = sB.v + cross(sB.w, rB) - sA.v - cross(sA.w, rA)
            var bias: Float = 0, ms: Float = 1, isc: Float = 0
            if useBias {
                bias = j.softness.biasRate * (len - j.restLength); ms = j.softness.massScale; isc = j.softness.impulseScale
            }
            let impulse = -ms * j.axialMass * (dot(axis, vr) + bias) - isc * j.angularImpulse
            j.angularImpulse += impulse
            applyAxial(j, &sA, &sB, rA, rB, axis, impulse)
        }
    }

    /// The 2-row point constraint shared by revolute and weld joints.
    @inline(__always)
    static func solvePoint(_ j: inout JointRecord, _ sA: inout BodyState, _ sB: inout BodyState, _ ctx: Context, _ useBias: Bool) {
        let rA = sA.dq.rotate(j.rA), rB = sB.dq.rotate(j.rB)
        let cdot = sB.v + cross(sB.w, rB) - sA.v - cross(sA.w, rA)
        var bias = Vec2.zero, ms: Float = 1, isc: Float = 0
        if useBias {
            let sep = j.deltaCenter + (sB.dp - sA.dp) + rB - rA
            bias = j.softness.biasRate * sep; ms = j.softness.massScale; isc = j.softness.impulseScale
        }
        let mA = j.invMassA, mB = j.invMassB, iA = j.invIA, iB = j.invIB
        let k11 = mA + mB + rA.y * rA.y * iA + rB.y * rB.y * iB
        let k12 = -rA.y * rA.x * iA - rB.y * rB.x * iB
        let k22 = mA + mB + rA.x * rA.x * iA + rB.x * rB.x * iB
        let sol = solve2x2(k11, k12, k22, cdot + bias)
        let impulse = -ms * sol - isc * j.linearImpulse
        j.linearImpulse += impulse
        sA.v -= mA * impulse; sA.w -= iA * cross(rA, impulse)
        sB.v += mB * impulse; sB.w += iB * cross(rB, impulse)
    }

    /// A revolute joint's rows in order: spring, motor, limits, then the point constraint, so
    /// the motor and the limits see the spring's push and the pin holds against all three.
    static func solveRevolute(_ j: inout JointRecord, _ sA: inout BodyState, _ sB: inout BodyState, _ ctx: Context, _ useBias: Bool) {
        let iA = j.invIA, iB = j.invIB
        let spring = axialSpringActs(j) && iA + iB > 0
        // The joint angle (relative angle less the reference, the shortest way round): it moves
        // only with the positions, so one value serves the spring and the limits.
        let angle = spring || j.def.enableLimit ? wrapAngle(j.deltaAngle + Rot.relativeAngle(sB.dq, sA.dq)) : 0
        if spring {
            // A soft row toward angle 0, in the biased and the relax pass alike: it is a real
            // spring, not an error to remove. Its mass being the joint's angular effective mass,
            // the spring's stiffness is that mass times (2π hertz)², whatever the inertias.
            let s = j.springSoftness
            let impulse = -s.massScale * j.axialMass * (sB.w - sA.w + s.biasRate * angle) - s.impulseScale * j.springImpulse
            j.springImpulse += impulse
            sA.w -= iA * impulse; sB.w += iB * impulse
        }
        if j.def.enableMotor && iA + iB > 0 {
            let cdot = sB.w - sA.w - j.def.motorSpeed
            let maxImpulse = ctx.h * j.def.maxMotorTorque
            let old = j.motorImpulse
            j.motorImpulse = clamp(old - j.axialMass * cdot, -maxImpulse, maxImpulse)
            let impulse = j.motorImpulse - old
            sA.w -= iA * impulse; sB.w += iB * impulse
        }
        if j.def.enableLimit && iA + iB > 0 {
            do {
                let (bias, ms, isc) = rowBias(angle - j.def.lower, j.softness, ctx, useBias)
                let impulse = -j.axialMass * ms * (sB.w - sA.w + bias) - isc * j.lowerImpulse
                let newImpulse = max(j.lowerImpulse + impulse, 0)
                let applied = newImpulse - j.lowerImpulse
                j.lowerImpulse = newImpulse
                sA.w -= iA * applied; sB.w += iB * applied
            }
            do {
                let (bias, ms, isc) = rowBias(j.def.upper - angle, j.softness, ctx, useBias)
                let impulse = -j.axialMass * ms * (sA.w - sB.w + bias) - isc * j.upperImpulse
                let newImpulse = max(j.upperImpulse + impulse, 0)
                let applied = newImpulse - j.upperImpulse
                j.upperImpulse = newImpulse
                sA.w += iA * applied; sB.w -= iB * applied
            }
        }
        solvePoint(&j, &sA, &sB, ctx, useBias)
    }

    static func solveWeld(_ j: inout JointRecord, _ sA: inout BodyState, _ sB: inout BodyState, _ ctx: Context, _ useBias: Bool) {
        let iA = j.invIA, iB = j.invIB
        if iA + iB > 0 {
            var bias: Float = 0, ms: Float = 1, isc: Float = 0
            if useBias {
                let C = wrapAngle(j.deltaAngle + Rot.relativeAngle(sB.dq, sA.dq))
                bias = j.softness.biasRate * C; ms = j.softness.massScale; isc = j.softness.impulseScale
            }
            let impulse = -j.axialMass * ms * (sB.w - sA.w + bias) - isc * j.angularImpulse
            j.angularImpulse += impulse
            sA.w -= iA * impulse; sB.w += iB * impulse
        }
        solvePoint(&j, &sA, &sB, ctx, useBias)
    }

    static func solvePrismatic(_ j: inout JointRecord, _ sA: inout BodyState, _ sB: inout BodyState, _ ctx: Context, _ useBias: Bool) {
        let mA = j.invMassA, mB = j.invMassB, iA = j.invIA, iB = j.invIB
        let rA = sA.dq.rotate(j.rA), rB = sB.dq.rotate(j.rB)
        let d = j.deltaCenter + (sB.dp - sA.dp) + rB - rA
        let axis = sA.dq.rotate(j.axis)
        let translation = dot(axis, d)
        let a1 = cross(d + rA, axis), a2 = cross(rB, axis)
        @inline(__always) func applyAxis(_ impulse: Float) {
            let P = impulse * axis
            sA.v -= mA * P; sA.w -= iA * impulse * a1
            sB.v += mB * P; sB.w += iB * impulse * a2
        }
        if axialSpringActs(j) {
            // A soft row toward translation 0 along the axis (see `solveRevolute`): stiffness
            // the axial effective mass times (2π hertz)².
            let cdot = dot(axis, sB.v - sA.v) + a2 * sB.w - a1 * sA.w
            let s = j.springSoftness
            let impulse = -s.massScale * j.axialMass * (cdot + s.biasRate * translation) - s.impulseScale * j.springImpulse
            j.springImpulse += impulse
            applyAxis(impulse)
        }
        if j.def.enableMotor {
            let cdot = dot(axis, sB.v - sA.v) + a2 * sB.w - a1 * sA.w
            let maxImpulse = ctx.h * j.def.maxMotorTorque
            let old = j.motorImpulse
            j.motorImpulse = clamp(old + j.axialMass * (j.def.motorSpeed - cdot), -maxImpulse, maxImpulse)
            applyAxis(j.motorImpulse - old)
        }
        if j.def.enableLimit {
            do {
                let (bias, ms, isc) = rowBias(translation - j.def.lower, j.softness, ctx, useBias)
                let cdot = dot(axis, sB.v - sA.v) + a2 * sB.w - a1 * sA.w
                let impulse = -j.axialMass * ms * (cdot + bias) - isc * j.lowerImpulse
                let newImpulse = max(j.lowerImpulse + impulse, 0)
                applyAxis(newImpulse - j.lowerImpulse)
                j.lowerImpulse = newImpulse
            }
            do {
                let (bias, ms, isc) = rowBias(j.def.upper - translation, j.softness, ctx, useBias)
                let cdot = dot(axis, sA.v - sB.v) + a1 * sA.w - a2 * sB.w
                let impulse = -j.axialMass * ms * (cdot + bias) - isc * j.upperImpulse
                let newImpulse = max(j.upperImpulse + impulse, 0)
                applyAxis(-(newImpulse - j.upperImpulse))
                j.upperImpulse = newImpulse
            }
        }
        // Perpendicular and angular rows, solved as a 2×2 block.
        let perp = leftPerp(axis)
        let s1 = cross(d + rA, perp), s2 = cross(rB, perp)
        let cdot = Vec2(dot(perp, sB.v - sA.v) + s2 * sB.w - s1 * sA.w, sB.w - sA.w)
        var bias = Vec2.zero, ms: Float = 1, isc: Float = 0
        if useBias {
            let C = Vec2(dot(perp, d), wrapAngle(j.deltaAngle + Rot.relativeAngle(sB.dq, sA.dq)))
            bias = j.softness.biasRate * C; ms = j.softness.massScale; isc = j.softness.impulseScale
        }
        let k11 = mA + mB + iA * s1 * s1 + iB * s2 * s2
        let k12 = iA * s1 + iB * s2
        var k22 = iA + iB
        if k22 == 0 { k22 = 1 }
        let sol = solve2x2(k11, k12, k22, cdot + bias)
        let impulse = -ms * sol - isc * j.linearImpulse
        j.linearImpulse += impulse
        let P = impulse.x * perp
        let LA = impulse.x * s1 + impulse.y, LB = impulse.x * s2 + impulse.y
        sA.v -= mA * P; sA.w -= iA * LA
        sB.v += mB * P; sB.w += iB * LB
    }

    @inline(__always)
    static func solveTarget(_ j: inout JointRecord, _ sB: inout BodyState, _ ctx: Context) {
        solveTarget(&j, &sB, ctx, turned: turnsBody(j) ? turned(sB) : 0)
    }

    /// Whether a target joint turns its body back (an angular spring on a body that can turn):
    /// only then does its pass read `turned`.
    @inline(__always)
    static func turnsBody(_ j: JointRecord) -> Bool { j.def.angularHertz > 0 && j.invIB > 0 }

    /// How far the body has turned in the step so far (an `atan2f`): it changes only in the
    /// position stage, so the relax pass and the next sub-step's biased pass share it.
    @inline(__always)
    static func turned(_ sB: BodyState) -> Float { Rot.relativeAngle(sB.dq, .identity) }

    /// A target joint's pass, `turned` being `turned(sB)` (read only when `turnsBody(j)`).
    static func solveTarget(_ j: inout JointRecord, _ sB: inout BodyState, _ ctx: Context, turned: Float) {
        let mB = j.invMassB, iB = j.invIB
        if j.def.angularHertz > 0 && iB > 0 {
            let C = j.deltaAngle + turned
            let s = j.angularSoftness
            let impulse = -s.massScale * j.axialMass * (sB.w + s.biasRate * C) - s.impulseScale * j.angularImpulse
            j.angularImpulse += impulse
            sB.w += iB * impulse
        }
        let rB = sB.dq.rotate(j.rB)
        let cdot = sB.v + cross(sB.w, rB)
        let C = j.deltaCenter + sB.dp + rB
        let s = j.springSoftness
        let rhs = cdot + s.biasRate * C
        let m = j.linearMass
        let sol = Vec2(m.x * rhs.x + m.z * rhs.y, m.y * rhs.x + m.w * rhs.y)
        var impulse = -s.massScale * sol - s.impulseScale * j.linearImpulse
        let old = j.linearImpulse
        j.linearImpulse += impulse
        let maxImpulse = ctx.h * j.def.maxForce
        let l = length(j.linearImpulse)
        if l > maxImpulse { j.linearImpulse *= maxImpulse / l }
        impulse = j.linearImpulse - old
        sB.v += mB * impulse
        sB.w += iB * cross(rB, impulse)
    }
}

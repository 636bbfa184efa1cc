extension World {
    /// Creates a joint. Attached bodies still collide with each other.
    ///
    /// Invalid numbers (NaN, negative lengths, unordered limits) and stale body handles are
    /// programmer errors (precondition).
    @discardableResult
    public func createJoint(_ def: JointDef) -> JointHandle {
        structuralChange("createJoint")
        if let msg = def.validate() { preconditionFailure("createJoint: \(msg)") }
        let b = slot(def.bodyB, "createJoint (bodyB)")
        let a = def.bodyA.map { slot($0, "createJoint (bodyA)") } ?? Int(boundaryBody)
        precondition(a != b, "createJoint: a joint needs two different bodies")
        let (js, isNew) = jointSlots.allocate()
        let j = Int(js)
        islands.dirty = true
        if isNew { joints.append(JointRecord()) }
        // (The graph made again, if it must be, before the new joint is alive: it joins below.)
        currentJointGraph()
        var rec = JointRecord()
        rec.generation = joints[j].generation &+ 1
        rec.alive = true
        rec.def = def
        rec.bodyA = Int32(a)
        rec.bodyB = Int32(b)
        joints[j] = rec
        resolveJointDefaults(j)
        jointCount += 1
        jointGraph.link(joint: j, bodyA: a, bodyB: b)
        noteJointMaybeAwake(j)
        wakeBody(a); wakeBody(b)
        return jointHandle(j)
    }

    /// Fills the rest length and reference angle from the current placement when not given.
    func resolveJointDefaults(_ j: Int) {
        let a = Int(joints[j].bodyA), b = Int(joints[j].bodyB)
        let def = joints[j].def
        let pA = sims[a].xf.apply(def.localAnchorA), pB = sims[b].xf.apply(def.localAnchorB)
        joints[j].restLength = max(def.length ?? distance(pA, pB), 0)
        joints[j].referenceAngle = def.referenceAngle ?? Rot.relativeAngle(sims[b].xf.q, sims[a].xf.q)
    }

    func jointHandle(_ j: Int) -> JointHandle { JointHandle(index: Int32(j), generation: joints[j].generation) }

    /// True when `h` addresses a live joint.
    public func isValid(_ h: JointHandle) -> Bool {
        joints.holdsLive(h.index, generation: h.generation)
    }

    func jointSlot(_ h: JointHandle, _ function: StaticString = #function) -> Int {
        liveSlot(h.index, of: h, isLive: isValid(h), "joint", function)
    }

    /// Destroys a joint and wakes its bodies.
    public func destroyJoint(_ h: JointHandle) {
        structuralChange("destroyJoint")
        let j = jointSlot(h)
        wakeBody(Int(joints[j].bodyA)); wakeBody(Int(joints[j].bodyB))
        currentJointGraph()
        jointGraph.unlink(joint: j, bodyA: Int(joints[j].bodyA), bodyB: Int(joints[j].bodyB))
        joints[j].alive = false
        islands.dirty = true; islands.awakeJointsMayShrink = true
        jointSlots.release(Int32(j))
        jointCount -= 1
    }

    /// The joint's definition (with the bodies it was created with).
    public func jointDef(_ h: JointHandle) -> JointDef { joints[jointSlot(h)].def }

    /// The joint's rest length (distance joints) as resolved at creation or last update.
    public func jointLength(_ h: JointHandle) -> Float { joints[jointSlot(h)].restLength }

    /// Changes a joint's parameters (not its bodies or type) and wakes its bodies; accumulated
    /// impulses are kept so a moving target or anchor stays smooth.
    public func updateJoint(_ h: JointHandle, _ change: (inout JointDef) -> Void) {
        stateChanged()
        let j = jointSlot(h)
        var def = joints[j].def
        change(&def)
        precondition(def.type == joints[j].def.type, "updateJoint: a joint's type cannot change")
        precondition(def.bodyA == joints[j].def.bodyA && def.bodyB == joints[j].def.bodyB,
                     "updateJoint: a joint's bodies cannot change")
        if let msg = def.validate() { preconditionFailure("updateJoint: \(msg)") }
        let lengthGiven = def.length != nil, angleGiven = def.referenceAngle != nil
        joints[j].def = def
        if lengthGiven { joints[j].restLength = def.length! }
        if angleGiven { joints[j].referenceAngle = def.referenceAngle! }
        if !lengthGiven || !angleGiven {
            let keepL = joints[j].restLength, keepA = joints[j].referenceAngle
            resolveJointDefaults(j)
            if !lengthGiven { joints[j].restLength = keepL }
            if !angleGiven { joints[j].referenceAngle = keepA }
        }
        wakeBody(Int(joints[j].bodyA)); wakeBody(Int(joints[j].bodyB))
    }

    /// Current world anchor points of a joint.
    public func jointAnchors(_ h: JointHandle) -> (Vec2, Vec2) {
        let j = jointSlot(h)
        let a = Int(joints[j].bodyA), b = Int(joints[j].bodyB)
        return (sims[a].xf.apply(joints[j].def.localAnchorA), sims[b].xf.apply(joints[j].def.localAnchorB))
    }
}

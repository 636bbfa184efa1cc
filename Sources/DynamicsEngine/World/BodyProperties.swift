extension World {
    // MARK: - Reading

    /// The world position of the body origin.
    public func position(_ h: BodyHandle) -> Vec2 { sims[slot(h)].xf.p }
    /// The body's rotation in radians, in (-π, π].
    public func angle(_ h: BodyHandle) -> Float { sims[slot(h)].xf.q.angle }
    /// The body's transform (origin and rotation).
    public func transform(_ h: BodyHandle) -> Transform { sims[slot(h)].xf }
    /// The world centre of mass.
    public func worldCenter(_ h: BodyHandle) -> Vec2 { sims[slot(h)].center }
    /// Velocity of the centre of mass (pt/s).
    public func linearVelocity(_ h: BodyHandle) -> Vec2 { states[slot(h)].v }
    /// Angular velocity (rad/s).
    public func angularVelocity(_ h: BodyHandle) -> Float { states[slot(h)].w }
    /// The body's mass: area (pt²) × density / 10 000 summed over its shapes; 0 for static and
    /// kinematic bodies.
    public func mass(_ h: BodyHandle) -> Float { sims[slot(h)].mass }
    /// Rotational inertia about the centre of mass.
    public func inertia(_ h: BodyHandle) -> Float { sims[slot(h)].inertia }
    /// Whether the body is static, kinematic or dynamic.
    public func type(_ h: BodyHandle) -> BodyType { metas[slot(h)].type }
    /// Whether the body is awake (asleep bodies are not simulated until something wakes them).
    public func isAwake(_ h: BodyHandle) -> Bool { metas[slot(h)].awake }
    /// The body's electric charge (`BodyDef.charge`).
    public func charge(_ h: BodyHandle) -> Float { metas[slot(h)].charge }
    /// The caller's value stored with the body (`BodyDef.userData`).
    public func userData(_ h: BodyHandle) -> UInt64 { metas[slot(h)].userData }
    /// The body's bounding box (union of its shapes', without margin).
    public func aabb(_ h: BodyHandle) -> AABB {
        let i = slot(h)
        var box: AABB? = nil
        forEachShape(of: i) { s in
            let b = shapeAABB(s, sims[i].xf)
            box = box.map { $0.union(b) } ?? b
        }
        let p = sims[i].xf.p
        return box ?? AABB(lower: p, upper: p)
    }

    /// True when at least one body is awake (the animator's "keep running" signal). Costs
    /// nothing in a world asleep that no call changed since.
    public var hasAwakeBodies: Bool { !isAsleep && anyBodyAwake() }

    /// Whether some non-static body is awake (a pass over the records, stopping at the first).
    func anyBodyAwake() -> Bool {
        let me = metas.view
        // (The awake list, while it is kept, holds every awake body and maybe some that
        // slept or died since: a world mostly asleep reads its awake part, not every slot.)
        if !islands.awakeStale {
            let listed = islands.awake.view.contains { me[Int($0)].alive && me[Int($0)].type != .static && me[Int($0)].awake }
            assert(listed == scanForAwakeBody(), "an awake body is missing from the awake list")
            return listed
        }
        return scanForAwakeBody()
    }

    @inline(__always) private func scanForAwakeBody() -> Bool {
        let me = metas.view
        for i in 0..<Int(bodySlots.count) where me[i].alive && me[i].type != .static && me[i].awake { return true }
        return false
    }

    /// Number of awake non-static bodies (dynamic and kinematic). Costs nothing in a world
    /// asleep that no call changed since; otherwise a pass over the bodies.
    public var awakeBodyCount: Int {
        if isAsleep { return 0 }
        var n = 0
        for i in 0..<Int(bodySlots.count) where metas[i].alive && metas[i].type != .static && metas[i].awake { n += 1 }
        return n
    }

    /// The last step left every body asleep, and no call changed the world since (its steps
    /// do nothing).
    @inline(__always) var isAsleep: Bool { rest.asleepGeneration == rest.stateGeneration }

    /// Sum of ½mv² + ½Iω² over dynamic bodies (mass units × pt²/s²).
    public var kineticEnergy: Double {
        var e: Double = 0
        for i in 0..<Int(bodySlots.count) where metas[i].alive && metas[i].type == .dynamic {
            let s = states[i], m = sims[i]
            e += 0.5 * Double(m.mass) * Double(lengthSquared(s.v)) + 0.5 * Double(m.inertia) * Double(s.w * s.w)
        }
        return e
    }

    // MARK: - Writing (each wakes the body)

    /// Moves the body origin and sets its rotation (teleport: velocity kept).
    public func setTransform(_ h: BodyHandle, position: Vec2, angle: Float) {
        stateChanged()
        precondition(position.isFinite && angle.isFinite, "setTransform: position and angle must be finite")
        let i = slot(h)
        sims[i].xf = Transform(p: position, q: Rot(angle: angle))
        sims[i].center = sims[i].xf.apply(sims[i].localCenter)
        sims[i].center0 = sims[i].center
        if metas[i].type == .static { broadPhase.staticDirty = true }
        queryIndex.isStale = true
        wakeBody(i)
    }

    /// Sets the velocity of the centre of mass (pt/s), limited to `settings.maxLinearSpeed`,
    /// and wakes the body. Static bodies ignore it.
    public func setLinearVelocity(_ h: BodyHandle, _ v: Vec2) {
        stateChanged()
        precondition(v.isFinite, "setLinearVelocity: velocity must be finite")
        let i = slot(h)
        guard metas[i].type != .static else { return }
        states[i].v = clampedSpeed(v)
        wakeBody(i)
    }

    /// Sets the angular velocity (rad/s), limited to `World.maxAngularSpeed`, and wakes the body.
    /// Static bodies and bodies with fixed rotation ignore it.
    public func setAngularVelocity(_ h: BodyHandle, _ w: Float) {
        stateChanged()
        precondition(w.isFinite, "setAngularVelocity: angular velocity must be finite")
        let i = slot(h)
        guard metas[i].type != .static, !metas[i].fixedRotation else { return }
        states[i].w = clampedSpin(w)
        wakeBody(i)
    }

    /// Velocities entering the world are limited to `settings.maxLinearSpeed` (pt/s) and
    /// `maxAngularSpeed` (rad/s), so a finite but absurd input cannot overflow later stages.
    func clampedSpeed(_ v: Vec2) -> Vec2 {
        let m = settings.maxLinearSpeed
        // Clamp each component first (handles overflow to infinity), then the length.
        let c = Vec2(clamp(v.x, -m, m), clamp(v.y, -m, m))
        let l = length(c)
        return l > m ? c * (m / l) : c
    }

    func clampedSpin(_ w: Float) -> Float { clamp(w, -World.maxAngularSpeed, World.maxAngularSpeed) }

    /// The largest angular speed a body may have (rad/s).
    public static let maxAngularSpeed: Float = 1000

    /// Adds a force (mass · pt/s²) at a world point for the next step only.
    public func applyForce(_ h: BodyHandle, _ f: Vec2, at point: Vec2? = nil) {
        guard let i = pushedSlot(h, f.isFinite, "applyForce: force must be finite") else { return }
        sims[i].force += f
        if let p = point { sims[i].torque += cross(leverArm(of: p, on: i, "applyForce: point must be finite"), f) }
        if f != .zero { wakeBody(i) }
    }

    /// Adds a torque for the next step only.
    public func applyTorque(_ h: BodyHandle, _ t: Float) {
        guard let i = pushedSlot(h, t.isFinite, "applyTorque: torque must be finite") else { return }
        sims[i].torque += t
        if t != 0 { wakeBody(i) }
    }

    /// Applies an impulse (mass · pt/s) at a world point (the centre of mass if nil).
    public func applyImpulse(_ h: BodyHandle, _ j: Vec2, at point: Vec2? = nil) {
        guard let i = pushedSlot(h, j.isFinite, "applyImpulse: impulse must be finite") else { return }
        states[i].v = clampedSpeed(states[i].v + sims[i].invMass * j)
        if let p = point {
            let arm = leverArm(of: p, on: i, "applyImpulse: point must be finite")
            states[i].w = clampedSpin(states[i].w + sims[i].invInertia * cross(arm, j))
        }
        if j != .zero { wakeBody(i) }
    }

    /// Applies an angular impulse.
    public func applyAngularImpulse(_ h: BodyHandle, _ j: Float) {
        guard let i = pushedSlot(h, j.isFinite, "applyAngularImpulse: impulse must be finite") else { return }
        states[i].w = clampedSpin(states[i].w + sims[i].invInertia * j)
        if j != 0 { wakeBody(i) }
    }

    /// The start of every force, torque and impulse: a state change, the push checked finite
    /// (`message` otherwise) and the body's slot, or nil when the body is not dynamic (nothing
    /// pushes static and kinematic bodies).
    @inline(__always)
    private func pushedSlot(_ h: BodyHandle, _ isFinite: Bool, _ message: StaticString,
                            _ function: StaticString = #function) -> Int? {
        stateChanged()
        precondition(isFinite, "\(message)")
        let i = slot(h, function)
        return metas[i].type == .dynamic ? i : nil
    }

    /// From body `i`'s centre of mass to world point `p` (checked finite, `message` otherwise):
    /// the lever arm of a push at `p`.
    @inline(__always)
    private func leverArm(of p: Vec2, on i: Int, _ message: StaticString) -> Vec2 {
        precondition(p.isFinite, "\(message)")
        return p - sims[i].center
    }

    /// Sets the body's own gravity (`nil`: follow the world's gravity).
    public func setGravity(_ h: BodyHandle, _ g: Vec2?) {
        stateChanged()
        if let g { precondition(g.isFinite, "setGravity: gravity must be finite") }
        let i = slot(h)
        metas[i].ownGravity = g != nil
        sims[i].gravity = g ?? gravity
        wakeBody(i)
    }

    /// The gravitational acceleration the body feels.
    public func gravity(_ h: BodyHandle) -> Vec2 { sims[slot(h)].gravity }

    /// Sets the body's linear and angular damping (1/s, finite and ≥ 0; see
    /// `BodyDef.linearDamping`) and wakes it.
    public func setDamping(_ h: BodyHandle, linear: Float, angular: Float) {
        stateChanged()
        precondition(linear.isFinite && angular.isFinite && linear >= 0 && angular >= 0,
                     "setDamping: damping must be finite and not negative")
        let i = slot(h)
        sims[i].linearDamping = linear
        sims[i].angularDamping = angular
        wakeBody(i)
    }

    /// Sets the body's electric charge (finite). It does not wake the body.
    public func setCharge(_ h: BodyHandle, _ q: Float) {
        stateChanged()
        precondition(q.isFinite, "setCharge: charge must be finite")
        metas[slot(h)].charge = q
    }

    /// Stores a value of the caller's with the body (`BodyDef.userData`).
    public func setUserData(_ h: BodyHandle, _ d: UInt64) { stateChanged(); metas[slot(h)].userData = d }

    /// Stops (true) or allows (false) the body's rotation: fixed rotation means infinite
    /// rotational inertia and clears the spin. Wakes the body.
    public func setFixedRotation(_ h: BodyHandle, _ fixed: Bool) {
        stateChanged()
        let i = slot(h)
        guard metas[i].fixedRotation != fixed else { return }
        metas[i].fixedRotation = fixed
        if fixed { states[i].w = 0 }
        updateMass(body: i)
        wakeBody(i)
    }

    /// Changes the body type (e.g. anchoring an item makes it static). Velocity is cleared
    /// when the body becomes static.
    public func setType(_ h: BodyHandle, _ type: BodyType) {
        structuralChange("setType")
        let i = slot(h)
        guard metas[i].type != type else { return }
        // (A sleeping body's contacts come back first: its set would not outlive the change.)
        wakeBody(i)
        broadPhase.dirty = true
        islands.dirty = true; islands.awakeJointsStale = true
        if metas[i].type == .static || type == .static { broadPhase.staticDirty = true }
        wakeTouchingBodies(of: i)
        if metas[i].type == .static { movingBodyCount += 1 } else if type == .static { movingBodyCount -= 1 }
        metas[i].type = type
        forEachShape(of: i) { shapes[$0].isStatic = type == .static }
        if type == .static { states[i] = BodyState(); removeFromSleepRing(i); metas[i].awake = false; islands.awakeMayShrink = true } else { metas[i].awake = true; noteMaybeAwake(i) }
        updateMass(body: i)
        if type != .static { wakeBody(i) }
    }

    /// Changes the material of every shape of the body.
    public func setMaterial(_ h: BodyHandle, _ m: Material) {
        stateChanged()
        precondition(m.density.isFinite && m.friction.isFinite && m.restitution.isFinite && m.rollingResistance.isFinite,
                     "setMaterial: material must be finite")
        precondition(m.density > 0 && m.friction >= 0 && m.restitution >= 0 && m.rollingResistance >= 0,
                     "setMaterial: density must be > 0, friction, restitution and rolling resistance ≥ 0")
        let i = slot(h)
        forEachShape(of: i) { s in
            shapes[s].density = m.density
            shapes[s].friction = m.friction
            shapes[s].restitution = m.restitution
            shapes[s].rollingResistance = m.rollingResistance
        }
        // Existing contacts pick up the new friction, restitution and rolling resistance.
        forEachContact(ofBody: i) { contacts.remix($0, shapes: shapes.view) }
        updateMass(body: i)
        wakeBody(i)
    }

    /// Allows or forbids sleep for one body.
    public func setSleepAllowed(_ h: BodyHandle, _ allowed: Bool) {
        stateChanged()
        let i = slot(h)
        metas[i].allowSleep = allowed
        if !allowed { wakeBody(i) }
    }

    /// Sets a body's sleep threshold (pt/s; see `BodyDef.sleepThreshold`); a body moving
    /// faster than its new threshold is woken.
    /// - Precondition: `threshold` is not NaN and not negative.
    public func setSleepThreshold(_ h: BodyHandle, _ threshold: Float) {
        precondition(!threshold.isNaN && threshold >= 0, "World.setSleepThreshold: the threshold must be a speed of at least 0 pt/s (got \(threshold))")
        stateChanged()
        let i = slot(h)
        metas[i].sleepThreshold = threshold
        if metas[i].type != .static && metas[i].awake { metas[i].sleepTime = 0 }
    }

    /// A body's sleep threshold (pt/s; see `BodyDef.sleepThreshold`).
    public func sleepThreshold(_ h: BodyHandle) -> Float { metas[slot(h)].sleepThreshold }

    /// Makes a body a bullet or an ordinary body (see `BodyDef.isBullet`); takes effect from
    /// the next step. Meaningful for dynamic bodies only (kept for any type).
    public func setBullet(_ h: BodyHandle, _ isBullet: Bool) {
        stateChanged()
        metas[slot(h)].isBullet = isBullet
    }

    /// Whether a body is a bullet (`BodyDef.isBullet`, `setBullet(_:_:)`).
    public func isBullet(_ h: BodyHandle) -> Bool { metas[slot(h)].isBullet }

    /// Wakes a body (and its sleeping island).
    public func wake(_ h: BodyHandle) { stateChanged(); wakeBody(slot(h)) }

    /// Wakes every body.
    public func wakeAll() {
        stateChanged()
        for i in 0..<Int(bodySlots.count) where metas[i].alive && metas[i].type != .static && !metas[i].awake {
            wakeBody(i)
        }
    }
}

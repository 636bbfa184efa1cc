extension World {
    /// Creates a body with its shapes.
    ///
    /// - Throws: `GeometryError` for invalid geometry, `WorldError` for a non-finite or
    ///   negative definition, a dynamic body without mass, or an unknown collision group.
    @discardableResult
    public func createBody(_ def: BodyDef, shapes shapeDefs: [ShapeDef]) throws -> BodyHandle {
        structuralChange("createBody")
        guard def.position.isFinite, def.angle.isFinite else { throw WorldError.nonFinite("body position and angle") }
        guard def.linearVelocity.isFinite, def.angularVelocity.isFinite else { throw WorldError.nonFinite("body velocity") }
        guard def.linearDamping.isFinite, def.angularDamping.isFinite, def.charge.isFinite else {
            throw WorldError.nonFinite("damping and charge")
        }
        guard def.linearDamping >= 0, def.angularDamping >= 0 else { throw WorldError.negative("damping") }
        if let g = def.gravity, !g.isFinite { throw WorldError.nonFinite("body gravity") }
        if def.sleepThreshold.isNaN { throw WorldError.nonFinite("sleep threshold") }
        guard def.sleepThreshold >= 0 else { throw WorldError.negative("sleep threshold") }
        for g in def.groups where !isValid(g) { throw WorldError.unknownGroup(g) }

        // Validate and prepare all shapes before touching the world (in a reused list: a new
        // one would be an allocation for every body created, as when a component re-adds its
        // item; emptied by popping — `removeAll` destroys its tuples through the runtime's
        // generic path, a costly call for every body).
        var prepared = preparedShapes
        preparedShapes = []
        defer { prepared.removeAllKeepingCapacity(); preparedShapes = prepared }
        for sd in shapeDefs {
            try sd.material.validate()
            switch sd.geometry {
            case let .box(hx, hy, c, a):
                prepared.append((sd, .box(try GeometryBuilder.box(halfWidth: hx, halfHeight: hy, center: c, angle: a))))
            case let .polygon(pts):
                prepared.append((sd, try GeometryBuilder.prepared(pts)))
            case let .capsule(a, b, r):
                prepared.append((sd, .capsule(try GeometryBuilder.capsule(a, b, radius: r))))
            case let .roundedPolygon(pts, r):
                try GeometryBuilder.checkRadius(r)
                prepared.append((sd, try GeometryBuilder.prepared(pts)))
            case let .circle(r, c):
                guard r.isFinite, c.isFinite else { throw GeometryError.nonFinite("circle radius and center") }
                guard r > 0 else { throw GeometryError.nonPositiveSize("circle radius") }
                prepared.append((sd, .direct))
            case let .segment(a, b):
                guard a.isFinite, b.isFinite else { throw GeometryError.nonFinite("segment end points") }
                guard distance(a, b) > 1.0e-4 else { throw GeometryError.degenerateSegment }
                if def.type != .static { throw WorldError.segmentOnMovingBody }
                prepared.append((sd, .direct))
            }
        }
        if def.type == .dynamic {
            var total: Float = 0
            for (sd, _) in prepared { if case .segment = sd.geometry {} else { total += sd.material.density } }
            if total <= 0 { throw WorldError.dynamicBodyWithoutMass }
        }

        let (slot, isNew) = bodySlots.allocate()
        let i = Int(slot)
        islands.dirty = true
        if isNew {
            sims.append(BodySim()); states.append(BodyState()); metas.append(BodyMeta()); groups.ofBody.appendSlot()
            contacts.bodySets.append(-1)
            stepContext.columnsChanged()
        }
        var meta = BodyMeta()
        meta.generation = metas[i].generation &+ 1
        meta.alive = true
        meta.type = def.type
        meta.awake = def.type != .static && !def.startsAsleep
        meta.fixedRotation = def.fixedRotation
        meta.ownGravity = def.gravity != nil
        meta.allowSleep = def.allowSleep
        meta.sleepThreshold = def.sleepThreshold
        meta.isBullet = def.isBullet
        meta.charge = def.charge
        meta.userData = def.userData
        metas[i] = meta
        // A dynamic body created asleep is an island of its own, with a sleeping set.
        contacts.bodySets[i] = def.type == .dynamic && !meta.awake ? contacts.makeSet() : -1
        if meta.awake { noteMaybeAwake(i) }
        var sim = BodySim()
        sim.xf = Transform(p: def.position, q: Rot(angle: def.angle))
        sim.linearDamping = def.linearDamping
        sim.angularDamping = def.angularDamping
        sim.gravity = def.gravity ?? gravity
        sims[i] = sim
        states[i] = BodyState()
        if def.type != .static {
            states[i].v = clampedSpeed(def.linearVelocity)
            states[i].w = def.fixedRotation ? 0 : clampedSpin(def.angularVelocity)
        }
        groups.ofBody.removeAll(ofBody: i)
        for g in def.groups { addToGroupUnchecked(body: i, group: Int(g.index)) }

        for (sd, geometry) in prepared { _ = addShape(body: i, def: sd, prepared: geometry) }
        updateMass(body: i)
        if def.type == .static { broadPhase.staticDirty = true } else { movingBodyCount += 1 }
        bodyCount += 1
        return handle(ofBody: i)
    }

    /// Adds one shape record; shapes of a body are created together and are contiguous
    /// in creation order only when the slots happen to be, so bodies keep an explicit list.
    func addShape(body: Int, def: ShapeDef, prepared: PreparedGeometry) -> Int32 {
        let (slot, isNew) = shapeSlots.allocate()
        let s = Int(slot)
        // (The shape columns or the vertex pool may grow: the step context takes new views.)
        stepContext.columnsChanged()
        if isNew { shapes.append(ShapeRecord()); shapeNext.append(-1); broadPhase.appendShapeSlot() }
        noteShapeChange(s, isStatic: metas[body].type == .static)
        var rec = ShapeRecord()
        rec.generation = shapes[s].generation &+ 1
        rec.alive = true
        rec.body = Int32(body)
        rec.friction = def.material.friction
        rec.restitution = def.material.restitution
        rec.density = def.material.density
        rec.rollingResistance = def.material.rollingResistance
        rec.isStatic = metas[body].type == .static
        rec.filtered = def.filter != .default
        broadPhase.filters[s] = def.filter
        switch def.geometry {
        case let .circle(r, c):
            rec.kind = .circle; rec.radius = r; rec.center = c
        case let .segment(a, b):
            rec.kind = .segment
            let nRight = normalize(rightPerp(b - a)), nLeft = normalize(leftPerp(b - a))
            rec.vertexStart = pool.allocate(count: 2) { $0 == 0 ? (a, nRight) : (b, nLeft) }
            rec.vertexCount = 2
            rec.center = (a + b) * 0.5
        case .box, .polygon, .capsule, .roundedPolygon:
            rec.kind = .polygon
            switch def.geometry {
            case let .capsule(_, _, r), let .roundedPolygon(_, r): rec.radius = r
            default: break
            }
            switch prepared {
            case .box(let b):
                rec.vertexStart = pool.allocate(count: 4) { (b.vertices[$0], b.normals[$0]) }
                rec.vertexCount = Int32(b.vertices.count)
                rec.center = b.centroid
            case .polygon(let p):
                rec.vertexStart = pool.allocate(count: p.vertices.count) { (p.vertices[$0], p.normals[$0]) }
                rec.vertexCount = Int32(p.vertices.count)
                rec.center = p.centroid
            case .capsule(let c):
                rec.vertexStart = pool.allocate(count: 2) { $0 == 0 ? (c.a, c.normal) : (c.b, -c.normal) }
                rec.vertexCount = 2
                rec.center = 0.5 * (c.a + c.b)
            case .direct:
                preconditionFailure("addShape: a polygon shape without its prepared vertices")
            }
        }
        shapes[s] = rec
        // Its box and fat box where it is now (a shape of a sleeping body keeps them until the
        // body wakes).
        broadPhase.boxes[s] = shapeAABB(s, sims[body].xf).expanded(by: 0.5 * speculativeDistance)
        broadPhase.fatBoxes[s] = broadPhase.boxes[s].expanded(by: fatMargin)
        // Link into the body's shape list (kept in creation order).
        shapeNext[s] = -1
        if metas[body].firstShape < 0 {
            metas[body].firstShape = slot
        } else {
            var t = Int(metas[body].firstShape)
            while shapeNext[t] >= 0 { t = Int(shapeNext[t]) }
            shapeNext[t] = slot
        }
        metas[body].shapeCount += 1
        return slot
    }

    /// Recomputes mass, inertia and centre of mass from the body's shapes.
    func updateMass(body i: Int) {
        var sim = sims[i]
        let meta = metas[i]
        sim.mass = 0; sim.inertia = 0; sim.invMass = 0; sim.invInertia = 0
        sim.localCenter = .zero
        var extent: Float = 0
        if meta.type == .dynamic {
            var mass: Float = 0, cen = Vec2.zero, rotI: Float = 0
            forEachShape(of: i) { s in
                let rec = shapes[s]
                let d = rec.density * 1.0e-4
                let md: MassData
                switch rec.kind {
                case .circle: md = MassComputer.circle(radius: rec.radius, center: rec.center, density: d)
                case .polygon:
                    // Straight from the vertex pool: no array per shape (setMaterial calls this).
                    let st = Int(rec.vertexStart), n = Int(rec.vertexCount)
                    let vs = pool.vertices.view.subview(st..<(st + n))
                    md = rec.radius > 0
                        ? MassComputer.rounded(vs, normals: pool.normals.view.subview(st..<(st + n)), radius: rec.radius, density: d)
                        : MassComputer.polygon(vs, density: d)
                case .segment: return
                }
                mass += md.mass
                cen += md.mass * md.center
                rotI += md.inertia + md.mass * dot(md.center, md.center)
            }
            if mass > 0 {
                sim.mass = mass
                sim.invMass = 1 / mass
                cen /= mass
                let iCenter = rotI - mass * dot(cen, cen)
                if !meta.fixedRotation && iCenter > 0 {
                    sim.inertia = iCenter
                    sim.invInertia = 1 / iCenter
                }
                sim.localCenter = cen
            }
        }
        forEachShape(of: i) { s in
            let rec = shapes[s]
            switch rec.kind {
            case .circle: extent = max(extent, length(rec.center - sim.localCenter) + rec.radius)
            case .polygon, .segment:
                let st = Int(rec.vertexStart)
                for k in 0..<Int(rec.vertexCount) { extent = max(extent, length(pool.vertices[st + k] - sim.localCenter) + rec.radius) }
            }
        }
        sim.maxExtent = extent
        sim.coreRadius = coreRadius(of: i, localCenter: sim.localCenter)
        sim.center = sim.xf.apply(sim.localCenter)
        sim.center0 = sim.center
        sims[i] = sim
    }

    /// The largest distance from `localCenter` to the surface of a shape that contains it
    /// (a circle: radius minus the offset; a polygon: the nearest edge plane); at least the
    /// linear slop, so a body whose centre lies outside all its shapes still sweeps a point.
    func coreRadius(of i: Int, localCenter c: Vec2) -> Float {
        var r: Float = 0
        forEachShape(of: i) { s in
            let rec = shapes[s]
            switch rec.kind {
            case .circle: r = max(r, rec.radius - length(rec.center - c))
            case .polygon:
                let st = Int(rec.vertexStart)
                var inner = Float.infinity
                for k in 0..<Int(rec.vertexCount) { inner = min(inner, dot(pool.normals[st + k], pool.vertices[st + k] - c)) }
                r = max(r, inner + rec.radius)
            case .segment: break
            }
        }
        return max(r, settings.linearSlop)
    }

    func polygonVertices(_ s: Int) -> [Vec2] {
        let st = Int(shapes[s].vertexStart)
        return Array(pool.vertices[st..<(st + Int(shapes[s].vertexCount))])
    }

    @inline(__always)
    func forEachShape(of body: Int, _ f: (Int) -> Void) {
        var s = metas[body].firstShape
        while s >= 0 { f(Int(s)); s = shapeNext[Int(s)] }
    }

    /// Destroys a body, its shapes, and every joint attached to it. Contacts it had end
    /// (reported in `contactEndEvents` of the next step).
    public func destroyBody(_ h: BodyHandle) {
        structuralChange("destroyBody")
        let i = slot(h)
        wakeBody(i)
        // Joints (in slot order, as the slots are freed for reuse).
        if jointCount > 0 {
            for j in collectJoints(ofBody: i) { destroyJoint(jointHandle(Int(j))) }
        }
        if metas[i].type == .static { broadPhase.staticDirty = true }
        // Contacts (found through the shapes' lists, so before the shapes go).
        endContacts(ofBody: i)
        // Shapes.
        var s = metas[i].firstShape
        while s >= 0 {
            let next = shapeNext[Int(s)]
            releaseShape(Int(s))
            s = next
        }
        groups.ofBody.removeAll(ofBody: i)
        removeFromSleepRing(i)
        metas[i].alive = false
        islands.dirty = true
        islands.awakeMayShrink = true
        metas[i].firstShape = -1
        metas[i].shapeCount = 0
        bodySlots.release(Int32(i))
        bodyCount -= 1
        if metas[i].type != .static { movingBodyCount -= 1 }
    }

    /// Tells the broad phase that shape slot `s` got or lost a shape: a moving one is taken
    /// in by the next pass (`BroadPhase.shapeChanges`), a static one rebuilds the lists.
    func noteShapeChange(_ s: Int, isStatic: Bool) {
        if isStatic {
            broadPhase.dirty = true
        } else {
            broadPhase.shapeChanges.append(Int32(s))
            broadPhase.shapesChanged = true
        }
    }

    func releaseShape(_ s: Int) {
        noteShapeChange(s, isStatic: shapes[s].isStatic)
        if shapes[s].oneSided { continuous.oneSidedSegments -= 1; shapes[s].oneSided = false }
        if shapes[s].kind != .circle { pool.release(start: shapes[s].vertexStart, count: shapes[s].vertexCount) }
        shapes[s].alive = false
        shapes[s].body = -1
        shapeNext[s] = -1
        shapeSlots.release(Int32(s))
    }
}

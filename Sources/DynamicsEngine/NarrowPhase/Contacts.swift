/// A potential or actual contact between two shapes; persists while their boxes overlap.
@usableFromInline
struct Contact {
    /// Has manifold points (possibly speculative): links islands and is solved.
    static let hasPoints: UInt8 = 1
    /// Actually touching (a point within the linear slop): drives begin / end events.
    static let touching: UInt8 = 2
    /// Began touching in this step (begin event pending).
    static let began: UInt8 = 4

    var key: UInt64 = 0
    /// Shape A has the larger `ShapeKind` (the narrow phase's convention); -1 = dead.
    var shapeA: Int32 = -1
    var shapeB: Int32 = -1
    var bodyA: Int32 = -1
    var bodyB: Int32 = -1
    var friction: Float = 0
    var restitution: Float = 0
    var flags: UInt8 = 0
    var manifold = Manifold()
}

extension World {
    /// Merges this step's sorted pair keys with last step's sorted contacts: pairs that
    /// persist keep their manifold (warm starting), new pairs get new contacts, and
    /// contacts whose pair vanished end.
    func mergeContacts() {
        contactsBack.removeAll(keepingCapacity: true)
        let pairs = broadPhase.pairs
        var i = 0, j = 0
        let oldCount = contacts.count
        while i < pairs.count || j < oldCount {
            if j < oldCount && contacts[j].shapeA < 0 { j += 1; continue }  // ended explicitly
            if i < pairs.count && (j >= oldCount || pairs[i] < contacts[j].key) {
                contactsBack.append(makeContact(key: pairs[i]))
                i += 1
            } else if i >= pairs.count || pairs[i] > contacts[j].key {
                let c = contacts[j]
                if c.flags & Contact.touching != 0 { contactEndEvents.append(endEvent(for: c)) }
                j += 1
            } else {
                var c = contacts[j]
                c.flags &= ~Contact.began
                contactsBack.append(c)
                i += 1; j += 1
            }
        }
        swap(&contacts, &contactsBack)
    }

    func makeContact(key: UInt64) -> Contact {
        var s = Int32(truncatingIfNeeded: key >> 32)
        var t = Int32(truncatingIfNeeded: key & 0xFFFF_FFFF)
        let ks = shapes[Int(s)].kind.rawValue, kt = shapes[Int(t)].kind.rawValue
        if kt > ks || (kt == ks && t < s) { swap(&s, &t) }
        var c = Contact()
        c.key = key
        c.shapeA = s; c.shapeB = t
        c.bodyA = shapes[Int(s)].body; c.bodyB = shapes[Int(t)].body
        c.friction = (shapes[Int(s)].friction * shapes[Int(t)].friction).squareRoot()
        c.restitution = max(shapes[Int(s)].restitution, shapes[Int(t)].restitution)
        return c
    }

    @inline(__always)
    func shapeView(_ s: Int, _ v: UnsafePointer<Vec2>, _ n: UnsafePointer<Vec2>) -> ShapeView {
        let r = shapes[s]
        return ShapeView(kind: r.kind, count: Int(r.vertexCount), vertices: v + Int(r.vertexStart),
                         normals: n + Int(r.vertexStart), center: r.center, radius: r.radius)
    }

    /// Runs the narrow phase on every contact with an awake body, carrying impulses over by
    /// feature id, and flags contacts that began or stopped touching.
    func updateContacts(dt: Float, range: Range<Int>) {
        let slop = settings.linearSlop
        let spec = speculativeDistance
        let maxMargin = spec + 4 * settings.maxLinearSpeed * dt
        pool.vertices.withUnsafeBufferPointer { vb in
            pool.normals.withUnsafeBufferPointer { nb in
                let v = vb.baseAddress!, nrm = nb.baseAddress!
                for k in range {
                    var c = contacts[k]
                    let a = Int(c.bodyA), b = Int(c.bodyB)
                    let awakeA = metas[a].awake && metas[a].type != .static
                    let awakeB = metas[b].awake && metas[b].type != .static
                    if !awakeA && !awakeB { continue }
                    let sa = states[a], sb = states[b]
                    let margin = min(spec + dt * (length(sa.v - sb.v) + abs(sa.w) * sims[a].maxExtent + abs(sb.w) * sims[b].maxExtent), maxMargin)
                    var m = Collide.manifold(shapeView(Int(c.shapeA), v, nrm), sims[a].xf,
                                             shapeView(Int(c.shapeB), v, nrm), sims[b].xf, speculative: margin)
                    // Warm start: carry impulses of points with matching feature ids.
                    var minSep = Float.infinity
                    for p in 0..<m.pointCount {
                        var mp = m[p]
                        minSep = min(minSep, mp.separation)
                        for q in 0..<c.manifold.pointCount where c.manifold[q].id == mp.id {
                            mp.normalImpulse = c.manifold[q].normalImpulse
                            mp.tangentImpulse = c.manifold[q].tangentImpulse
                        }
                        m[p] = mp
                    }
                    let wasTouching = c.flags & Contact.touching != 0
                    let touching = m.pointCount > 0 && minSep < slop
                    var f: UInt8 = 0
                    if m.pointCount > 0 { f |= Contact.hasPoints }
                    if touching { f |= Contact.touching }
                    if touching && !wasTouching { f |= Contact.began }
                    if !touching && wasTouching { f |= 8 }  // ended: reported below
                    c.flags = f
                    c.manifold = m
                    contacts[k] = c
                }
            }
        }
    }

    /// Collects end events for contacts flagged as ended, and wakes sleeping bodies that an
    /// awake body now touches.
    func collectContactChanges() {
        for k in contacts.indices {
            let f = contacts[k].flags
            if f & 8 != 0 {
                contactEndEvents.append(endEvent(for: contacts[k]))
                contacts[k].flags &= ~8
            }
            if f & Contact.hasPoints != 0 {
                let a = Int(contacts[k].bodyA), b = Int(contacts[k].bodyB)
                if metas[a].awake != metas[b].awake {
                    if metas[a].type != .static && !metas[a].awake { wakeBody(a) }
                    if metas[b].type != .static && !metas[b].awake { wakeBody(b) }
                }
            }
        }
    }

    /// Begin events for contacts that began this step (after solving, so the point is the
    /// one with the largest normal impulse).
    func collectBeginEvents() {
        for k in contacts.indices where contacts[k].flags & Contact.began != 0 {
            let c = contacts[k]
            let m = c.manifold
            var best = 0
            if m.pointCount > 1 && m.p1.maxNormalImpulse > m.p0.maxNormalImpulse { best = 1 }
            let point = m[best].point
            contactBeginEvents.append(event(for: c, point: point, normal: m.normal))
        }
    }

    func endEvent(for c: Contact) -> ContactEvent { event(for: c, point: .zero, normal: .zero) }

    /// The event for a contact: boundaries are always the partner; otherwise body A reports.
    func event(for c: Contact, point: Vec2, normal: Vec2) -> ContactEvent {
        let sa = shapes[Int(c.shapeA)], sb = shapes[Int(c.shapeB)]
        if sa.isBoundary {
            let h = BoundaryHandle(shape: c.shapeA, generation: sa.generation)
            return ContactEvent(body: handle(ofBody: Int(c.bodyB)), other: .boundary(h, id: sa.boundaryID), point: point, normal: -normal)
        }
        if sb.isBoundary {
            let h = BoundaryHandle(shape: c.shapeB, generation: sb.generation)
            return ContactEvent(body: handle(ofBody: Int(c.bodyA)), other: .boundary(h, id: sb.boundaryID), point: point, normal: normal)
        }
        return ContactEvent(body: handle(ofBody: Int(c.bodyA)), other: .body(handle(ofBody: Int(c.bodyB))), point: point, normal: normal)
    }

    /// Number of contacts whose shapes touch.
    public var touchingContactCount: Int {
        var n = 0
        for c in contacts where c.flags & Contact.touching != 0 { n += 1 }
        return n
    }

    /// Number of contacts (box overlaps) tracked.
    public var contactCount: Int { contacts.count }
}

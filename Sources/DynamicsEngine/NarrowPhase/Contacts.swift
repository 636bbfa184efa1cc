extension World {
    /// Merges this step's pairs into the contacts (`ContactSet.merge`), when they changed.
    func mergeContacts(_ ctx: StepContext) {
        // The broad phase found the same pairs as last step: the contacts stand.
        guard broadPhase.pairsChanged else { return }
        islands.dirty = true
        let np = broadPhase.pairs.count
        contacts.merge(pairs: broadPhase.pairs.view, shapes: shapes.view, metas: metas.view,
                       workers: np >= options.parallelMin(2048) ? ctx.workers : 1)
    }

    /// The shapes and the vertex pool as views (valid until a shape is added or removed).
    var shapeGeometry: ShapeGeometry {
        ShapeGeometry(records: shapes.view, vertices: pool.vertices.view, normals: pool.normals.view)
    }

    /// Runs the narrow phase on every contact with an awake body, carrying impulses over by
    /// feature id, and flags contacts that began or stopped touching. Contacts are split into
    /// contiguous ranges across the workers; each contact is written only by its own worker.
    func updateContacts(_ step: StepContext) {
        // No contact (a body in flight): no chunk, no list, no flag to look at. (`linksChanged`
        // is read only below, after this pass cleared it.)
        guard step.contacts.count > 0 else {
            contacts.chunkCount = 0
            return
        }
        let dt = step.dt, workers = step.workers
        // (The merge grew the island links with the contacts: the context's views hold.)
        assert(contacts.links.count >= contacts.count, "the merge did not grow the contacts' island links")
        let run = NarrowPhaseContext(step: step, slop: settings.linearSlop, speculative: speculativeDistance,
                                     maxMargin: speculativeDistance + 4 * settings.maxLinearSpeed * dt,
                                     recycleDistance: settings.contactRecycleDistance, linksChanged: contacts.linksChanged,
                                     prefetches: step.contacts.count >= options.prefetchingContacts)
        contacts.linksChanged.clear()
        let count = contacts.count, chunkSize = ContactSet.chunkSize
        let chunks = (count + chunkSize - 1) / chunkSize
        // A chunk lists at most one entry per contact: reserve that once, so the lists do
        // not grow (and allocate) step after step while a world fills up.
        while contacts.changes.count < chunks {
            var list: [UInt16] = []
            list.reserveCapacity(chunkSize)
            contacts.changes.append(list)
        }
        while contacts.staticTouches.count < chunks {
            var list: [UInt16] = []
            list.reserveCapacity(chunkSize)
            contacts.staticTouches.append(list)
        }
        contacts.chunkCount = chunks
        // Chunk c writes only its contacts and its own list.
        Parallel.forChunks(workers: workers, count: count, chunkSize: chunkSize,
                           ContactUpdate(ctx: run, out: ChunkBuffers(contacts.changes.mutableView),
                                         statics: ChunkBuffers(contacts.staticTouches.mutableView), chunkSize: chunkSize))
        if contacts.linksChanged.isSet { islands.dirty = true }
    }

    /// Collects end events for contacts flagged as ended, and wakes sleeping bodies that an
    /// awake body now touches (as `touchWakes` says). Only the contacts the narrow phase listed
    /// can matter (those that began or ended, and those with points and a sleeping body), in
    /// contact order.
    func collectContactChanges() {
        guard contacts.chunkCount > 0 else { return }
        // (Nothing below resizes the contacts: the view holds.)
        let cs = contacts.mutableView
        for c in 0..<contacts.chunkCount {
          for offset in contacts.changes[c] {
            let k = c * ContactSet.chunkSize + Int(offset)
            let f = cs[k].flags
            if f & Contact.ended != 0 {
                contacts.endEvents.append(contacts.endEvent(for: cs[k], shapes: shapes.view, metas: metas.view))
                cs[k].flags &= ~Contact.ended
            }
            if f & Contact.hasPoints != 0 {
                let a = Int(cs[k].bodyA), b = Int(cs[k].bodyB)
                if metas[a].awake != metas[b].awake {
                    if !metas[a].awake && touchWakes(b, sleeping: a) { wakeBody(a) }
                    if !metas[b].awake && touchWakes(a, sleeping: b) { wakeBody(b) }
                }
            }
          }
        }
    }

    /// Begin events for contacts that began this step (after solving, so the point is the
    /// one with the largest normal impulse). Each contact's began flag is cleared once its
    /// event is out, as `collectContactChanges` clears the ended flag: no step ends with one
    /// set. (Otherwise a contact that began in the step its island fell asleep kept the flag
    /// while the world slept — the next full step, finding both bodies asleep, clears it, but
    /// the steps of a world asleep do nothing — and its snapshot differed from a world's that
    /// took full steps.)
    func collectBeginEvents() {
        guard contacts.chunkCount > 0 else { return }
        let cs = contacts.mutableView, chunkSize = ContactSet.chunkSize
        for ch in 0..<contacts.chunkCount {
          for offset in contacts.changes[ch] where cs[ch * chunkSize + Int(offset)].flags & Contact.began != 0 {
            let k = ch * chunkSize + Int(offset)
            contacts.beginEvents.append(contacts.beginEvent(for: cs[k], shapes: shapes.view, metas: metas.view))
            cs[k].flags &= ~Contact.began
          }
        }
    }

    /// Calls `visit` for every contact whose shapes touch now, in contact order, described as
    /// its begin event was: boundaries are always the partner, the point is the manifold point
    /// with the largest normal impulse. Contacts of sleeping bodies are included (they still
    /// touch); contacts ended by a removal since the last step are not. Not during a step.
    public func forEachTouchingContact(_ visit: (ContactEvent) -> Void) {
        checkNotStepping("forEachTouchingContact")
        contacts.flushWoken(); contacts.sortIn()
        var touching: [Contact] = []
        for k in contacts.indices where contacts[k].shapeA >= 0 && contacts[k].flags & Contact.touching != 0 {
            touching.append(contacts[k])
        }
        // (The sleeping islands' contacts, in the same key order.)
        contacts.forEachAsleep { c in if c.flags & Contact.touching != 0 { touching.append(c) } }
        if contacts.asleepCount > 0 { touching.sort { $0.key < $1.key } }
        for c in touching { visit(contacts.beginEvent(for: c, shapes: shapes.view, metas: metas.view)) }
    }

    /// Number of contacts whose manifold the last step recycled (kept, with separations
    /// updated) instead of computing it; see `WorldSettings.contactRecycleDistance`.
    /// Sleeping islands' contacts count as they were when the island fell asleep.
    public var recycledContactCount: Int {
        var n = 0
        for c in contacts.view where c.shapeA >= 0 && c.flags & Contact.recycled != 0 { n += 1 }
        return n + contacts.asleepRecycled
    }

    /// Number of contacts whose shapes touch (sleeping islands' included).
    public var touchingContactCount: Int {
        var n = 0
        for c in contacts.view where c.flags & Contact.touching != 0 { n += 1 }
        return n + contacts.asleepTouching
    }

    /// How deep two touching shapes overlap at most (pt; 0 when none overlaps): the largest
    /// −separation over the points of the touching contacts, sleeping islands' included, as the
    /// last narrow phase to see each contact measured it (a sleeping island's, when it fell
    /// asleep). With the linear slop (`WorldSettings.linearSlop`, 0.5 pt) it tells whether a
    /// resting world's bodies stand on each other or sink in.
    public var deepestTouchingPenetration: Float {
        let data = contacts.data.view
        var deepest: Float = 0
        @inline(__always) func visit(_ c: Contact) {
            guard c.shapeA >= 0, c.flags & Contact.touching != 0, c.slot >= 0 else { return }
            let m = data[Int(c.slot)].manifold
            for p in 0..<Int(m.pointCount) { deepest = max(deepest, -m[p].separation) }
        }
        for c in contacts.view { visit(c) }
        contacts.forEachAsleep { visit($0) }
        return deepest
    }

    /// Number of contacts (box overlaps) tracked: those of awake bodies, and those of each
    /// sleeping island within itself and with static bodies. (Two sleeping islands keep no
    /// contact between them: it would have no points.)
    public var contactCount: Int { contacts.count + contacts.asleepCount }
}

/// Read views of the world for the narrow phase, plus the contact array it writes (each
/// contact by exactly one worker). Valid only inside `World.updateContacts`.
struct NarrowPhaseContext: @unchecked Sendable {
    /// Reads the shapes and bodies; writes each contact, its manifold and its island link
    /// (`StepContext.links`: its two bodies when it has points, else (-1, -1)).
    unowned(unsafe) let step: StepContext
    let slop: Float
    let speculative: Float
    let maxMargin: Float
    /// Relative motion (pt) below which a touching contact keeps its manifold (0: never).
    let recycleDistance: Float
    /// Raised when a contact's link changed (the islands must be rebuilt).
    unowned(unsafe) let linksChanged: WorkFlag
    /// Whether `update` asks for each contact's data and bodies ahead (a world of at least
    /// `StepOptions.prefetchingContacts` contacts).
    let prefetches: Bool

    /// Contact recycling (the idea of Box2D v3.2's persistent manifolds): when the two bodies
    /// barely moved relative to each other since the manifold was computed — less than
    /// `recycleDistance` for touching contacts (the speculative distance for the others),
    /// counting a rotation as the arc it sweeps at the moving body's farthest point, and each
    /// body turned less than about 11° — the manifold's normal, feature ids and impulses are
    /// kept and only the separations and points follow the bodies. Each point's separation
    /// changes by the relative displacement, along the normal, of its two material points
    /// (fixed in each body since the manifold was computed). The point itself — where the
    /// solver applies the impulses — follows the bodies' relative translation only, not their
    /// turns (as Box2D keeps a recycled contact's anchors): a circle rolling in a recycled
    /// contact would otherwise carry the point round its rim, and the normal impulse, no longer
    /// aimed at its centre, would spin it further until the manifold is computed again — in a
    /// pile of circles and boxes this kept a few bodies rocking for good. Returns false when
    /// the contact must be computed afresh.
    @inline(__always)
    func recycle(_ c: inout ContactData, flags: UInt8, _ sa: BodySim, _ sb: BodySim, staticA: Bool, staticB: Bool) -> Bool {
        guard flags & Contact.cached != 0 else { return false }
        let dqA = c.cachedQA.invMul(sa.xf.q), dqB = c.cachedQB.invMul(sb.xf.q)
        guard min(dqA.c, dqB.c) > 0.98 else { return false }
        let relNow = sa.xf.q.invRotate(sb.center - sa.center)
        let relThen = c.cachedQA.invRotate(-c.cachedOffset)
        let extent = max(staticA ? 0 : sa.maxExtent, staticB ? 0 : sb.maxExtent)
        let moved = length(relNow - relThen) + extent * abs(dqA.invMul(dqB).s)
        // (Touching by its points: a contact that touches only because it was struck is still
        // a speculative one here.)
        let pointsTouch = flags & Contact.touching != 0 && flags & Contact.hasPoints != 0 && flags & Contact.speculative == 0
        let tolerance = pointsTouch ? recycleDistance : min(recycleDistance, speculative)
        guard moved < tolerance else { return false }
        let n = c.manifold.normal
        // B's centre moved this much relative to A's since the manifold was computed.
        let shift = sb.center - sa.center + c.cachedOffset
        @inline(__always) func follow(_ p: inout ManifoldPoint) {
            let rA = dqA.rotate(p.anchorA)
            let rB = dqB.rotate(p.anchorA + c.cachedOffset)
            let dp = (sb.center + rB) - (sa.center + rA)
            p.separation = p.baseSeparation + dot(dp, n)
            p.point = sa.center + p.anchorA + 0.5 * shift
        }
        if c.manifold.pointCount > 0 { follow(&c.manifold.p0) }
        if c.manifold.pointCount > 1 { follow(&c.manifold.p1) }
        return true
    }

    /// Whether two bodies' bounding circles (centre of mass, `maxExtent`) lie farther apart
    /// than `margin`, with room for rounding: then every pair of their shapes is too, and its
    /// manifold is empty. A pair whose boxes overlap only because each box covers its shape's
    /// motion over the step (two bodies stirred past each other) is mostly such a pair.
    ///
    /// Every manifold point's separation is the distance between a point of one shape's core
    /// and a point or face of the other's, less their radii, so never below the shapes' true
    /// distance — and the bounding circles' gap is never above it. Segments are left out:
    /// a one-sided segment's empty manifold keeps its normal.
    @inline(__always)
    static func apart(_ sa: BodySim, _ sb: BodySim, margin: Float) -> Bool {
        let d = sb.center - sa.center
        let scale = max(max(abs(sa.center.x), abs(sa.center.y)), max(abs(sb.center.x), abs(sb.center.y)))
        // (Rounding: a few units in the last place of the coordinates, and a fixed part.)
        let reach = sa.maxExtent + sb.maxExtent + margin + 0.25 * Collide.linearSlop + 4.0e-6 * scale
        return dot(d, d) > reach * reach
    }

    /// Remembers where a freshly computed manifold was computed, for `recycle`.
    @inline(__always)
    func cache(_ c: inout ContactData, _ sa: BodySim, _ sb: BodySim) {
        c.cachedOffset = sa.center - sb.center
        c.cachedQA = sa.xf.q
        c.cachedQB = sb.xf.q
        if c.manifold.pointCount > 0 { c.manifold.p0.anchorA = c.manifold.p0.point - sa.center; c.manifold.p0.baseSeparation = c.manifold.p0.separation }
        if c.manifold.pointCount > 1 { c.manifold.p1.anchorA = c.manifold.p1.point - sa.center; c.manifold.p1.baseSeparation = c.manifold.p1.separation }
    }


    /// How many contacts ahead `update` asks for a contact's data and bodies.
    static let contactLead = 6

    /// Updates contacts `range` and lists in `changes` (cleared first) those that began or
    /// ended touching, or have points and a sleeping body (which an awake partner may wake),
    /// as offsets from `range.lowerBound` (a range holds at most 65 536 contacts).
    func update(_ range: Range<Int>, changes: inout [UInt16], staticTouches: inout [UInt16]) {
        changes.removeAllKeepingCapacity()
        staticTouches.removeAllKeepingCapacity()
        assert(range.count <= 1 << 16, "NarrowPhaseContext.update: a range of \(range.count) contacts does not fit 16-bit offsets")
        let cs = step.contacts, links = step.links, data = step.contactData
        let me = step.metas, st = step.states, si = step.sims, dt = step.dt
        let geometry = step.geometry
        @inline(__always) func view(_ s: Int32) -> ShapeView { geometry.shape(Int(s)) }
        var linkChanged = false
        defer { if linkChanged { linksChanged.set() } }
        for k in range {
            // Ask for the data slot and the bodies of the contact `contactLead` ahead: this
            // pass reads them in an order the processor cannot foresee (slots are reused as
            // contacts come and go, bodies are anywhere), and in a large world whose contacts
            // churn (the dashboard scene) waiting for them would be most of its time. A smaller
            // world's contacts and bodies stay in the core's cache, where asking is only overhead.
            let ahead = k + Self.contactLead
            if prefetches && ahead < range.upperBound {
                let c = cs[ahead]
                if c.slot >= 0 { data.prefetch(Int(c.slot)) }
                si.prefetch(Int(c.bodyA)); si.prefetch(Int(c.bodyB))
                me.prefetch(Int(c.bodyA)); me.prefetch(Int(c.bodyB))
            }
            let a = Int(cs[k].bodyA), b = Int(cs[k].bodyB)
            let awakeA = me[a].awake && me[a].type != .static
            let awakeB = me[b].awake && me[b].type != .static
            let sleeping = (!me[a].awake && me[a].type != .static) || (!me[b].awake && me[b].type != .static)
            if !awakeA && !awakeB {
                cs[k].flags &= ~Contact.began  // (a begin event is reported once)
                let linked = cs[k].flags & Contact.hasPoints != 0
                let link = linked ? SIMD2(Int32(a), Int32(b)) : SIMD2<Int32>(-1, -1)
                if links[k] != link { links[k] = link; linkChanged = true }
                continue
            }
            let wasTouching = cs[k].flags & Contact.touching != 0
            let simA = si[a], simB = si[b]
            // The pair's speculative margin (read only by a contact computed afresh: a recycled
            // one reads no velocity).
            @inline(__always) func pairMargin() -> Float {
                let sa = st[a], sb = st[b]
                return min(speculative + dt * (length(sa.v - sb.v) + abs(sa.w) * simA.maxExtent + abs(sb.w) * simB.maxExtent), maxMargin)
            }
            // No points and nothing cached (a manifold that `apart` found empty is never cached,
            // below), and the bodies still apart: the manifold stays empty and the data slot is
            // neither read nor written (in a stirred world most pairs are such, and their slots
            // lie anywhere in memory). Such a contact is never recycled, so its margin is kept.
            let fresh = cs[k].flags & (Contact.hasPoints | Contact.cached) == 0
            var margin: Float = 0
            if fresh {
                margin = pairMargin()
                if Self.apart(simA, simB, margin: margin) && view(cs[k].shapeA).kind != .segment {
                    cs[k].flags = 0
                    if links[k] != SIMD2<Int32>(-1, -1) { links[k] = SIMD2(-1, -1); linkChanged = true }
                    continue
                }
            }
            let d = data.pointer(at: Int(cs[k].slot))
            // Struck in the last step: speculative points only, and the solve pushed on one.
            let struck = cs[k].flags & Contact.speculative != 0
                && (d.pointee.manifold.p0.maxNormalImpulse > 0
                    || (d.pointee.manifold.pointCount > 1 && d.pointee.manifold.p1.maxNormalImpulse > 0))
            var cached = Contact.cached
            var round = false, apart = false
            if recycleDistance > 0 && recycle(&d.pointee, flags: cs[k].flags, simA, simB,
                                              staticA: me[a].type == .static, staticB: me[b].type == .static) {
                // Followed in place: nothing to copy.
                cached |= Contact.recycled
            } else {
                cached = 0
                if !fresh { margin = pairMargin() }
                let shapeA = view(cs[k].shapeA), shapeB = view(cs[k].shapeB)
                round = shapeA.kind == .circle || shapeB.kind == .circle
                apart = Self.apart(simA, simB, margin: margin) && shapeA.kind != .segment
                var m = apart ? Manifold() : Collide.manifold(shapeA, simA.xf, shapeB, simB.xf, speculative: margin)
                // Warm start: carry impulses of points with matching feature ids.
                let old = d.pointee.manifold
                if m.pointCount > 0 {
                    if old.pointCount > 0 && old.p0.id == m.p0.id { m.p0.normalImpulse = old.p0.normalImpulse; m.p0.tangentImpulse = old.p0.tangentImpulse }
                    else if old.pointCount > 1 && old.p1.id == m.p0.id { m.p0.normalImpulse = old.p1.normalImpulse; m.p0.tangentImpulse = old.p1.tangentImpulse }
                }
                if m.pointCount > 1 {
                    if old.pointCount > 0 && old.p0.id == m.p1.id { m.p1.normalImpulse = old.p0.normalImpulse; m.p1.tangentImpulse = old.p0.tangentImpulse }
                    else if old.pointCount > 1 && old.p1.id == m.p1.id { m.p1.normalImpulse = old.p1.normalImpulse; m.p1.tangentImpulse = old.p1.tangentImpulse }
                }
                d.pointee.manifold = m
                // Not cached below: no placements either (as a snapshot restores an uncached contact).
                if apart { d.pointee.cachedOffset = .zero; d.pointee.cachedQA = .identity; d.pointee.cachedQB = .identity }
            }
            let pointCount = d.pointee.manifold.pointCount
            var minSep = Float.infinity
            if pointCount > 0 { minSep = d.pointee.manifold.p0.separation }
            if pointCount > 1 { minSep = min(minSep, d.pointee.manifold.p1.separation) }
            let pointsTouch = pointCount > 0 && minSep < slop
            // Touching: a point within the slop, or struck in the last step.
            let touching = pointsTouch || struck
            var f: UInt8 = cached
            if pointCount > 0 { f |= Contact.hasPoints }
            if pointCount > 0 && !pointsTouch { f |= Contact.speculative }
            if touching { f |= Contact.touching }
            if touching && !wasTouching { f |= Contact.began }
            if !touching && wasTouching { f |= Contact.ended }
            cs[k].flags = f
            // A contact with a circle is not recycled: its normal turns with the circle's
            // position relative to its partner (by about the move over the radius), so a kept
            // normal let a small circle wedged in a pile rock at about 1 pt/s for good — the
            // kept normal let it roll, the one computed afresh pushed it back — and a circle's
            // manifold is cheap to compute.
            // Nor is a pair found apart: the next step passes over it while it stays apart.
            if cached == 0 && recycleDistance > 0 && !round && !apart {
                cache(&d.pointee, simA, simB)
                cs[k].flags |= Contact.cached
            }
            let link = pointCount > 0 ? SIMD2(Int32(a), Int32(b)) : SIMD2<Int32>(-1, -1)
            if links[k] != link { links[k] = link; linkChanged = true }
            if f & (Contact.began | Contact.ended) != 0 || (sleeping && pointCount > 0) { changes.append(UInt16(truncatingIfNeeded: k - range.lowerBound)) }
            if pointCount > 0 && (me[a].type == .static || me[b].type == .static) { staticTouches.append(UInt16(truncatingIfNeeded: k - range.lowerBound)) }
        }
    }
}


/// The narrow phase of one chunk of contacts: chunk `c` writes only its contacts and list `c`.
struct ContactUpdate: RangeTask, @unchecked Sendable {
    let ctx: NarrowPhaseContext
    let out: ChunkBuffers<UInt16>
    let statics: ChunkBuffers<UInt16>
    /// Contacts per chunk: chunk `c` is the range from `c · chunkSize` (its lists' offsets count from there).
    let chunkSize: Int
    func run(_ range: Range<Int>, part c: Int) {
        assert(range.lowerBound == c * chunkSize, "ContactUpdate: chunk \(c) starts at \(range.lowerBound)")
        out.withBuffer(c) { changes in statics.withBuffer(c) { ctx.update(range, changes: &changes, staticTouches: &$0) } }
    }
}

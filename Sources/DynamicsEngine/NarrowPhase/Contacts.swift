/// A potential or actual contact between two shapes; persists while their boxes overlap.
///
/// 40 bytes: the records are merged with each step's pairs and copied whole, so the manifold
/// and its recycling cache live apart, in a slot of `World.contactData` that stays put while
/// the contact lives (`slot`).
@usableFromInline
struct Contact {
    /// Has manifold points (possibly speculative): links islands and is solved.
    static let hasPoints: UInt8 = 1
    /// Actually touching (a point within the linear slop): drives begin / end events.
    static let touching: UInt8 = 2
    /// Began touching in this step (begin event pending).
    static let began: UInt8 = 4
    /// Stopped touching in this step (end event pending).
    static let ended: UInt8 = 8
    /// The manifold was computed (not recycled) at the placements cached below, so a later
    /// step may recycle it (see `NarrowPhaseContext.recycle`).
    static let cached: UInt8 = 16
    /// The last step recycled the manifold instead of computing it.
    static let recycled: UInt8 = 32
    /// Has points, none within the slop (speculative only). When the solve pushed on such a
    /// contact, the shapes touched during the step (a fast body that struck and bounced off
    /// within it): the next step's narrow phase, which reads the impulses anyway, makes the
    /// contact touching (`NarrowPhaseContext.update`).
    static let speculative: UInt8 = 64

    var key: UInt64 = 0
    /// Shape A has the larger `ShapeKind` (the narrow phase's convention); -1 = dead.
    var shapeA: Int32 = -1
    var shapeB: Int32 = -1
    var bodyA: Int32 = -1
    var bodyB: Int32 = -1
    var friction: Float = 0
    var restitution: Float = 0
    /// This contact's `ContactData` slot (assigned right after the merge that creates it).
    var slot: Int32 = -1
    var flags: UInt8 = 0
}

/// A contact's manifold and where it was computed, in a slot of `World.contactData` that
/// stays put while the contact lives (freed slots are reused, last freed first, in key order,
/// so the assignment never depends on the worker count).
@usableFromInline
struct ContactData {
    var manifold = Manifold()
    /// Where the manifold was last computed: centre of A minus centre of B, and both rotations.
    var cachedOffset = Vec2.zero
    var cachedQA = Rot.identity
    var cachedQB = Rot.identity
}

extension World {
    /// Merges this step's sorted pair keys with last step's sorted contacts: pairs that
    /// persist keep their manifold (warm starting), new pairs get new contacts, and
    /// contacts whose pair vanished end.
    ///
    /// Every pair yields exactly one contact (kept or new), so contact `i` of the result
    /// belongs to pair `i`: the pairs are split into contiguous ranges, one per worker, each
    /// merged with the old contacts of the same key range. Old contacts whose pair vanished
    /// are collected per range and reported in order afterwards.
    func mergeContacts() {
        // The broad phase found the same pairs as last step: the contacts stand.
        guard pairsChanged else { return }
        islandsDirty = true
        // Merged into the back buffer, which then trades places with the contacts.
        let out = contactsBack
        let np = broadPhase.pairs.count
        // Only ever grown: every slot below `np` is overwritten below.
        if out.count < np {
            out.append(contentsOf: repeatElement(Contact(), count: np - out.count))
        } else {
            out.truncate(to: np)
        }
        let workers = np >= parallelMin(2048) ? stepWorkers : 1
        while mergeEnded.count < workers { mergeEnded.append([]) }
        while mergeFresh.count < workers { mergeFresh.append([]) }
        let m = ContactMerge(pairs: broadPhase.pairs.view, old: contacts.view, shapes: shapes.view, out: out.mutableView,
                             ended: ChunkBuffers(mergeEnded.mutableView), fresh: ChunkBuffers(mergeFresh.mutableView),
                             parts: workers)
        // Worker w owns pairs `share(np, w, workers)` and old contacts of keys in the same range.
        Parallel.forRanges(workers: workers, count: workers, minPerWorker: 1, m)
        // Serially, in key order: end events and freed data slots of the contacts that are
        // gone, then slots for the new ones (last freed first).
        for w in 0..<workers {
            for j in mergeEnded[w] {
                let c = contacts[Int(j)]
                if c.shapeA >= 0 && c.flags & Contact.touching != 0 { contactEndEvents.append(endEvent(for: c)) }
                if c.slot >= 0 { contactFreeSlots.append(c.slot) }
            }
        }
        for w in 0..<workers {
            for i in mergeFresh[w] {
                let slot: Int32
                if let f = contactFreeSlots.popLast() {
                    slot = f
                    contactData[Int(f)] = ContactData()
                } else {
                    slot = Int32(contactData.count)
                    contactData.append(ContactData())
                }
                out[Int(i)].slot = slot
            }
        }
        contacts.swapStorage(with: contactsBack)
    }

    static func makeContact(key: UInt64, shapes: View<ShapeRecord>) -> Contact {
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
    func shapeView(_ s: Int, _ v: View<Vec2>, _ n: View<Vec2>) -> ShapeView {
        ShapeView(shapes[s], vertices: v, normals: n)
    }

    /// Runs the narrow phase on every contact with an awake body, carrying impulses over by
    /// feature id, and flags contacts that began or stopped touching. Contacts are split into
    /// contiguous ranges across the workers; each contact is written only by its own worker.
    func updateContacts(_ step: StepContext) {
        let dt = step.dt, workers = step.workers
        if contactLinks.count < contacts.count {
            contactLinks.append(contentsOf: repeatElement(SIMD2(-1, -1), count: contacts.count - contactLinks.count))
            step.refreshContacts(self)
        }
        let run = NarrowPhaseContext(step: step, slop: settings.linearSlop, speculative: speculativeDistance,
                                     maxMargin: speculativeDistance + 4 * settings.maxLinearSpeed * dt,
                                     recycleDistance: settings.contactRecycleDistance, linksChanged: linksChanged)
        linksChanged.clear()
        let count = contacts.count
        let chunks = (count + contactChunk - 1) / contactChunk
        // A chunk lists at most one entry per contact: reserve that once, so the lists do
        // not grow (and allocate) step after step while a world fills up.
        while contactChanges.count < chunks {
            var list: [Int32] = []
            list.reserveCapacity(contactChunk)
            contactChanges.append(list)
        }
        while staticTouches.count < chunks {
            var list: [Int32] = []
            list.reserveCapacity(contactChunk)
            staticTouches.append(list)
        }
        contactChangeChunks = chunks
        // Chunk c writes only its contacts and its own list.
        Parallel.forChunks(workers: workers, count: count, chunkSize: contactChunk, counter: chunkCounter,
                           ContactUpdate(ctx: run, out: ChunkBuffers(contactChanges.mutableView),
                                         statics: ChunkBuffers(staticTouches.mutableView)))
        if linksChanged.isSet { islandsDirty = true }
    }

    /// Collects end events for contacts flagged as ended, and wakes sleeping bodies that an
    /// awake body now touches. Only the contacts the narrow phase listed can matter (those that
    /// began or ended, and those with points and a sleeping body), in contact order.
    func collectContactChanges() {
        for c in 0..<contactChangeChunks {
          for k32 in contactChanges[c] {
            let k = Int(k32)
            let f = contacts[k].flags
            if f & Contact.ended != 0 {
                contactEndEvents.append(endEvent(for: contacts[k]))
                contacts[k].flags &= ~Contact.ended
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
    }

    /// Begin events for contacts that began this step (after solving, so the point is the
    /// one with the largest normal impulse).
    func collectBeginEvents() {
        for ch in 0..<contactChangeChunks {
          for k32 in contactChanges[ch] where contacts[Int(k32)].flags & Contact.began != 0 {
            contactBeginEvents.append(beginEvent(for: contacts[Int(k32)]))
          }
        }
    }

    /// A begin event (or a touching contact's description): at the manifold point with the
    /// largest normal impulse. The point lies midway between the surfaces where the step
    /// began; for a contact with speculative points only, which touched because the solve
    /// pushed on it, the surfaces met, so the point is moved onto the surface of the static
    /// shape when there is one (a boundary stays where it is).
    func beginEvent(for c: Contact) -> ContactEvent {
        let m = contactData[Int(c.slot)].manifold
        var best = 0
        if m.pointCount > 1 && m.p1.maxNormalImpulse > m.p0.maxNormalImpulse { best = 1 }
        guard m.pointCount > 0 else { return event(for: c, point: .zero, normal: m.normal) }
        var point = m[best].point
        if c.flags & Contact.speculative != 0 {
            // (The normal points from A to B: A's surface lies half the separation back.)
            let half = 0.5 * m[best].separation
            if shapes[Int(c.shapeA)].isStatic { point -= half * m.normal }
            else if shapes[Int(c.shapeB)].isStatic { point += half * m.normal }
        }
        return event(for: c, point: point, normal: m.normal)
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

    /// Calls `visit` for every contact whose shapes touch now, in contact order, described as
    /// its begin event was: boundaries are always the partner, the point is the manifold point
    /// with the largest normal impulse. Contacts of sleeping bodies are included (they still
    /// touch); contacts ended by a removal since the last step are not. Not during a step.
    public func forEachTouchingContact(_ visit: (ContactEvent) -> Void) {
        checkNotStepping("forEachTouchingContact")
        for k in contacts.indices where contacts[k].shapeA >= 0 && contacts[k].flags & Contact.touching != 0 {
            visit(beginEvent(for: contacts[k]))
        }
    }

    /// Number of contacts whose manifold the last step recycled (kept, with separations
    /// updated) instead of computing it; see `WorldSettings.contactRecycleDistance`.
    public var recycledContactCount: Int {
        var n = 0
        for c in contacts where c.shapeA >= 0 && c.flags & Contact.recycled != 0 { n += 1 }
        return n
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

    /// Contact recycling (the idea of Box2D v3.2's persistent manifolds): when the two bodies
    /// barely moved relative to each other since the manifold was computed — less than
    /// `recycleDistance` for touching contacts (the speculative distance for the others),
    /// counting a rotation as the arc it sweeps at the moving body's farthest point, and each
    /// body turned less than about 11° — the manifold's points, normal, feature ids and
    /// impulses are kept and only the separations and points follow the bodies: each point's
    /// two material points (fixed in each body since the manifold was computed) are moved
    /// with their bodies, and the separation changes by their relative displacement along the
    /// normal. Returns false when the contact must be computed afresh.
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
        @inline(__always) func follow(_ p: inout ManifoldPoint) {
            let rA = dqA.rotate(p.anchorA)
            let rB = dqB.rotate(p.anchorA + c.cachedOffset)
            let dp = (sb.center + rB) - (sa.center + rA)
            p.separation = p.baseSeparation + dot(dp, n)
            p.point = sa.center + rA + 0.5 * dp
        }
        if c.manifold.pointCount > 0 { follow(&c.manifold.p0) }
        if c.manifold.pointCount > 1 { follow(&c.manifold.p1) }
        return true
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


    /// Updates contacts `range` and lists in `changes` (cleared first) those that began or
    /// ended touching, or have points and a sleeping body (which an awake partner may wake).
    func update(_ range: Range<Int>, changes: inout [Int32], staticTouches: inout [Int32]) {
        changes.removeAllKeepingCapacity()
        staticTouches.removeAllKeepingCapacity()
        let cs = step.contacts, links = step.links, data = step.contactData
        let me = step.metas, st = step.states, si = step.sims, dt = step.dt
        let shapes = step.shapes, vertices = step.vertices, normals = step.normals
        @inline(__always) func view(_ s: Int32) -> ShapeView { ShapeView(shapes[Int(s)], vertices: vertices, normals: normals) }
        var linkChanged = false
        defer { if linkChanged { linksChanged.set() } }
        for k in range {
            let a = Int(cs[k].bodyA), b = Int(cs[k].bodyB)
            let awakeA = me[a].awake && me[a].type != .static
            let awakeB = me[b].awake && me[b].type != .static
            let sleeping = (!me[a].awake && me[a].type != .static) || (!me[b].awake && me[b].type != .static)
            if !awakeA && !awakeB {
                cs[k].flags &= ~Contact.began  // (a begin event is reported once)
                let linked = cs[k].flags & Contact.hasPoints != 0
                let link = linked ? SIMD2(Int32(a), Int32(b)) : SIMD2<Int32>(-1, -1)
                if links[k] != link { links[k] = link; linkChanged = true }
                if sleeping && linked { changes.append(Int32(k)) }
                continue
            }
            let wasTouching = cs[k].flags & Contact.touching != 0
            let simA = si[a], simB = si[b]
            let d = data.pointer(at: Int(cs[k].slot))
            // Struck in the last step: speculative points only, and the solve pushed on one.
            let struck = cs[k].flags & Contact.speculative != 0
                && (d.pointee.manifold.p0.maxNormalImpulse > 0
                    || (d.pointee.manifold.pointCount > 1 && d.pointee.manifold.p1.maxNormalImpulse > 0))
            var cached = Contact.cached
            if recycleDistance > 0 && recycle(&d.pointee, flags: cs[k].flags, simA, simB,
                                              staticA: me[a].type == .static, staticB: me[b].type == .static) {
                // Followed in place: nothing to copy.
                cached |= Contact.recycled
            } else {
                cached = 0
                let sa = st[a], sb = st[b]
                let margin = min(speculative + dt * (length(sa.v - sb.v) + abs(sa.w) * simA.maxExtent + abs(sb.w) * simB.maxExtent), maxMargin)
                var m = Collide.manifold(view(cs[k].shapeA), simA.xf, view(cs[k].shapeB), simB.xf, speculative: margin)
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
            if cached == 0 && recycleDistance > 0 {
                cache(&d.pointee, simA, simB)
                cs[k].flags |= Contact.cached
            }
            let link = pointCount > 0 ? SIMD2(Int32(a), Int32(b)) : SIMD2<Int32>(-1, -1)
            if links[k] != link { links[k] = link; linkChanged = true }
            if f & (Contact.began | Contact.ended) != 0 || (sleeping && pointCount > 0) { changes.append(Int32(k)) }
            if pointCount > 0 && (me[a].type == .static || me[b].type == .static) { staticTouches.append(Int32(k)) }
        }
    }
}


/// The narrow phase of one chunk of contacts: chunk `c` writes only its contacts and list `c`.
struct ContactUpdate: RangeTask, @unchecked Sendable {
    let ctx: NarrowPhaseContext
    let out: ChunkBuffers<Int32>
    let statics: ChunkBuffers<Int32>
    func run(_ range: Range<Int>, part c: Int) {
        out.withBuffer(c) { changes in statics.withBuffer(c) { ctx.update(range, changes: &changes, staticTouches: &$0) } }
    }
}

/// One worker's part of `World.mergeContacts` (raw views; each part writes only its own
/// slots of `out` and its own `ended` list).
struct ContactMerge: RangeTask, @unchecked Sendable {
    let pairs: View<UInt64>
    let old: View<Contact>
    let shapes: View<ShapeRecord>
    let out: MutableView<Contact>
    /// Per part: old contacts that are gone (pair vanished, or ended explicitly).
    let ended: ChunkBuffers<Int32>
    /// Per part: new contacts (indices into `out`), which need a data slot.
    let fresh: ChunkBuffers<Int32>
    /// How many parts the merge is split into.
    let parts: Int

    /// The first old contact whose key is at least `key` (old contacts are sorted by key).
    func lowerBound(_ key: UInt64) -> Int {
        var lo = 0, hi = old.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if old[mid].key < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Part `part` of `workers` (the range is the part's own index: one part per worker).
    func run(_ range: Range<Int>, part: Int) { merge(part: part, of: parts) }

    func merge(part w: Int, of workers: Int) {
        let np = pairs.count, no = old.count
        let r = Parallel.share(np, w, workers)
        var i = r.lowerBound
        let iEnd = r.upperBound
        var j = w == 0 ? 0 : (i < np ? lowerBound(pairs[i]) : no)
        let jEnd = w == workers - 1 ? no : (iEnd < np ? lowerBound(pairs[iEnd]) : no)
        ended.withBuffer(w) { endedHere in
        fresh.withBuffer(w) { freshHere in
        endedHere.removeAllKeepingCapacity()
        freshHere.removeAllKeepingCapacity()
        while i < iEnd || j < jEnd {
            if j < jEnd && old[j].shapeA < 0 { endedHere.append(Int32(j)); j += 1; continue }  // ended explicitly
            if i < iEnd && (j >= jEnd || pairs[i] < old[j].key) {
                out[i] = World.makeContact(key: pairs[i], shapes: shapes)
                freshHere.append(Int32(i))
                i += 1
            } else if i >= iEnd || pairs[i] > old[j].key {
                endedHere.append(Int32(j))
                j += 1
            } else {
                out[i] = old[j]
                out[i].flags &= ~Contact.began
                i += 1; j += 1
            }
        }
        }}
    }
}

// Compared field by field when a small world looks for exact rest (`Rest.swift`).
extension Contact: Equatable {}
extension ContactData: Equatable {}

/// A potential or actual contact between two shapes; persists while their boxes overlap.
///
/// 40 bytes: the records are merged with each step's pairs and copied whole, so the manifold
/// and its recycling cache live apart, in a slot of `ContactSet.data` that stays put while
/// the contact lives (`slot`).
@usableFromInline
struct Contact {
    /// Has manifold points (possibly speculative): links islands and is solved.
    static let hasPoints: UInt8 = 1
    /// Actually touching (a point within the linear slop): drives begin / end events.
    static let touching: UInt8 = 2
    /// Began touching in this step (begin event pending; cleared when the step collects the
    /// event, `World.collectBeginEvents`).
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

/// A contact's manifold and where it was computed, in a slot of `ContactSet.data` that
/// stays put while the contact lives (freed slots are reused, last freed first, in key order,
/// so the assignment never depends on the worker count).
@usableFromInline
struct ContactData {
    var manifold = Manifold()
    /// The contact's rolling resistance as a lever arm (`ContactSet.rollingResistance`: the
    /// larger material coefficient × the larger rounding radius; 0: none), and the rolling
    /// impulse the solve accumulated, kept for the next step's warm start (0 whenever the
    /// resistance is). Beside the manifold, where the preparation reads.
    var rollingResistance: Float = 0
    var rollingImpulse: Float = 0

    /// Keeps the solve's rolling impulse for the next step (a non-finite one as 0, as
    /// `ManifoldPoint.storeImpulses` keeps the others).
    @inline(__always)
    mutating func storeRollingImpulse(_ impulse: Float) {
        rollingImpulse = impulse.isFinite ? impulse : 0
    }
    /// Where the manifold was last computed: centre of A minus centre of B, and both rotations.
    var cachedOffset = Vec2.zero
    var cachedQA = Rot.identity
    var cachedQB = Rot.identity
}

/// A contact's two places in the per-shape contact lists, kept per data slot (a slot stays
/// put while its contact lives, while the contact's index changes at every merge).
///
/// Side 0 is the shape in the key's high half, side 1 the one in its low half, so the two
/// shapes give back the key (and the key, by binary search, the contact's index). An edge is
/// `2 · slot + side`; `next` / `prev` are edges of the same shape's list, -1 at the ends.
struct ContactEdges {
    var shapes = SIMD2<Int32>(-1, -1)
    var next = SIMD2<Int32>(-1, -1)
    var prev = SIMD2<Int32>(-1, -1)
}

/// Every contact of a world and its whole lifecycle: the contact records (sorted by pair
/// key), their manifolds in stable slots, the island links the narrow phase writes, the
/// begin / end events, the per-shape contact lists and the material mixing rule.
///
/// - The step merges the broad phase's pairs in (`merge`): contacts whose pair persists keep
///   their record and slot, new pairs get a record and a slot, vanished ones end (an end event
///   when they touched) and free their slot. A contact's index changes whenever the pairs do;
///   its slot does not.
/// - A contact can also end between steps (`end`, for a destroyed body or boundary): it stays
///   in the records, dead (`shapeA == -1`), until the next merge drops it.
/// - Each shape lists its contacts (a doubly linked list through `edges`, by slot), updated in
///   the merge's serial loops, in key order, so an operation on one body or boundary visits
///   only that body's contacts (`forEachContact`) instead of every contact of the world.
///   The lists feed no step computation: their order never changes a result. They are built
///   on first use (`listsStale`), by the first single-body operation of a new or restored set,
///   and kept while such operations come: a world that never asks (a benchmark pile, a
///   restore followed by steps only) pays neither their memory (24 bytes per contact) nor their
///   upkeep, and one that stops asking (a scene that made a joint while it was built) drops
///   them after `unusedListMerges` merges.
final class ContactSet {
    /// The contacts, sorted by pair key (`Contact.key`), dead ones included until the next merge.
    let records = Column<Contact>()
    /// The merge's output buffer, which then trades places with `records`.
    private let back = Column<Contact>()
    /// The contacts' manifolds, in slots that stay put while a contact lives (`Contact.slot`).
    let data = Column<ContactData>()
    /// Free data slots (reused last freed first).
    @exclusivity(unchecked) var freeSlots: [Int32] = []
    /// Per contact of this step: its bodies when it has points, else (-1, -1) — the compact
    /// input of the island passes (written by the narrow phase).
    let links = Column<SIMD2<Int32>>()
    /// Contacts that began touching in the last step (see `World.contactBeginEvents`).
    @exclusivity(unchecked) var beginEvents: [ContactEvent] = [] { didSet { mayHoldEvents = true } }
    /// Contacts that stopped touching in the last step (see `World.contactEndEvents`).
    @exclusivity(unchecked) var endEvents: [ContactEvent] = [] { didSet { mayHoldEvents = true } }
    /// End events produced between steps (destroyed bodies and boundaries), reported by the
    /// next step.
    @exclusivity(unchecked) var pendingEndEvents: [ContactEvent] = [] { didSet { mayHoldEvents = true } }
    /// False only while the three event lists are known to be empty: set by any change to
    /// one of them, cleared when a step starts with them emptied. A step with no event then
    /// reads none of their buffers (three cache lines a small world's frame would wait for).
    @exclusivity(unchecked) private(set) var mayHoldEvents = false
    /// Contacts held in sleeping sets (woken ones included until `flushWoken`). (Beside the
    /// flag above: a small world's step and its checks read both.)
    @exclusivity(unchecked) private(set) var asleepCount = 0
    /// Of those, the touching ones and the recycled ones (their flags do not change in a set).
    @exclusivity(unchecked) private(set) var asleepTouching = 0, asleepRecycled = 0
    /// Per merge worker: old contacts that are gone this step (indices, in order), and new
    /// contacts (indices into the merged array).
    private let mergeEnded = Column<[Int32]>()
    private let mergeFresh = Column<[Int32]>()
    /// Per data slot: the contact's places in its two shapes' lists.
    private let edges = Column<ContactEdges>()
    /// Per shape slot: the first edge of its contact list, or -1 (shapes beyond the end have none).
    private let heads = Column<Int32>()
    /// `edges` and `heads` are not built yet (a new or restored set), and the merge leaves them
    /// alone until `forEachContact` builds them from the records (`buildLists`).
    @exclusivity(unchecked) private(set) var listsStale = true
    /// Merges since a single-body operation last read the lists.
    @exclusivity(unchecked) private var mergesSinceListUse = 0
    /// Merges without a single-body operation after which the lists are dropped (made stale,
    /// their memory given back) instead of kept up to date: keeping them costs each merge a
    /// list update per contact that begins or ends — in a stirred pile whose pairs churn (the
    /// spinner), more than the merge's serial part — and building them again costs one pass
    /// over the contacts, once, at the next operation: less than half a second of upkeep in
    /// such a world, so even a world asked every second or two comes out ahead.
    static let unusedListMerges = 32
    /// A merge list (`mergeEnded`, `mergeFresh`) that has room for this many indices (256 KB)
    /// and holds less than an eighth of it is released after the merge.
    static let burstListCapacity = 1 << 16
    /// `forEachContact`'s reusable list of contact indices.
    @exclusivity(unchecked) private var found: [Int32] = []

    // The narrow phase's lists of this step (`World.updateContacts`).
    /// Contacts per narrow-phase chunk (at most 65 536: the chunk lists hold 16-bit offsets).
    static let chunkSize = 512
    /// Per narrow-phase chunk of `chunkSize` contacts: the contacts that changed this step
    /// (see `NarrowPhaseContext.update`); the first `chunkCount` lists are current. Entries
    /// are offsets in the chunk (contact `c · chunkSize + offset`): 2 bytes each, and a list
    /// reserved for a whole chunk takes 1 KB instead of 2.
    let changes = Column<[UInt16]>()
    /// Per narrow-phase chunk: the awake contacts with points between a dynamic body and a
    /// static one, in contact order (the continuous step's `keepCoresOutOfTouchedStatics`
    /// reads only these, not every contact); offsets in the chunk, as `changes`.
    let staticTouches = Column<[UInt16]>()
    /// How many chunk lists the last narrow phase wrote (0: it had no contact).
    @exclusivity(unchecked) var chunkCount = 0
    /// Raised by the narrow phase when a contact's island link (`links`) changed: the islands
    /// must be rebuilt.
    let linksChanged = WorkFlag()

    // Sleeping sets (see "Sleeping sets" below).
    /// Per body slot: the sleeping set of a sleeping dynamic body, or -1 (awake, static,
    /// kinematic, or no body).
    let bodySets = Column<Int32>()
    /// The sleeping sets: each holds, sorted by key, the contacts of one sleeping island
    /// whose two bodies are both in the island or one of them static. Freed sets keep their
    /// buffers for the next island that falls asleep.
    let sets = Column<[Contact]>()
    @exclusivity(unchecked) private var freeSets: [Int32] = []
    /// Sets whose island woke: their contacts join `records` at the next `flushWoken`.
    @exclusivity(unchecked) private var wokenSets: [Int32] = []
    /// `records` from this index on were appended by `flushWoken` and are not sorted in yet
    /// (-1: every record is in key order).
    @exclusivity(unchecked) private(set) var unsortedFrom = -1
    /// `forEachContact`'s list of data slots whose contact is in a set.
    @exclusivity(unchecked) private var foundAsleep: [Int32] = []

    // MARK: - The records

    @inline(__always) var count: Int { records.count }
    @inline(__always) var indices: Range<Int> { 0..<records.count }
    @inline(__always) var view: View<Contact> { records.view }
    @inline(__always) var mutableView: MutableView<Contact> { records.mutableView }

    @inline(__always)
    subscript(i: Int) -> Contact {
        unsafeAddress {
            assert(i >= 0 && i < records.count, "ContactSet: index \(i) outside 0..<\(records.count)")
            return UnsafePointer(records.base + i)
        }
        unsafeMutableAddress {
            assert(i >= 0 && i < records.count, "ContactSet: index \(i) outside 0..<\(records.count)")
            return records.base + i
        }
    }

    /// The index of the contact with pair key `key`, or -1.
    func index(ofKey key: UInt64) -> Int {
        let cs = records.view
        var lo = 0, hi = cs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cs[mid].key < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < cs.count && cs[lo].key == key ? lo : -1
    }

    // MARK: - Materials

    /// The mixing rule: a contact's friction is the geometric mean of its shapes' frictions,
    /// its restitution the larger of theirs.
    @inline(__always)
    static func mix(_ a: ShapeRecord, _ b: ShapeRecord) -> (friction: Float, restitution: Float) {
        ((a.friction * b.friction).squareRoot(), max(a.restitution, b.restitution))
    }

    /// The contact for pair `key` (no slot yet): shape A has the larger kind (ties: the
    /// higher slot), materials mixed.
    static func makeContact(key: UInt64, shapes: View<ShapeRecord>) -> Contact {
        var s = Int32(truncatingIfNeeded: key >> 32)
        var t = Int32(truncatingIfNeeded: key & 0xFFFF_FFFF)
        let ks = shapes[Int(s)].kind.rawValue, kt = shapes[Int(t)].kind.rawValue
        if kt > ks || (kt == ks && t < s) { swap(&s, &t) }
        var c = Contact()
        c.key = key
        c.shapeA = s; c.shapeB = t
        c.bodyA = shapes[Int(s)].body; c.bodyB = shapes[Int(t)].body
        (c.friction, c.restitution) = mix(shapes[Int(s)], shapes[Int(t)])
        return c
    }

    /// A contact's rolling resistance as a lever arm: the larger of the shapes' coefficients ×
    /// the larger of their rounding radii (a circle's or capsule's radius, a rounded polygon's
    /// rounding; 0 for polygons and segments), so that the torque resisting the bodies'
    /// relative turning is at most this × the normal force.
    @inline(__always)
    static func rollingResistance(_ a: ShapeRecord, _ b: ShapeRecord) -> Float {
        let coefficient = max(a.rollingResistance, b.rollingResistance)
        return coefficient > 0 ? coefficient * max(a.radius, b.radius) : 0
    }

    /// Contact `k` takes up its shapes' current materials (a contact that loses its rolling
    /// resistance loses its rolling impulse too).
    func remix(_ k: Int, shapes: View<ShapeRecord>) {
        let a = shapes[Int(records[k].shapeA)], b = shapes[Int(records[k].shapeB)]
        (records[k].friction, records[k].restitution) = Self.mix(a, b)
        let slot = Int(records[k].slot)
        if slot >= 0 {
            data[slot].rollingResistance = Self.rollingResistance(a, b)
            if data[slot].rollingResistance == 0 { data[slot].rollingImpulse = 0 }
        }
    }

    // MARK: - The merge

    /// Merges this step's sorted pair keys with last step's sorted contacts: pairs that
    /// persist keep their record and manifold (warm starting), new pairs get new contacts,
    /// and contacts whose pair vanished (or that ended explicitly) end.
    ///
    /// Every pair yields exactly one contact (kept or new), so contact `i` of the result
    /// belongs to pair `i`: the pairs are split into contiguous ranges, one per worker, each
    /// merged with the old contacts of the same key range. Then serially, in key order: end
    /// events, freed slots and list removals of the contacts that are gone, then slots (last
    /// freed first) and list entries for the new ones. The result is the same for any
    /// `workers`.
    func merge(pairs: View<UInt64>, shapes: View<ShapeRecord>, metas: View<BodyMeta>, workers: Int) {
        if !listsStale {
            mergesSinceListUse += 1
            if mergesSinceListUse > Self.unusedListMerges { edges.removeAll(); heads.removeAll(); listsStale = true }
        }
        let out = back
        let np = pairs.count
        // Every slot below `np` is overwritten below: when the buffer must grow, the old one
        // (last step's records, not read) is released before the new one is taken.
        if out.count < np {
            if np > out.capacity { out.refill(count: np, with: Contact()) }
            else { out.append(contentsOf: repeatElement(Contact(), count: np - out.count)) }
        } else {
            out.truncate(to: np)
        }
        if !listsStale && heads.count < shapes.count {
            heads.append(contentsOf: repeatElement(Int32(-1), count: shapes.count - heads.count))
        }
        while mergeEnded.count < workers { mergeEnded.append([]) }
        while mergeFresh.count < workers { mergeFresh.append([]) }
        let m = ContactMerge(pairs: pairs, old: records.view, shapes: shapes, out: out.mutableView,
                             ended: ChunkBuffers(mergeEnded.mutableView), fresh: ChunkBuffers(mergeFresh.mutableView),
                             parts: workers)
        // Worker w owns pairs `share(np, w, workers)` and old contacts of keys in the same range.
        Parallel.forRanges(workers: workers, count: workers, minPerWorker: 1, m)
        for w in 0..<workers {
            for j in mergeEnded[w] {
                let c = records[Int(j)]
                if c.shapeA >= 0 && c.flags & Contact.touching != 0 {
                    endEvents.append(endEvent(for: c, shapes: shapes, metas: metas))
                }
                if c.slot >= 0 {
                    if !listsStale { unlink(c.slot) }
                    freeSlots.append(c.slot)
                }
            }
        }
        // The new contacts' slots beyond the free ones, in one growth of the data column.
        var fresh = 0
        for w in 0..<workers { fresh += mergeFresh[w].count }
        if fresh > freeSlots.count {
            data.reserveRoom(for: fresh - freeSlots.count)
            if !listsStale { edges.reserveRoom(for: fresh - freeSlots.count) }
        }
        for w in 0..<workers {
            for i in mergeFresh[w] {
                let slot: Int32
                if let f = freeSlots.popLast() {
                    slot = f
                    data[Int(f)] = ContactData()
                } else {
                    slot = Int32(data.count)
                    data.append(ContactData())
                    if !listsStale { edges.append(ContactEdges()) }
                }
                out[Int(i)].slot = slot
                data[Int(slot)].rollingResistance = Self.rollingResistance(shapes[Int(out[Int(i)].shapeA)], shapes[Int(out[Int(i)].shapeB)])
                if !listsStale { link(slot, key: out[Int(i)].key) }
            }
        }
        // A burst (a pile's two million contacts appearing within a few steps) grows these
        // lists to its size; they are not read again before the next merge, so once one holds
        // far less than it can, it is released (a free, no allocation) and grows again from
        // empty to what the next merges need — a few small allocations once after a burst,
        // none in a steady world, whose lists never pass the threshold.
        for w in 0..<workers {
            if mergeEnded[w].capacity >= Self.burstListCapacity && mergeEnded[w].count < mergeEnded[w].capacity / 8 { mergeEnded[w] = [] }
            if mergeFresh[w].capacity >= Self.burstListCapacity && mergeFresh[w].count < mergeFresh[w].capacity / 8 { mergeFresh[w] = [] }
        }
        records.swapStorage(with: back)
        if links.count < records.count {
            links.append(contentsOf: repeatElement(SIMD2(-1, -1), count: records.count - links.count))
        }
    }

    // MARK: - Ending contacts between steps

    /// Ends contact `k` now (a destroyed body or boundary): an end event for the next step
    /// when it touched; the record stays, dead, until the next merge drops it. The caller
    /// wakes its bodies and has the broad phase look again.
    func end(_ k: Int, shapes: View<ShapeRecord>, metas: View<BodyMeta>) {
        let c = records[k]
        if c.flags & Contact.touching != 0 {
            pendingEndEvents.append(endEvent(for: c, shapes: shapes, metas: metas))
        }
        records[k].shapeA = -1
    }

    /// Makes the pending end events (from between steps) part of this step's, and clears the
    /// last step's events. (Each only when needed: a call on an empty array still costs a
    /// call and its checks, a sizeable part of a small world's step.)
    @inline(__always)
    func startStepEvents() {
        guard mayHoldEvents else { return }
        if !beginEvents.isEmpty { beginEvents.removeAllKeepingCapacity() }
        if !endEvents.isEmpty { endEvents.removeAllKeepingCapacity() }
        if !pendingEndEvents.isEmpty {
            endEvents.append(contentsOf: pendingEndEvents)
            pendingEndEvents.removeAllKeepingCapacity()
        }
        mayHoldEvents = !endEvents.isEmpty
    }

    /// True when the last step reported a contact event (`World.hasContactEvents`).
    var hasEvents: Bool { mayHoldEvents && (!beginEvents.isEmpty || !endEvents.isEmpty) }

    /// True when end events wait for the next step.
    var hasPendingEvents: Bool { mayHoldEvents && !pendingEndEvents.isEmpty }

    // MARK: - Events

    /// The event for a contact: boundaries are always the partner; otherwise body A reports.
    func event(for c: Contact, point: Vec2, normal: Vec2, shapes: View<ShapeRecord>, metas: View<BodyMeta>) -> ContactEvent {
        @inline(__always) func handle(_ i: Int32) -> BodyHandle { BodyHandle(index: i, generation: metas[Int(i)].generation) }
        let sa = shapes[Int(c.shapeA)], sb = shapes[Int(c.shapeB)]
        if sa.isBoundary {
            let h = BoundaryHandle(shape: c.shapeA, generation: sa.generation)
            return ContactEvent(body: handle(c.bodyB), other: .boundary(h, id: sa.boundaryID), point: point, normal: -normal)
        }
        if sb.isBoundary {
            let h = BoundaryHandle(shape: c.shapeB, generation: sb.generation)
            return ContactEvent(body: handle(c.bodyA), other: .boundary(h, id: sb.boundaryID), point: point, normal: normal)
        }
        return ContactEvent(body: handle(c.bodyA), other: .body(handle(c.bodyB)), point: point, normal: normal)
    }

    /// An end event: no point, no normal.
    func endEvent(for c: Contact, shapes: View<ShapeRecord>, metas: View<BodyMeta>) -> ContactEvent {
        event(for: c, point: .zero, normal: .zero, shapes: shapes, metas: metas)
    }

    /// A begin event (or a touching contact's description): at the manifold point with the
    /// largest normal impulse. The point lies midway between the surfaces where the step
    /// began; for a contact with speculative points only, which touched because the solve
    /// pushed on it, the surfaces met, so the point is moved onto the surface of the static
    /// shape when there is one (a boundary stays where it is).
    func beginEvent(for c: Contact, shapes: View<ShapeRecord>, metas: View<BodyMeta>) -> ContactEvent {
        let m = data[Int(c.slot)].manifold
        var best = 0
        if m.pointCount > 1 && m.p1.maxNormalImpulse > m.p0.maxNormalImpulse { best = 1 }
        guard m.pointCount > 0 else { return event(for: c, point: .zero, normal: m.normal, shapes: shapes, metas: metas) }
        var point = m[best].point
        if c.flags & Contact.speculative != 0 {
            // (The normal points from A to B: A's surface lies half the separation back.)
            let half = 0.5 * m[best].separation
            if shapes[Int(c.shapeA)].isStatic { point -= half * m.normal }
            else if shapes[Int(c.shapeB)].isStatic { point += half * m.normal }
        }
        return event(for: c, point: point, normal: m.normal, shapes: shapes, metas: metas)
    }

    // MARK: - Per-shape contact lists

    /// Calls `visit` with the index of every live contact of shape `s`, in key order. A
    /// contact in a sleeping set is first brought back: `wake` is called with the shapes of
    /// each such contact (the caller wakes their bodies' islands).
    func forEachContact(ofShape s: Int, wake: (Int32) -> Void, _ visit: (Int) -> Void) {
        forEachContact(ofShapesFrom: Int32(s), shapeNext: nil, wake: wake, visit)
    }

    /// Calls `visit` with the index of every live contact of a body's shapes — `first`, then
    /// `shapeNext[first]` and so on until -1 (only `first` without `shapeNext`) — each once,
    /// in key order. Contacts in sleeping sets are brought back first, as above.
    func forEachContact(ofShapesFrom first: Int32, shapeNext: View<Int32>?, wake: (Int32) -> Void, _ visit: (Int) -> Void) {
        if listsStale { buildLists() }
        mergesSinceListUse = 0
        for pass in 0..<2 {
            flushWoken(); sortIn()
            found.removeAllKeepingCapacity()
            foundAsleep.removeAllKeepingCapacity()
            var s = first
            while s >= 0 { gather(shape: Int(s)); s = shapeNext?[Int(s)] ?? -1 }
            guard !foundAsleep.isEmpty else { break }
            precondition(pass == 0, "ContactSet: a contact stayed in a sleeping set after its island woke")
            let ed = edges.view
            for slot in foundAsleep { wake(ed[Int(slot)].shapes[0]); wake(ed[Int(slot)].shapes[1]) }
        }
        visitFound(visit)
    }

    /// Appends to `found` the live contacts in shape `s`'s list.
    private func gather(shape s: Int) {
        guard s < heads.count else { return }
        let ed = edges.view
        var e = heads[s]
        while e >= 0 {
            let slot = Int(e >> 1)
            let key = UInt64(UInt32(bitPattern: ed[slot].shapes[0])) << 32 | UInt64(UInt32(bitPattern: ed[slot].shapes[1]))
            let k = index(ofKey: key)
            if k < 0 {
                // In a sleeping set (the lists keep those contacts).
                foundAsleep.append(Int32(slot))
            } else {
                assert(records[k].slot == Int32(slot), "ContactSet: shape \(s) lists slot \(slot), which no contact holds")
                if records[k].shapeA >= 0 { found.append(Int32(k)) }
            }
            e = ed[slot].next[Int(e & 1)]
        }
    }

    /// Sorts `found` (key order, as the records are), drops repeats and visits it (moved
    /// out first, so `visit` may itself look up contacts).
    private func visitFound(_ visit: (Int) -> Void) {
        switch found.count {
        case 0: return
        case 1: visit(Int(found[0])); return
        default: break
        }
        var list: [Int32] = []
        swap(&list, &found)
        // Insertion sort for the usual few contacts of a body (`sort` costs more there).
        if list.count <= 32 {
            for i in 1..<list.count {
                let x = list[i]
                var j = i
                while j > 0 && list[j - 1] > x { list[j] = list[j - 1]; j -= 1 }
                list[j] = x
            }
        } else {
            list.sort()
        }
        var last: Int32 = -1
        for k in list where k != last { visit(Int(k)); last = k }
        swap(&list, &found)
    }

    /// Builds every shape's list from the records: each contact with a slot, dead ones included
    /// until the merge drops them, as the merge would have kept them.
    private func buildLists() {
        listsStale = false
        edges.truncate(to: 0)
        edges.grow(to: data.count, with: ContactEdges())
        var shapeEnd = heads.count
        for k in records.indices where records[k].slot >= 0 {
            shapeEnd = max(shapeEnd, Int(max(records[k].key >> 32, records[k].key & 0xFFFF_FFFF)) + 1)
        }
        for s in heads.indices { heads[s] = -1 }
        heads.grow(to: shapeEnd, with: -1)
        for k in records.indices where records[k].slot >= 0 { link(records[k].slot, key: records[k].key) }
        for set in sets.indices {
            for c in sets[set] {
                shapeEnd = max(shapeEnd, Int(max(c.key >> 32, c.key & 0xFFFF_FFFF)) + 1)
                heads.grow(to: shapeEnd, with: -1)
                link(c.slot, key: c.key)
            }
        }
    }

    /// Puts slot `slot`'s contact (pair `key`) at the front of both its shapes' lists.
    private func link(_ slot: Int32, key: UInt64) {
        let shapesOf = SIMD2(Int32(truncatingIfNeeded: key >> 32), Int32(truncatingIfNeeded: key & 0xFFFF_FFFF))
        let ed = edges.mutableView
        ed[Int(slot)].shapes = shapesOf
        for side in 0..<2 {
            let s = Int(shapesOf[side])
            let e = 2 * slot + Int32(side)
            let h = heads[s]
            ed[Int(slot)].next[side] = h
            ed[Int(slot)].prev[side] = -1
            if h >= 0 { ed[Int(h >> 1)].prev[Int(h & 1)] = e }
            heads[s] = e
        }
    }

    /// Takes slot `slot`'s contact out of both its shapes' lists.
    private func unlink(_ slot: Int32) {
        let ed = edges.mutableView
        // (The two sides are different shapes' lists: unlinking one leaves the other's links.)
        let x = ed[Int(slot)]
        for side in 0..<2 {
            let p = x.prev[side], n = x.next[side]
            if p >= 0 { ed[Int(p >> 1)].next[Int(p & 1)] = n } else { heads[Int(x.shapes[side])] = n }
            if n >= 0 { ed[Int(n >> 1)].prev[Int(n & 1)] = p }
        }
        ed[Int(slot)] = ContactEdges()
    }

    // MARK: - Sleeping sets

    /// A sleeping island's contacts leave `records` for a set of their own, so that a step
    /// reads only the contacts of awake bodies, and come back when the island wakes.
    ///
    /// - `bodySets` names each sleeping dynamic body's set (every one has a set, possibly
    ///   empty: a body created asleep gets one of its own).
    /// - A pair is *retired* when neither body is awake and neither is kinematic (static
    ///   bodies and sleeping dynamic ones): the broad phase finds no retired pair
    ///   (`PairContext.shouldCollide`), and `records` holds no retired contact after a step.
    ///   At the end of a step in which islands fell asleep, `retire` moves each retired
    ///   contact into its set (two bodies of one island, or one sleeping body and a static
    ///   one) or drops it (two bodies of different islands: such a contact has no points, as
    ///   points would have joined the islands, so it holds nothing the next one would not).
    /// - Waking a set (`wake(set:)`) queues it; `flushWoken` appends its contacts after the
    ///   sorted records, and `sortIn` sorts them in. A step flushes after its narrow phase,
    ///   so the islands and the solve see the woken contacts, and sorts at its end; outside
    ///   a step, whatever reads contacts by key flushes and sorts first. The broad phase looks
    ///   again for the woken bodies' pairs (`ShapeActivity.requery`), so that the merge keeps
    ///   these contacts and finds the pairs that were dropped.
    /// - The per-shape lists keep the set contacts (their slots stay put); a single-body
    ///   operation that meets one wakes its island first (`forEachContact`).

    /// A new, empty sleeping set.
    func makeSet() -> Int32 {
        if let s = freeSets.popLast() { return s }
        sets.append([])
        return Int32(sets.count - 1)
    }

    /// Queues set `s`, whose island woke: its contacts join `records` at the next `flushWoken`.
    @inline(__always)
    func wake(set s: Int32) { wokenSets.append(s) }

    /// Appends the woken sets' contacts after the records (in the order the sets woke, each
    /// in key order), with their island links (their bodies when they have points, as the
    /// narrow phase writes them), and frees the sets.
    func flushWoken() {
        guard !wokenSets.isEmpty else { return }
        for s in wokenSets {
            let n = sets[Int(s)].count
            if n > 0 {
                if unsortedFrom < 0 { unsortedFrom = records.count }
                records.reserveRoom(for: n)
                sets[Int(s)].withUnsafeBufferPointer { for c in $0 { records.append(c); countAsleep(c, by: -1) } }
            }
            sets[Int(s)].removeAll(keepingCapacity: true)
            freeSets.append(s)
        }
        wokenSets.removeAll(keepingCapacity: true)
        if links.count < records.count { links.grow(to: records.count, with: SIMD2(-1, -1)) }
        if unsortedFrom >= 0 {
            let cs = records.view, ls = links.mutableView
            for k in unsortedFrom..<cs.count {
                ls[k] = cs[k].flags & Contact.hasPoints != 0 ? SIMD2(cs[k].bodyA, cs[k].bodyB) : SIMD2(-1, -1)
            }
        }
    }

    /// Sorts the records appended by `flushWoken` in among the others (records in key order
    /// again), and sets every island link from the contacts' points.
    func sortIn() {
        guard unsortedFrom >= 0 else { return }
        let n0 = unsortedFrom, n = records.count
        unsortedFrom = -1
        sortInPlace(records.mutableView.subview(n0..<n)) { $0.key }
        back.refill(count: n, with: Contact())
        let cs = records.view, out = back.mutableView
        var i = 0, j = n0, w = 0
        while i < n0 || j < n {
            if j >= n || (i < n0 && cs[i].key < cs[j].key) {
                out[w] = cs[i]; i += 1
            } else if i < n0 && cs[i].key == cs[j].key {
                // (Cannot happen while no retired pair is found: kept for safety, the awake one wins.)
                assert(false, "ContactSet: a woken contact was also in the records")
                freeSlots.append(cs[j].slot)
                if !listsStale { unlink(cs[j].slot) }
                j += 1
                continue
            } else {
                out[w] = cs[j]; j += 1
            }
            w += 1
        }
        back.truncate(to: w)
        records.swapStorage(with: back)
        let rs = records.view, ls = links.mutableView
        for k in rs.indices {
            ls[k] = rs[k].flags & Contact.hasPoints != 0 ? SIMD2(rs[k].bodyA, rs[k].bodyB) : SIMD2(-1, -1)
        }
    }

    /// Moves the retired contacts out of `records` (sorted): into the set of their sleeping
    /// body, or dropped when their bodies sleep in different sets (see above). Dead contacts
    /// stay for the merge to drop. `metas` tells the static bodies; `bodySets` the others' sets.
    func retire(metas: View<BodyMeta>) {
        assert(unsortedFrom < 0, "ContactSet.retire: records not sorted")
        let cs = records.mutableView, ls = links.mutableView, bs = bodySets.view
        @inline(__always) func setOf(_ b: Int32) -> Int32 {
            metas[Int(b)].type == .static ? -2 : bs[Int(b)]
        }
        var w = 0
        for k in cs.indices {
            let c = cs[k]
            let sa = setOf(c.bodyA), sb = setOf(c.bodyB)
            // (Two static bodies: a contact whose body became static since the step, which
            // the next merge drops.)
            if c.shapeA < 0 || sa == -1 || sb == -1 || (sa < 0 && sb < 0) {
                if w != k { cs[w] = c; ls[w] = ls[k] }
                w += 1
                continue
            }
            if sa >= 0 && sb >= 0 && sa != sb {
                assert(c.flags & (Contact.hasPoints | Contact.touching | Contact.began | Contact.ended) == 0,
                       "ContactSet.retire: a contact with points between two sleeping islands")
                freeSlots.append(c.slot)
                if !listsStale { unlink(c.slot) }
                continue
            }
            sets[Int(max(sa, sb))].append(c)
            countAsleep(c, by: 1)
        }
        records.truncate(to: w)
    }

    /// Calls `visit` with every contact in a sleeping set (no order).
    func forEachAsleep(_ visit: (Contact) -> Void) {
        guard asleepCount > 0 else { return }
        for s in sets.indices { for c in sets[s] { visit(c) } }
    }

    /// Counts contact `c` into (`by` 1) or out of (-1) the sleeping sets' counts.
    @inline(__always)
    private func countAsleep(_ c: Contact, by d: Int) {
        asleepCount += d
        if c.flags & Contact.touching != 0 { asleepTouching += d }
        if c.flags & Contact.recycled != 0 { asleepRecycled += d }
    }

    // MARK: - Snapshots

    /// Empties the set (before a snapshot is restored).
    func removeAll() {
        records.removeAll(); back.removeAll(); data.removeAll(); links.removeAll(); freeSlots = []
        edges.removeAll(); heads.removeAll(); listsStale = true
        sets.removeAll(); freeSets = []; asleepCount = 0; asleepTouching = 0; asleepRecycled = 0; wokenSets = []; unsortedFrom = -1
        for b in bodySets.indices { bodySets[b] = -1 }
        beginEvents = []; endEvents = []; pendingEndEvents = []
    }

    /// Room for `n` restored contacts; columns whose new part is within `budget` bytes get their
    /// pages mapped at once (`Column.reserveCapacity(_:prefaultingWithin:)`).
    func reserve(_ n: Int, prefaultingWithin budget: Int) {
        records.reserveCapacity(n, prefaultingWithin: budget); data.reserveCapacity(n, prefaultingWithin: budget)
        links.reserveCapacity(n, prefaultingWithin: budget)
    }

    /// Appends a restored contact (keys increasing) with its manifold, in slot `count`. The
    /// shapes' lists are built when first asked for.
    func append(restored c: Contact, _ d: ContactData) {
        precondition(c.slot == Int32(data.count) && (records.isEmpty || records[records.count - 1].key < c.key),
                     "ContactSet.append(restored:): contacts come in key order, each in the next slot")
        records.append(c); data.append(d); links.append(SIMD2(-1, -1))
    }
}

/// One worker's part of `ContactSet.merge` (raw views; each part writes only its own
/// slots of `out` and its own `ended` / `fresh` lists).
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

    /// The first old contact whose key is at least `key`.
    func lowerBound(_ key: UInt64) -> Int { old.firstContact(atLeast: key) }

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
                out[i] = ContactSet.makeContact(key: pairs[i], shapes: shapes)
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

extension View where Element == Contact {
    /// The first contact whose key is at least `key` (the contacts sorted by key, as a
    /// merge leaves them).
    func firstContact(atLeast key: UInt64) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid].key < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}

// Compared field by field when a small world looks for exact rest (`Step/StepAtRest.swift`).
extension Contact: Equatable {}
extension ContactData: Equatable {}

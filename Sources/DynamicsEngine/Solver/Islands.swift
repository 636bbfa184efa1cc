import DynamicsSolverKernels

/// Islands of the current step: live, awake dynamic bodies connected by contacts with points or by
/// joints (union–find). Static and kinematic bodies do not join islands. Islands are numbered
/// in the order of their lowest body slot, and every list is filled in slot / contact order,
/// so the grouping is the same whatever the worker count.
struct IslandBuilder {
    /// Whether the islands (and their colouring) must be rebuilt this step: raised by whatever
    /// changes what they are made of — the contacts (a merge, a contact gaining or losing its
    /// points), a body created, destroyed, woken, put to sleep or given another type, a joint
    /// created or destroyed. While it stays down, last step's islands, colours and batch
    /// layout are this step's, and the step reuses them (see `World.buildIslands`).
    var dirty = true
    /// Sleeping sets woke (`ContactSet.wake(set:)`) and their contacts have not all been
    /// sorted back in (kept here, in the world's own memory, so that a step of a small world
    /// does not open the contact set's to find nothing to do).
    var setsPending = false
    let parent = Column<Int32>()
    /// How many contacts with points each chunk of the union pass listed (`IslandUnion`).
    let unionCounts = Column<Int32>()
    /// The contacts with points, as indices into the step's contacts (scratch of a build,
    /// which counts the entries it writes).
    let touching = Column<Int32>()
    /// Island of each body slot this step (-1: not in an island; only the bodies of the
    /// islands, `bodies[0 ..< islandBodies]`, hold another).
    let islandOf = Column<Int32>()
    /// How many bodies the last build put in islands.
    var islandBodies = 0
    /// The awake dynamic and kinematic bodies in slot order (`World.awakeBodies()`): what the
    /// islands and the body passes read, so that sleeping bodies cost a step nothing. Bodies
    /// that may have woken are appended (`World.noteMaybeAwake`); those no longer awake stay
    /// until the next `awakeBodies()` drops them.
    let awake = Column<Int32>()
    /// `awake` must be made from every slot (a new or restored world).
    var awakeStale = true
    /// Bodies were appended to `awake` out of slot order.
    var awakeUnsorted = false
    /// The joints with an awake dynamic or kinematic body, in slot order: what the islands and
    /// `wakeJointedBodies` read, so that sleeping jointed bodies cost a step nothing. Kept as
    /// `awake` is: a joint created, and the joints of a woken body (`World.jointGraph`), are
    /// appended (`awakeJointsUnsorted`); a joint destroyed or an island put to sleep may leave
    /// some that no longer count (`awakeJointsMayShrink`); `World.awakeJointList()` sorts and
    /// drops them, at the cost of the list and the woken bodies' joints, not of every joint.
    /// Made again from every joint only when stale (a new or restored world, a body given
    /// another type).
    let awakeJoints = Column<Int32>()
    /// Each joint's bodies (bodyA, bodyB) for the joints of `awakeJoints`, made with it
    /// whenever `World.awakeJointList()` brings it up to date (a joint's bodies never change):
    /// the passes over the awake joints read these 8 bytes, not the joint's record, several
    /// cache lines long.
    let awakeJointLinks = Column<SIMD2<Int32>>()
    var awakeJointsStale = true
    var awakeJointsUnsorted = false
    var awakeJointsMayShrink = false
    /// Worlds of fewer body slots keep no awake list (it stays stale): their passes read
    /// every slot, which touches less memory than the list for a handful of bodies.
    static let listedFrom = 64
    /// Bodies of `awake` may have stopped being awake (fallen asleep, destroyed, made static).
    var awakeMayShrink = false
    /// Raised by the body finalize when a kinematic body fell asleep (alone; it raises
    /// `awakeMayShrink`).
    let kinematicSlept = WorkFlag()
    var count = 0
    /// `bodies[bodyStart[i] ..< bodyStart[i + 1]]` are island i's bodies (slot order).
    let bodyStart = Column<Int32>()
    let bodies = Column<Int32>()
    /// Contact indices per island, in contact order.
    let contactStart = Column<Int32>()
    let contactList = Column<Int32>()
    /// Joint slots per island.
    let jointStart = Column<Int32>()
    let jointList = Column<Int32>()
    /// 0 when something keeps the island awake (a moving kinematic body touches it).
    let canSleep = Column<UInt8>()
    /// How many bodies, contacts and joints the islands hold (scratch of the build's sorts).
    let sortTotals = Column<Int>()
    /// How many of these islands fell asleep at the end of this step.
    var sleptThisStep = 0
    /// How many contacts and joints the islands hold (with neither, the solve only integrates
    /// the bodies: `World.solveUnconstrained`). Kept with the islands.
    var contactsInIslands = 0, jointsInIslands = 0
    /// The islands' colouring and batch layout (`ColoredBatches`) are done: a solve that keeps
    /// the islands keeps them too. Down after every build.
    var colored = false
    /// Solve groups: runs of consecutive islands solved (coloured, packed, scheduled) as one
    /// unit, so that many small islands share colour batches and per-island fixed costs (ten
    /// resting boxes solved island by island would make ten batches of one contact each).
    /// Group g holds islands whose bodies, contacts and joints are
    /// `bodies[groupBodyStart[g] ..< groupBodyStart[g + 1]]` and so on (the islands' ranges are
    /// contiguous). Islands share no body, so a constraint
    /// gets the same colour and the same arithmetic as when its island is solved alone; the
    /// grouping depends only on the islands' sizes, never on the worker count.
    var groupCount = 0
    let groupBodyStart = Column<Int32>()
    let groupContactStart = Column<Int32>()
    let groupJointStart = Column<Int32>()
    /// A group takes further islands while it holds at most this many contacts and bodies.
    static let groupLimit: Int32 = 128

    /// The solve groups' lists, as the colouring and the solver read them.
    @inline(__always) var groups: SolveGroups {
        SolveGroups(bodies: bodies.view, bodyStart: groupBodyStart.view, contactList: contactList.view,
                    contactStart: groupContactStart.view, jointList: jointList.view, jointStart: groupJointStart.view)
    }
}

/// Views of the solve groups (`IslandBuilder.groups`): group g's bodies are
/// `bodies[bodyRange(g)]`, its contacts (indices into the step's contacts)
/// `contactList[contactRange(g)]`, its joints (slots) `jointList[jointRange(g)]`.
struct SolveGroups {
    var bodies, bodyStart, contactList, contactStart, jointList, jointStart: View<Int32>

    @inline(__always) func bodyRange(_ g: Int) -> Range<Int> { Int(bodyStart[g])..<Int(bodyStart[g + 1]) }
    @inline(__always) func contactRange(_ g: Int) -> Range<Int> { Int(contactStart[g])..<Int(contactStart[g + 1]) }
    @inline(__always) func jointRange(_ g: Int) -> Range<Int> { Int(jointStart[g])..<Int(jointStart[g + 1]) }
}

extension World {
    /// Builds this step's islands, or keeps last step's when nothing they are made of changed
    /// (`IslandBuilder.dirty` down: the same contacts with the same links, bodies, types, sleep
    /// states and joints give the same islands — and the same colouring and batch layout, which
    /// the solve then keeps too). Only whether a moving kinematic body keeps an island awake is
    /// looked at again. Returns whether the islands were kept.
    @discardableResult
    func buildIslands(_ ctx: StepContext) -> Bool {
        let keep = !islands.dirty
        islands.dirty = false
        if keep {
            assert(islandsMatchRebuilt(contacts.links.view.subview(0..<contacts.count), metas.view, states.view),
                   "kept islands differ from rebuilt ones: a change did not raise IslandBuilder.dirty")
            // (Which islands may sleep is only read when sleeping is on; islands without contacts
            // have no kinematic partner to keep them awake, and were built sleepable.)
            if settings.isSleepEnabled && islands.contactsInIslands > 0 {
                refreshSleepability(ctx.links.readOnly.subview(0..<ctx.contacts.count), ctx.metas.readOnly, ctx.states.readOnly, &islands)
            }
            counters.islandsReusedSteps += 1
            return true
        }
        // The builder in place (`islands` is exclusivity-unchecked and nothing below reads it
        // through `self`): no copy or move of its buffers.
        let joints = awakeJointsAndLinks()
        buildIslands(ctx.links.readOnly.subview(0..<ctx.contacts.count), ctx.metas.readOnly, joints.list, joints.links,
                     ctx.states.readOnly, workers: ctx.workers, &islands)
        return false
    }

    /// Whether kept islands are what a rebuild would give (a debug check).
    private func islandsMatchRebuilt(_ cs: View<SIMD2<Int32>>, _ me: View<BodyMeta>, _ st: View<BodyState>) -> Bool {
        var fresh = IslandBuilder()
        let joints = awakeJointsAndLinks()
        buildIslands(cs, me, joints.list, joints.links, st, workers: 1, &fresh)
        let a = islands, n = fresh.count, g = fresh.groupCount
        guard a.count == n, a.groupCount == g else { return false }
        func same(_ x: Column<Int32>, _ y: Column<Int32>, _ count: Int) -> Bool { x.prefix(count).elementsEqual(y.prefix(count)) }
        let nb = n > 0 ? Int(fresh.bodyStart[n]) : 0, nc = n > 0 ? Int(fresh.contactStart[n]) : 0
        let nj = n > 0 ? Int(fresh.jointStart[n]) : 0
        return same(a.bodyStart, fresh.bodyStart, n + 1) && same(a.contactStart, fresh.contactStart, n + 1)
            && same(a.jointStart, fresh.jointStart, n + 1) && same(a.bodies, fresh.bodies, nb)
            && same(a.contactList, fresh.contactList, nc) && same(a.jointList, fresh.jointList, nj)
            && same(a.groupBodyStart, fresh.groupBodyStart, g + 1) && same(a.groupContactStart, fresh.groupContactStart, g + 1)
            && same(a.groupJointStart, fresh.groupJointStart, g + 1)
    }

    /// Kept islands: which may sleep (none touched by a moving kinematic body), as a rebuild
    /// would say. Only read when sleeping is on.
    private func refreshSleepability(_ cs: View<SIMD2<Int32>>, _ me: View<BodyMeta>, _ st: View<BodyState>,
                                     _ ib: inout IslandBuilder) {
        guard settings.isSleepEnabled else { return }
        let n = ib.count
        do {
            let canSleep = ib.canSleep.mutableView, contactStart = ib.contactStart.view, contactList = ib.contactList.view
            let islandOf = ib.islandOf.view
            // (A body in an island is dynamic: only the others' records are read.)
            @inline(__always) func movingKinematic(_ i: Int) -> Bool {
                islandOf[i] < 0 && me[i].type == .kinematic && (st[i].v != .zero || st[i].w != 0)
            }
            for isl in 0..<n {
                canSleep[isl] = 1
                for k in Int(contactStart[isl])..<Int(contactStart[isl + 1]) {
                    let link = cs[Int(contactList[k])]
                    if movingKinematic(Int(link.x)) || movingKinematic(Int(link.y)) { canSleep[isl] = 0; break }
                }
            }
        }
    }

    /// The awake joint list (`awakeJointList()`) and its joints' bodies.
    private func awakeJointsAndLinks() -> (list: View<Int32>, links: View<SIMD2<Int32>>) {
        let list = awakeJointList()
        return (list, list.isEmpty ? View() : islands.awakeJointLinks.view)
    }

    /// `buildIslands` over buffer views (no class property access per body or contact).
    /// `cs` holds each contact's bodies when it has points, else (-1, -1) (`ContactSet.links`);
    /// `jointLinks` the bodies of the joints `awakeJoints`.
    private func buildIslands(_ cs: View<SIMD2<Int32>>, _ me: View<BodyMeta>, _ awakeJoints: View<Int32>,
                              _ jointLinks: View<SIMD2<Int32>>, _ st: View<BodyState>, workers: Int, _ ib: inout IslandBuilder) {
        let nb = Int(bodySlots.count)
        // (A small world reads its few slots; a larger one its awake list.)
        let awake = nb < IslandBuilder.listedFrom ? nil : awakeBodies()
        let awakeCount = awake?.count ?? nb
        @inline(__always) func awakeBody(_ k: Int) -> Int32 { awake.map { $0[k] } ?? Int32(k) }
        ib.parent.grow(to: nb, with: 0); ib.islandOf.grow(to: nb, with: -1)
        // The last islands' bodies leave them (no other body is in one).
        do {
            let islandOf = ib.islandOf.mutableView, old = ib.bodies.view
            for k in 0..<min(ib.islandBodies, old.count) where Int(old[k]) < islandOf.count { islandOf[Int(old[k])] = -1 }
        }
        // The contacts with points, listed in contact order by the union pass: the passes
        // after it read the list, not every contact slot (a third of a moving world's slots
        // have no points, and a branch on each is often mispredicted).
        ib.touching.grow(to: cs.count, with: 0)
        let touching = ib.touching.mutableView
        var touchingCount = 0
        // 1. Union–find over awake dynamic bodies (the lower slot becomes the root).
        var count = 0
        do {
            let parent = ib.parent.mutableView, islandOf = ib.islandOf.mutableView
            @inline(__always) func solverBody(_ i: Int) -> Bool { me[i].type == .dynamic && me[i].awake && me[i].alive }
            // The solver bodies are marked in `islandOf` (0; every other body is at -1), so
            // that the passes over contacts and joints read that array, not the body records.
            for k in 0..<awakeCount {
                let b = awakeBody(k)
                parent[Int(b)] = b
                if solverBody(Int(b)) { islandOf[Int(b)] = 0 }
            }
            touchingCount = IslandUnion.run(links: cs, jointLinks: jointLinks, marks: islandOf.readOnly, parent: parent,
                                            touching: touching, slots: nb, workers: workers, counts: ib.unionCounts)
            // 2. Number islands by their root, in slot order. A body's parent is never a higher
            // slot (a union hangs the higher root under the lower, path halving a body under
            // its grandparent, lower still; the root is the set's lowest slot), so in slot
            // order the parent is already numbered with its island: no walk to the root.
            for k in 0..<awakeCount where islandOf[Int(awakeBody(k))] >= 0 {
                let i = Int(awakeBody(k))
                let p = Int(parent[i])
                if p == i { islandOf[i] = Int32(count); count += 1 } else { islandOf[i] = islandOf[p] }
            }
        }
        ib.count = count
        let n = count
        ib.bodyStart.grow(to: n + 1, with: 0); ib.contactStart.grow(to: n + 1, with: 0); ib.jointStart.grow(to: n + 1, with: 0)
        if ib.canSleep.count < n { ib.canSleep.append(contentsOf: repeatElement(1, count: n - ib.canSleep.count)) }
        // 3. Counting sort of bodies, contacts and joints by island: three sorts, each with
        // its own counts, offsets and cursors, so they may run on different workers (each
        // list is grown first to the most it can hold).
        ib.bodies.grow(to: awakeCount, with: 0); ib.contactList.grow(to: touchingCount, with: 0)
        ib.jointList.grow(to: jointLinks.count, with: 0)
        let cur = solver.cursor
        cur.grow(to: 3 * n, with: 0)
        ib.sortTotals.grow(to: 3, with: 0)
        let sort = IslandSort(islands: n, islandOf: ib.islandOf.view, awake: awake, awakeCount: awakeCount,
                              links: cs, touching: touching.readOnly.subview(0..<touchingCount), jointLinks: jointLinks,
                              awakeJoints: awakeJoints, metas: me, states: st,
                              bodyStart: ib.bodyStart.mutableView, contactStart: ib.contactStart.mutableView,
                              jointStart: ib.jointStart.mutableView, bodies: ib.bodies.mutableView,
                              contactList: ib.contactList.mutableView, jointList: ib.jointList.mutableView,
                              canSleep: ib.canSleep.mutableView, cursors: cur.mutableView, totals: ib.sortTotals.mutableView)
        if workers > 1 && awakeCount + touchingCount + jointLinks.count >= IslandSort.parallelFrom {
            Parallel.forChunks(workers: workers, count: 3, chunkSize: 1, sort)
        } else {
            sort.run(0..<3, part: 0)
        }
        let nBodies = ib.sortTotals[0], nContacts = ib.sortTotals[1], nJoints = ib.sortTotals[2]
        ib.contactsInIslands = nContacts; ib.jointsInIslands = nJoints
        ib.islandBodies = nBodies
        ib.colored = false
        // 4. Solve groups of consecutive islands: counted first, so that the group lists grow
        // to the groups there are, not to one per island (a million one-body islands make
        // about 7 800 groups: lists sized for islands would take 12 MB to hold 94 KB).
        var groups = 0
        let limit = IslandBuilder.groupLimit
        do {
            let bodyStart = ib.bodyStart.view, contactStart = ib.contactStart.view
            var openBody: Int32 = 0, openContact: Int32 = 0
            for k in 0..<n {
                // A new group when island k would take the open one past the limit.
                if groups == 0 || (contactStart[k + 1] - openContact > limit) || (bodyStart[k + 1] - openBody > limit) {
                    openBody = bodyStart[k]; openContact = contactStart[k]
                    groups += 1
                }
            }
        }
        ib.groupBodyStart.grow(to: groups + 1, with: 0); ib.groupContactStart.grow(to: groups + 1, with: 0); ib.groupJointStart.grow(to: groups + 1, with: 0)
        do {
            let bodyStart = ib.bodyStart.view, contactStart = ib.contactStart.view, jointStart = ib.jointStart.view
            let gb = ib.groupBodyStart.mutableView, gc = ib.groupContactStart.mutableView, gj = ib.groupJointStart.mutableView
            var g = 0
            for k in 0..<n {
                if g == 0 || (contactStart[k + 1] - gc[g - 1] > limit) || (bodyStart[k + 1] - gb[g - 1] > limit) {
                    gb[g] = bodyStart[k]; gc[g] = contactStart[k]; gj[g] = jointStart[k]
                    g += 1
                }
            }
            assert(g == groups, "buildIslands: \(g) groups written, \(groups) counted")
            gb[groups] = bodyStart[n]; gc[groups] = contactStart[n]; gj[groups] = jointStart[n]
        }
        ib.groupCount = groups
    }
}

extension World {
    /// Notes that body `i` may have become awake (created, woken, given another type): it
    /// joins the awake list at the next `awakeBodies()`.
    @inline(__always)
    func noteMaybeAwake(_ i: Int) {
        if islands.awakeStale { return }
        if Int(bodySlots.count) < IslandBuilder.listedFrom { islands.awakeStale = true; return }
        islands.awake.append(Int32(i))
        islands.awakeUnsorted = true
    }

    /// The awake dynamic and kinematic bodies in slot order, brought up to date (see
    /// `IslandBuilder.refreshAwake`).
    @inline(__always)
    func awakeBodies() -> View<Int32> {
        islands.refreshAwake(metas.view, slots: Int(bodySlots.count))
    }
}

extension IslandBuilder {
    /// `awake` brought up to date: made from every slot when stale; else, when bodies were
    /// appended or may have left (`awakeMayShrink`), sorted with repeats and bodies no longer
    /// awake (asleep, destroyed, made static) dropped. O(awake bodies) but after a restore.
    mutating func refreshAwake(_ me: View<BodyMeta>, slots: Int) -> View<Int32> {
        @inline(__always) func isAwake(_ i: Int) -> Bool { me[i].alive && me[i].type != .static && me[i].awake }
        if awakeStale {
            awakeStale = false
            awakeUnsorted = false
            awakeMayShrink = false
            awake.removeAllKeepingCapacity()
            for i in 0..<slots where isAwake(i) { awake.append(Int32(i)) }
            return awake.view
        }
        guard awakeUnsorted || awakeMayShrink else { return awake.view }
        if awakeUnsorted {
            awakeUnsorted = false
            sortKeys(awake.mutableView)
        }
        awakeMayShrink = false
        let v = awake.mutableView
        var w = 0
        for k in v.indices {
            let b = v[k]
            if isAwake(Int(b)) && (w == 0 || v[w - 1] != b) { v[w] = b; w += 1 }
        }
        awake.truncate(to: w)
        return awake.view
    }
}

extension World {
    /// The joints the islands read (`IslandBuilder.awakeJoints`), made again when stale; none
    /// in a world without joints.
    func awakeJointList() -> View<Int32> {
        guard jointCount > 0 else { return View() }
        if islands.awakeJointsStale || islands.awakeJointsUnsorted || islands.awakeJointsMayShrink { refreshAwakeJoints() }
        assert(Self.holdsInOrder(islands.awakeJoints.view, every: joints.view.indices.lazy.filter { self.jointCountsAwake($0) }),
               "the awake joint list is not every joint with an awake body, in slot order: a change that wakes a body or adds a joint did not note it")
        assert(islands.awakeJointLinks.view.elementsEqual(islands.awakeJoints.view.lazy.map { SIMD2(self.joints[Int($0)].bodyA, self.joints[Int($0)].bodyB) }),
               "the awake joints' links are not their bodies: the list changed without being brought up to date")
        return islands.awakeJoints.view
    }

    /// Whether joint slot `j` is live with an awake dynamic or kinematic body.
    @inline(__always)
    func jointCountsAwake(_ j: Int) -> Bool {
        @inline(__always) func awake(_ b: Int32) -> Bool { metas[Int(b)].awake && metas[Int(b)].type != .static }
        return joints[j].alive && (awake(joints[j].bodyA) || awake(joints[j].bodyB))
    }

    /// Brings the awake joint list up to date: made from every joint when stale; else sorted
    /// (joints were appended) with repeats and joints that no longer count dropped. (It may
    /// still hold a joint whose kinematic body fell asleep alone: every reader passes over a
    /// joint with no awake dynamic body.)
    private func refreshAwakeJoints() {
        let list = islands.awakeJoints, links = islands.awakeJointLinks
        links.removeAllKeepingCapacity()
        // (A kept joint's bodies are read from the record line its test just read.)
        @inline(__always) func link(_ j: Int) { links.append(SIMD2(joints[j].bodyA, joints[j].bodyB)) }
        if islands.awakeJointsStale {
            islands.awakeJointsStale = false
            counters.jointListRebuilds += 1
            list.removeAllKeepingCapacity()
            for j in 0..<joints.count where jointCountsAwake(j) { list.append(Int32(j)); link(j) }
        } else {
            if islands.awakeJointsUnsorted { sortKeys(list.mutableView) }
            let v = list.mutableView
            var w = 0
            for k in v.indices where jointCountsAwake(Int(v[k])) && (w == 0 || v[w - 1] != v[k]) {
                v[w] = v[k]; w += 1
                link(Int(v[k]))
            }
            list.truncate(to: w)
        }
        islands.awakeJointsUnsorted = false
        islands.awakeJointsMayShrink = false
    }

    /// Whether `list` is strictly increasing and holds every element of `required` (increasing).
    static func holdsInOrder<S: Sequence>(_ list: View<Int32>, every required: S) -> Bool where S.Element == Int {
        guard zip(list.dropFirst(), list).allSatisfy({ $0 > $1 }) else { return false }
        var k = 0
        for j in required {
            while k < list.count && Int(list[k]) < j { k += 1 }
            if k == list.count || Int(list[k]) != j { return false }
        }
        return true
    }

    /// Joint `j` may now have an awake body: it joins the awake joint list (unless stale).
    @inline(__always)
    func noteJointMaybeAwake(_ j: Int) {
        guard !islands.awakeJointsStale else { return }
        islands.awakeJoints.append(Int32(j))
        islands.awakeJointsUnsorted = true
    }

    /// Body `i` woke: its joints join the awake joint list.
    func noteJointsMaybeAwake(ofBody i: Int) {
        guard !islands.awakeJointsStale else { return }
        currentJointGraph()
        jointGraph.forEachJoint(ofBody: i) { noteJointMaybeAwake($0) }
    }
}

/// The island build's union pass (`dk_union_links`) over the contacts' links, then the awake
/// joints' links, taken as one index range: chunk c joins the bodies of the links in its
/// range, and lists its contacts with points in `touching` from its first contact on, their
/// count in `counts[c]`. Chunks may run on several workers at once (the forest is shared and
/// joined lock-free); the sets, and each one's root (its lowest slot), are the same however
/// the links are split, and `run` closes the gaps between the chunks' lists, so `touching`
/// holds the contacts with points in contact order.
struct IslandUnion: RangeTask, @unchecked Sendable {
    let links: View<SIMD2<Int32>>
    let jointLinks: View<SIMD2<Int32>>
    let marks: View<Int32>
    let parent: MutableView<Int32>
    let touching: MutableView<Int32>
    let counts: MutableView<Int32>
    let slots: Int
    /// Whether chunks run at once (roots are then hung with a compare-and-swap).
    let shared: Bool

    /// The fewest links shared among the workers, and the links of a chunk.
    static let parallelFrom = 8192, chunkSize = 4096

    func run(_ r: Range<Int>, part c: Int) {
        let nc = links.count
        let cr = min(r.lowerBound, nc)..<min(r.upperBound, nc)
        let jr = (max(r.lowerBound, nc) - nc)..<(max(r.upperBound, nc) - nc)
        var listed = 0
        if !cr.isEmpty {
            let list = touching.pointer(at: cr.lowerBound, count: cr.count)
            listed = links.base.withMemoryRebound(to: Int32.self, capacity: 2 * nc) {
                dk_union_links($0, cr.lowerBound, cr.upperBound, marks.base, parent.base, slots, list, shared ? 1 : 0)
            }
        }
        counts[c] = Int32(truncatingIfNeeded: listed)
        if !jr.isEmpty {
            _ = jointLinks.base.withMemoryRebound(to: Int32.self, capacity: 2 * jointLinks.count) {
                dk_union_links($0, jr.lowerBound, jr.upperBound, marks.base, parent.base, slots, nil, shared ? 1 : 0)
            }
        }
    }

    /// Joins the bodies of every contact with points and every joint whose two bodies are both
    /// marked (`marks[body] >= 0`) in `parent`, lists the contacts with points in `touching`
    /// (in contact order) and returns how many there are.
    static func run(links: View<SIMD2<Int32>>, jointLinks: View<SIMD2<Int32>>, marks: View<Int32>, parent: MutableView<Int32>,
                    touching: MutableView<Int32>, slots: Int, workers: Int, counts: Column<Int32>) -> Int {
        precondition(marks.count >= slots && parent.count >= slots, "IslandUnion: the marks and the forest must cover every slot")
        let total = links.count + jointLinks.count
        let parallel = workers > 1 && total >= parallelFrom
        let chunks = parallel ? (total + chunkSize - 1) / chunkSize : 1
        counts.grow(to: chunks, with: 0)
        let task = IslandUnion(links: links, jointLinks: jointLinks, marks: marks, parent: parent, touching: touching,
                               counts: counts.mutableView, slots: slots, shared: parallel)
        guard parallel else {
            task.run(0..<total, part: 0)
            return Int(counts[0])
        }
        Parallel.forChunks(workers: workers, count: total, chunkSize: chunkSize, task)
        // Each chunk's list moved down behind the lists before it (never up: a chunk lists at
        // most its own contacts).
        let n = counts.view
        var listed = Int(n[0])
        for c in 1..<chunks {
            let from = min(c * chunkSize, links.count), count = Int(n[c])
            if from != listed { for k in 0..<count { touching[listed + k] = touching[from + k] } }
            listed += count
        }
        return listed
    }
}

/// The island build's counting sorts (`World.buildIslands`): index 0 sorts the bodies by
/// island, 1 the contacts with points (and finds the islands a moving kinematic body keeps
/// awake), 2 the joints. Each writes only its own offsets, list, cursors (its third of
/// `cursors`) and total, so the three may run on different workers.
struct IslandSort: RangeTask, @unchecked Sendable {
    let islands: Int
    let islandOf: View<Int32>
    /// The awake bodies (nil: every slot, `awakeCount` of them).
    let awake: View<Int32>?
    let awakeCount: Int
    let links: View<SIMD2<Int32>>
    let touching: View<Int32>
    let jointLinks: View<SIMD2<Int32>>
    let awakeJoints: View<Int32>
    let metas: View<BodyMeta>
    let states: View<BodyState>
    let bodyStart, contactStart, jointStart: MutableView<Int32>
    let bodies, contactList, jointList: MutableView<Int32>
    let canSleep: MutableView<UInt8>
    let cursors: MutableView<Int32>
    let totals: MutableView<Int>

    /// The fewest bodies, contacts and joints whose sorts are shared among the workers.
    static let parallelFrom = 4096

    func run(_ r: Range<Int>, part: Int) {
        for sort in r {
            switch sort {
            case 0: sortBodies()
            case 1: sortContacts()
            default: sortJoints()
            }
        }
    }

    /// `start[0 ... islands]` from the counts in `start[1...]`; the cursors from the offsets.
    @inline(__always)
    private func offsets(_ start: MutableView<Int32>, cursor: MutableView<Int32>) {
        for k in 0..<islands {
            start[k + 1] += start[k]
            cursor[k] = start[k]
        }
    }

    private func sortBodies() {
        let n = islands, cur = cursors.subview(0..<n)
        @inline(__always) func body(_ k: Int) -> Int32 { awake.map { $0[k] } ?? Int32(k) }
        for k in 0...n { bodyStart[k] = 0 }
        var total = 0
        for k in 0..<awakeCount where islandOf[Int(body(k))] >= 0 { bodyStart[Int(islandOf[Int(body(k))]) + 1] += 1; total += 1 }
        offsets(bodyStart, cursor: cur)
        for k in 0..<awakeCount where islandOf[Int(body(k))] >= 0 {
            let b = body(k)
            let isl = Int(islandOf[Int(b)]); bodies[Int(cur[isl])] = b; cur[isl] += 1
        }
        totals[0] = total
    }

    private func sortContacts() {
        let n = islands, cur = cursors.subview(n..<(2 * n))
        @inline(__always) func movingKinematic(_ i: Int) -> Bool {
            metas[i].type == .kinematic && (states[i].v != .zero || states[i].w != 0)
        }
        for k in 0...n { contactStart[k] = 0 }
        var total = 0
        for t in touching.indices {
            let link = links[Int(touching[t])]
            let ia = islandOf[Int(link.x)]
            let isl = ia >= 0 ? ia : islandOf[Int(link.y)]
            if isl >= 0 { contactStart[Int(isl) + 1] += 1; total += 1 }
        }
        offsets(contactStart, cursor: cur)
        for k in 0..<n { canSleep[k] = 1 }
        for t in touching.indices {
            let k = Int(touching[t])
            let a = Int(links[k].x), b = Int(links[k].y)
            let ia = islandOf[a]
            let isl = Int(ia >= 0 ? ia : islandOf[b])
            if isl < 0 { continue }
            contactList[Int(cur[isl])] = Int32(k); cur[isl] += 1
            // A moving kinematic body keeps the island awake. (A body in an island is
            // dynamic: only the others' records are read.)
            if (ia < 0 && movingKinematic(a)) || (islandOf[b] < 0 && movingKinematic(b)) { canSleep[isl] = 0 }
        }
        totals[1] = total
    }

    private func sortJoints() {
        let n = islands, cur = cursors.subview((2 * n)..<(3 * n))
        for k in 0...n { jointStart[k] = 0 }
        var total = 0
        for link in jointLinks {
            let ia = islandOf[Int(link.x)]
            let isl = ia >= 0 ? ia : islandOf[Int(link.y)]
            if isl >= 0 { jointStart[Int(isl) + 1] += 1; total += 1 }
        }
        offsets(jointStart, cursor: cur)
        for k in jointLinks.indices {
            let ia = islandOf[Int(jointLinks[k].x)]
            let isl = Int(ia >= 0 ? ia : islandOf[Int(jointLinks[k].y)])
            if isl < 0 { continue }
            jointList[Int(cur[isl])] = awakeJoints[k]; cur[isl] += 1
        }
        totals[2] = total
    }
}

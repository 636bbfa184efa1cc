import DynamicsSolverKernels

/// Graph colouring of each island's contact constraints, and every colour's batches of four
/// (`WideContact`), prepared straight from the contacts.
///
/// A constraint takes the first of `colorCount` colours in which neither of its dynamic bodies
/// appears yet (static and kinematic bodies are only read, so they never block a colour);
/// constraints that fit no colour go to the island's overflow list and are solved one by one
/// after the colours. Colouring runs serially in constraint order (a big island's in shuffled
/// runs: `IslandColoring.scatterMinimum`), so the result — and the solve order it implies —
/// does not depend on the number of worker threads.
struct ColoredBatches {
    static let colorCount = 24

    /// Per body slot: bit k set when the body already has a constraint of colour k.
    let bodyColors = Column<UInt32>()
    let colorOf = Column<UInt8>()
    let order = Column<Int32>()
    let wide = Column<WideContact>()
    /// Per batch: its lanes' contact data slots and restitution data.
    let wideExtra = Column<WideExtra>()
    /// `wide[wideStart[i] ..< wideStart[i + 1]]` are island i's batches, colour by colour.
    let wideStart = Column<Int32>()
    /// Constraints that fit no colour, as positions in the islands' contact list; the solver
    /// prepares them as scalar constraints (`SolverScratch.constraints[k]` for `overflow[k]`).
    let overflow = Column<Int32>()
    let overflowStart = Column<Int32>()
    /// Per island: `colorStart` offsets into `wide` for each colour (colorCount + 1 entries
    /// per island), so a colour's batches can be split across workers.
    let colorStart = Column<Int32>()
    /// Per island: the constraint count of each colour (colorCount + 1 entries per island, the
    /// last one the overflow), written by the colouring pass and read by the offsets and packing.
    let islandCounts = Column<Int32>()
    /// Per batch: where its constraints start in `order` and how many lanes they fill (1–4),
    /// written by the offsets pass so that preparation can be split by batch, not by island.
    let batchSource = Column<Int32>()
    let batchLanes = Column<UInt8>()
    /// Per island: the counting sort's cursor of each colour (colorCount + 1 entries per
    /// island; scratch of the colouring pass, each island its own row).
    let colorCursor = Column<Int>()
    /// The joints' colours and solve order.
    var joints = ColoredJoints()

    /// Colouring and preparation run in three passes: (1) islands are coloured and their
    /// constraints counting-sorted by colour (`coloring(…)` gives the view; each island is one
    /// independent task); (2) every island's offsets into `wide` and `overflow`, and every
    /// batch's source range, are laid out serially in island order (`layout(…)`); (3) batches
    /// are prepared from the contacts in parallel, in chunks of batches, so one giant island is
    /// split too (`prepare(…)`). What each island and batch holds is the same whoever computes
    /// it, so the batches never depend on the worker count.
    ///
    /// Grows the buffers of pass 1 and returns its view, valid until `layout`.
    /// (`ib` is inout only so that the world's builder is passed in place, not copied: it is only read.)
    mutating func coloring(islands ib: inout IslandBuilder, links: View<SIMD2<Int32>>, metas: View<BodyMeta>,
                           bodyCount: Int) -> IslandColoring {
        let n = ib.groupCount
        let total = n > 0 ? Int(ib.groupContactStart[n]) : 0
        let stride = Self.colorCount + 1
        if bodyColors.count < bodyCount { bodyColors.append(contentsOf: repeatElement(0, count: bodyCount - bodyColors.count)) }
        if colorOf.count < total { colorOf.append(contentsOf: repeatElement(0, count: total - colorOf.count)) }
        if order.count < total { order.append(contentsOf: repeatElement(0, count: total - order.count)) }
        if islandCounts.count < n * stride { islandCounts.append(contentsOf: repeatElement(0, count: n * stride - islandCounts.count)) }
        colorCursor.grow(to: n * stride, with: 0)
        return IslandColoring(bodyColors: bodyColors.mutableView, colorOf: colorOf.mutableView,
                              order: order.mutableView, counts: islandCounts.mutableView, cursors: colorCursor.mutableView,
                              groups: ib.groups, links: links, islandOf: ib.islandOf.view, metas: metas,
                              all: (1 << UInt32(Self.colorCount)) - 1)
    }

    /// Pass 2, after every island has been coloured. Returns the number of overflow constraints.
    mutating func layout(islands ib: inout IslandBuilder) -> Int {
        let n = ib.groupCount
        let k = Self.colorCount
        let stride = k + 1
        // Offsets, in island order; each batch's source range in `order`; the overflow lists
        // (short) are copied here. Every buffer is only ever grown (to bounds known up front: a
        // batch or an overflow entry holds at least one constraint) and written through
        // views: this pass is serial.
        let total = n > 0 ? Int(ib.groupContactStart[n]) : 0
        wideStart.grow(to: n + 1, with: 0); overflowStart.grow(to: n + 1, with: 0); colorStart.grow(to: n * stride + 1, with: 0)
        batchSource.grow(to: total, with: 0); batchLanes.grow(to: total, with: 0); overflow.grow(to: total, with: 0)
        let contactStart = ib.groupContactStart.view
        let ws = wideStart.mutableView, os = overflowStart.mutableView
        let cs = colorStart.mutableView, ic = islandCounts.view
        let src = batchSource.mutableView, lanes = batchLanes.mutableView
        let ov = overflow.mutableView, ord = order.view
        var w: Int32 = 0, o: Int32 = 0
        for isl in 0..<n {
            ws[isl] = w
            os[isl] = o
            var cursor = contactStart[isl]
            let row = ic.subview(isl * stride ..< (isl + 1) * stride), crow = cs.subview(isl * stride ..< (isl + 1) * stride)
            for q in 0..<k {
                crow[q] = w
                let count = row[q]
                var first: Int32 = 0
                while first < count {
                    src[Int(w)] = cursor + first
                    lanes[Int(w)] = UInt8(truncatingIfNeeded: min(4, count - first))
                    first += 4
                    w += 1
                }
                cursor += count
            }
            crow[k] = w
            let spill = row[k]
            for j in 0..<spill { ov[Int(o + j)] = ord[Int(cursor + j)] }
            o += spill
        }
        ws[n] = w
        os[n] = o
        // Pass 3 fills every slot below `w`, so the arrays are only ever grown.
        if wide.count < Int(w) { wide.append(contentsOf: repeatElement(WideContact(), count: Int(w) - wide.count)) }
        if wideExtra.count < Int(w) { wideExtra.append(contentsOf: repeatElement(WideExtra(), count: Int(w) - wideExtra.count)) }
        return Int(o)
    }

    /// Pass 3: prepares every batch from the world (see `dk_prepare_batch`), in chunks of
    /// batches on `workers` workers; raises `bounce` when a lane can bounce and `rolling` when a
    /// lane has rolling resistance.
    /// `prefetches`: each chunk asks for its batches' contacts, manifolds and bodies a few
    /// batches ahead (`BatchPreparation.recordLead`).
    mutating func prepare(islands ib: inout IslandBuilder, source: DKPrepareSource, workers: Int, bounce: WorkFlag,
                          rolling: WorkFlag, prefetches: Bool) {
        let n = ib.groupCount
        let w = n > 0 ? Int(wideStart[n]) : 0
        // (Islands of joints and overflow constraints only: no batch column to open.)
        guard w > 0 else { return }
        let v = BatchPreparation(wide: wide.mutableView, extra: wideExtra.mutableView, order: order.view,
                                 contactList: ib.contactList.view, source: batchSource.view,
                                 lanes: batchLanes.view, prepare: source, bounce: bounce, rolling: rolling,
                                 prefetches: prefetches)
        Parallel.forChunks(workers: workers, count: w, chunkSize: 64, v)
    }
}

/// Pass 1 of the colouring for one island, through views (shared by the workers; each island
/// writes only its own bodies' colour masks, its own constraint range of `colorOf` / `order`
/// and its own rows of `counts` and `cursors`). It reads only the contacts' bodies — from their
/// 8-byte links (`ContactSet.links`: every constraint has points), not their 40-byte records,
/// which a big island reads in no order the processor foresees — and which of its bodies are
/// in an island (`IslandBuilder.islandOf`, 4 bytes a body where its record is 64): a
/// constraint's body outside every island is static or kinematic (a contact between an awake
/// and a sleeping dynamic body wakes the sleeping one before the islands are built), so
/// exactly its dynamic bodies are in one, which the solver writes.
struct IslandColoring: @unchecked Sendable {
    let bodyColors: MutableView<UInt32>
    let colorOf: MutableView<UInt8>
    let order, counts: MutableView<Int32>
    let cursors: MutableView<Int>
    let groups: SolveGroups
    let links: View<SIMD2<Int32>>
    let islandOf: View<Int32>
    /// Only read by a debug check: the bodies in islands are the dynamic ones.
    let metas: View<BodyMeta>
    let all: UInt32

    func color(island isl: Int) {
        let k = ColoredBatches.colorCount
        let row = counts.subview(isl * (k + 1) ..< (isl + 1) * (k + 1))
        for q in 0...k { row[q] = 0 }
        let bodies = groups.bodies, contactList = groups.contactList
        for q in groups.bodyRange(isl) { bodyColors[Int(bodies[q])] = 0 }
        let c0 = groups.contactRange(isl).lowerBound, c1 = groups.contactRange(isl).upperBound
        // Constraint i takes the lowest colour free at both its dynamic bodies (the solver
        // writes only those: `prepare` sets `writeA` / `writeB` for dynamic bodies).
        @inline(__always) func take(_ i: Int) {
            let ci = Int(contactList[i])
            let link = links[ci]
            let a = Int(link.x), b = Int(link.y)
            let writeA = islandOf[a] >= 0, writeB = islandOf[b] >= 0
            assert(writeA == (metas[a].type == .dynamic) && writeB == (metas[b].type == .dynamic),
                   "a constraint's body is in an island but not dynamic, or dynamic but in no island")
            let ma = writeA ? bodyColors[a] : 0
            let mb = writeB ? bodyColors[b] : 0
            let free = ~(ma | mb) & all
            var color = k
            if free != 0 {
                color = free.trailingZeroBitCount
                let bit: UInt32 = 1 << UInt32(color)
                if writeA { bodyColors[a] |= bit }
                if writeB { bodyColors[b] |= bit }
            }
            colorOf[i] = UInt8(color)
            row[color] += 1
        }
        if c1 - c0 > Self.scatterMinimum {
            Self.scatterOrder.withUnsafeBufferPointer { shuffle in
                for r0 in stride(from: c0, to: c1, by: Self.scatterBlock) {
                    for o in shuffle where r0 + Int(o) < c1 { take(r0 + Int(o)) }
                }
            }
        } else {
            for i in c0..<c1 { take(i) }
        }
        // Counting sort by colour, stable in constraint order, into order[c0 ..< c1].
        let starts = cursors.subview(isl * (k + 1) ..< (isl + 1) * (k + 1))
        var at = c0
        for q in 0...k { starts[q] = at; at += Int(row[q]) }
        for i in c0..<c1 {
            let q = Int(colorOf[i])
            order[starts[q]] = Int32(i)
            starts[q] += 1
        }
    }
}

extension IslandColoring {
    /// Islands with more constraints than this take their colours in a scattered order.
    ///
    /// Greedy colouring in constraint order (the order the contacts were made: in a stacked
    /// pile, row by row, left to right) gives each body's left-hand contacts the lower colours,
    /// so every step the solver takes them first; through the warm-started friction that
    /// sideways lean adds up, and a big pyramid sways for seconds before it can sleep. Within
    /// each run of `scatterBlock` constraints, the colours are taken in a fixed shuffled order
    /// (`scatterOrder`), so which of two neighbouring contacts comes first is a coin toss
    /// and the leans cancel; the runs themselves stay in constraint order, so a pile is
    /// still swept from the first rows made (the bottom) up, which carries its weight down in
    /// few iterations. Scattering costs colours (the order packs them less tightly), so small
    /// islands, where the lean has little to build on, keep the constraint order. Each colour's
    /// constraints go to the solver in constraint order either way.
    static let scatterMinimum = 1024
    static let scatterBlock = 64

    /// The order in which each run of `scatterBlock` constraints takes its colours: a fixed
    /// shuffle of 0 ..< scatterBlock (Fisher–Yates on `SplitMix64` from a constant seed, the
    /// same on every platform), so that for constraints any distance apart within a run
    /// either order is about as likely.
    static let scatterOrder: [UInt8] = {
        var order = (0..<scatterBlock).map { UInt8($0) }
        var random = SplitMix64(seed: 0x5DEE_CE66_D1CE_4E5B)
        for n in stride(from: scatterBlock - 1, to: 0, by: -1) {
            order.swapAt(n, Int(random.next() % UInt64(n + 1)))
        }
        return order
    }()
}

/// Pass 3 of the colouring: each batch is written only by the worker that prepares it.
private struct BatchPreparation: RangeTask, @unchecked Sendable {
    let wide: MutableView<WideContact>
    let extra: MutableView<WideExtra>
    let order: View<Int32>
    /// (Only the contact list, not all of `SolveGroups`: each view read is a column object to
    /// fetch, and a thousand small worlds stepped in turn find them out of the cache.)
    let contactList: View<Int32>
    let source: View<Int32>
    let lanes: View<UInt8>
    let prepare: DKPrepareSource
    unowned(unsafe) let bounce: WorkFlag
    unowned(unsafe) let rolling: WorkFlag
    let prefetches: Bool

    /// How many batches ahead `run` asks for a batch's contact records, and (half as far)
    /// for the manifolds and bodies they name: a colour's batches gather contacts and bodies
    /// from anywhere, and in a large world whose contacts churn (the dashboard scene) waiting
    /// for them would be most of this pass. Only with `prefetches` (see
    /// `World.defaultPrefetchingContacts`).
    static let recordLead = 4, dataLead = 2

    /// Batch `b`'s contacts (indices into the world's contacts).
    @inline(__always)
    func contacts(of b: Int) -> (SIMD4<Int32>, Int) {
        let first = Int(source[b]), count = Int(lanes[b])
        var contacts = SIMD4<Int32>(repeating: 0)
        for l in 0..<count { contacts[l] = contactList[Int(order[first + l])] }
        return (contacts, count)
    }

    func run(_ batches: Range<Int>, part: Int) {
        var flags: Int32 = 0
        var src = prepare
        for b in batches {
            if prefetches && b + Self.recordLead < batches.upperBound {
                let (ahead, n) = contacts(of: b + Self.recordLead)
                withLanes(of: ahead) { dk_prefetch_contacts(&src, $0, n) }
            }
            if prefetches && b + Self.dataLead < batches.upperBound {
                let (ahead, n) = contacts(of: b + Self.dataLead)
                withLanes(of: ahead) { dk_prefetch_batch(&src, $0, n) }
            }
            let (contacts, count) = self.contacts(of: b)
            flags |= withLanes(of: contacts) {
                dk_prepare_batch(&src, $0, count, wide.pointer(at: b), extra.pointer(at: b))
            }
        }
        if flags & Int32(DK_BATCH_BOUNCES) != 0 { bounce.set() }
        if flags & Int32(DK_BATCH_ROLLS) != 0 { rolling.set() }
    }
}

/// The joints of each solve group in the order the solver takes them: a group of at least
/// `coloredFrom` joints colour by colour — a joint takes the first of `ColoredBatches.colorCount`
/// colours in which neither of its dynamic bodies appears yet, so the joints of one colour
/// touch different bodies and several workers can solve a colour at once — then the joints
/// that fit no colour, one by one; a smaller group's joints as the islands list them (one
/// worker solves such a group whole). Colouring is serial, in the islands' joint order, so the
/// order, and the result, do not depend on the number of workers.
///
/// Within a colour the joints that lanes take (`WideJoint.takes`) come last, in batches of
/// four (`wide`), the others first, one by one: the joints of a colour touch different bodies,
/// so their order within it changes no result. The lanes' joints come by kind — revolute and
/// weld joints, then distance joints, then prismatic joints (`WideJoint.kind`) — and no batch
/// holds two kinds (the kernels solve a batch as one kind).
struct ColoredJoints {
    /// The fewest joints a solve group colours (and solves in lanes). Two ragdolls (10 joints
    /// each) qualify: rain's groups of ragdolls in contact with the floors hold few of them.
    static let coloredFrom = 16

    /// Per body slot: bit k set when the body already has a joint of colour k (scratch).
    let bodyColors = Column<UInt32>()
    /// Per joint of the islands' list: its colour (`colorCount`: none; scratch).
    let colorOf = Column<UInt8>()
    /// The joints (slots) in solve order, group by group at the same offsets as
    /// `IslandBuilder.jointList`.
    let order = Column<Int32>()
    /// Per group, `colorCount + 2` offsets into `order`: where each colour starts, where the
    /// joints without a colour start, and the group's end.
    let colorStart = Column<Int32>()

    static var stride: Int { ColoredBatches.colorCount + 2 }

    /// The step's joint batches, colour by colour, group by group (`WideJoint`; each lane's
    /// joint slot set here, the rest filled every step). Holds `wideCount` batches, and may
    /// hold more, left from a step with more: the column only grows, so that its batches are
    /// written once, in parallel, never first filled and then overwritten.
    let wide = Column<WideJoint>()
    /// Per group, `colorCount + 1` offsets into `wide`: where each colour's batches start, and
    /// the group's end.
    let wideStart = Column<Int32>()
    /// Per group and colour (`colorCount` entries a group): where in `order` the colour's
    /// joints in batches start (those before it are solved one by one).
    let wideFrom = Column<Int32>()
    /// Per joint of the islands' list: whether lanes take it (kept with the colours: the
    /// preparation skips those joints' records).
    let inLanes = Column<Bool>()
    /// Per position in `order`: the `WideJoint.kind` of a joint in lanes (scratch of `color`).
    let kindAt = Column<UInt8>()
    /// Per group, then one more: its batch count, then where its batches start (scratch of
    /// `color`).
    let batchStart = Column<Int32>()

    static var wideStride: Int { ColoredBatches.colorCount + 1 }

    /// How many joint batches this step has.
    private(set) var wideCount = 0

    /// Colours every group's joints (see the type), on up to `workers` threads: each group is
    /// coloured by one of them (groups share no dynamic body, so neither their colours nor
    /// their batches depend on who computes them), then, once every group's batch count is
    /// known and its first batch placed, each group's batches are written. `ib` is inout only
    /// so that the builder is passed in place: it is only read.
    mutating func color(islands ib: inout IslandBuilder, joints: View<JointRecord>, metas: View<BodyMeta>, bodyCount: Int,
                        workers: Int) {
        let groups = ib.groupCount
        let k = ColoredBatches.colorCount, stride = Self.stride
        let total = groups > 0 ? Int(ib.groupJointStart[groups]) : 0
        bodyColors.grow(to: bodyCount, with: 0)
        colorOf.grow(to: total, with: 0)
        inLanes.grow(to: total, with: false)
        order.grow(to: total, with: 0)
        kindAt.grow(to: total, with: 0)
        colorStart.grow(to: groups * stride, with: 0)
        wideStart.grow(to: groups * Self.wideStride, with: 0)
        wideFrom.grow(to: groups * k, with: 0)
        batchStart.grow(to: groups + 1, with: 0)
        var pass = JointColoringPass(
            list: ib.jointList.view, starts: ib.groupJointStart.view, joints: joints, metas: metas,
            bits: bodyColors.mutableView, colorOf: colorOf.mutableView, kindAt: kindAt.mutableView, order: order.mutableView,
            colorStart: colorStart.mutableView, inLanes: inLanes.mutableView, wideStart: wideStart.mutableView,
            wideFrom: wideFrom.mutableView, batchStart: batchStart.mutableView, wide: MutableView(),
            lanes: !WideJoint.lanesOff.load(ordering: .relaxed))
        // (Groups a few at a time: most hold a few dozen joints.)
        let parallel = workers > 1 && groups > 1 && total >= Self.parallelFrom
        func run(_ pass: JointColoringPass) {
            if parallel { Parallel.forChunks(workers: workers, count: groups, chunkSize: 4, pass) } else { pass.run(0..<groups, part: 0) }
        }
        run(pass)
        // Each group's first batch, in group order.
        let starts = batchStart.mutableView
        var at: Int32 = 0
        for g in 0..<groups { let n = starts[g]; starts[g] = at; at += n }
        starts[groups] = at
        wideCount = Int(at)
        wide.grow(to: wideCount, with: WideJoint())
        pass.writesBatches = true
        pass.wide = wide.mutableView
        run(pass)
    }

    /// The fewest joints whose colouring is shared among the workers.
    static let parallelFrom = 512

    /// Group `g`'s joint batches of colour `q`, and the joints of that colour solved one by one
    /// (positions in `order`).
    @inline(__always)
    static func colour(_ q: Int, group g: Int, wideStart: View<Int32>, wideFrom: View<Int32>,
                       colorStart: View<Int32>) -> (batches: Range<Int>, single: Range<Int>) {
        let k = ColoredBatches.colorCount
        let w = g * wideStride + q
        return (Int(wideStart[w])..<Int(wideStart[w + 1]), Int(colorStart[g * stride + q])..<Int(wideFrom[g * k + q]))
    }
}

/// `ColoredJoints.color`'s passes over solve groups `r`: colouring each group (its colours,
/// solve order and batch count), or, once every group's first batch is placed
/// (`writesBatches`), writing its batches. A group writes only its own joints' entries, its
/// own offsets and batches, and the colour bits of its own dynamic bodies.
struct JointColoringPass: RangeTask, @unchecked Sendable {
    let list: View<Int32>
    let starts: View<Int32>
    let joints: View<JointRecord>
    let metas: View<BodyMeta>
    let bits: MutableView<UInt32>
    let colorOf: MutableView<UInt8>
    let kindAt: MutableView<UInt8>
    let order: MutableView<Int32>
    let colorStart: MutableView<Int32>
    let inLanes: MutableView<Bool>
    let wideStart: MutableView<Int32>
    let wideFrom: MutableView<Int32>
    /// Per group: its batch count (written by the colouring), then its first batch.
    let batchStart: MutableView<Int32>
    var wide: MutableView<WideJoint>
    /// Whether lanes take joints at all (`WideJoint.lanesOff` down).
    let lanes: Bool
    var writesBatches = false

    /// The kinds of joints lanes take (`WideJoint.kind`).
    static let kinds = 3

    func run(_ r: Range<Int>, part: Int) {
        if writesBatches {
            for g in r { writeBatches(g) }
            return
        }
        let k = ColoredBatches.colorCount, kinds = Self.kinds
        // Per colour: the joints counted, then the cursor of those solved one by one; per colour
        // and kind of joint in lanes, their count and cursor.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: (1 + 2 * kinds) * (k + 1)) { scratch in
            let cursor = UnsafeMutableBufferPointer(rebasing: scratch[0...k])
            let kindCount = UnsafeMutableBufferPointer(rebasing: scratch[(k + 1)..<((1 + kinds) * (k + 1))])
            let kindCursor = UnsafeMutableBufferPointer(rebasing: scratch[((1 + kinds) * (k + 1))..<((1 + 2 * kinds) * (k + 1))])
            for g in r { color(g, cursor: cursor, kindCount: kindCount, kindCursor: kindCursor) }
        }
    }

    private func color(_ g: Int, cursor: UnsafeMutableBufferPointer<Int32>, kindCount: UnsafeMutableBufferPointer<Int32>,
                       kindCursor: UnsafeMutableBufferPointer<Int32>) {
        let k = ColoredBatches.colorCount, kinds = Self.kinds, stride = ColoredJoints.stride
        let all: UInt32 = (1 << UInt32(k)) - 1
        let j0 = Int(starts[g]), j1 = Int(starts[g + 1]), base = g * stride
        guard j1 - j0 >= ColoredJoints.coloredFrom else {
            // No colours: every joint in the one-by-one range, in island order.
            for q in 0...k { colorStart[base + q] = Int32(j0) }
            colorStart[base + k + 1] = Int32(j1)
            for t in j0..<j1 { order[t] = list[t]; inLanes[t] = false }
            for q in 0..<k { wideFrom[g * k + q] = Int32(j0) }
            batchStart[g] = 0
            return
        }
        for q in 0...k { cursor[q] = 0 }
        for x in 0..<(kinds * (k + 1)) { kindCount[x] = 0 }
        for t in j0..<j1 {
            let j = joints[Int(list[t])]
            let a = Int(j.bodyA), b = Int(j.bodyB)
            let da = metas[a].type == .dynamic, db = metas[b].type == .dynamic
            let used = (da ? bits[a] : 0) | (db ? bits[b] : 0)
            let free = ~used & all
            let c = free == 0 ? k : free.trailingZeroBitCount
            if c < k {
                if da { bits[a] |= 1 << UInt32(c) }
                if db { bits[b] |= 1 << UInt32(c) }
            }
            colorOf[t] = UInt8(c)
            cursor[c] += 1
            inLanes[t] = lanes && c < k && WideJoint.takes(j.def.type)
            if inLanes[t] { kindCount[c * kinds + WideJoint.kind(j.def.type)] += 1 }
        }
        // Offsets, then a stable scatter by colour (within a colour, the joints in lanes last,
        // kind by kind); the bodies' bits cleared for the next group. (Only bits that are set
        // are written: those of this group's dynamic bodies. A static or kinematic body, whose
        // bits stay clear, may have joints in groups coloured at the same time.)
        var at = Int32(j0)
        var batches: Int32 = 0
        for q in 0...k {
            colorStart[base + q] = at
            let n = cursor[q]
            cursor[q] = at
            var laneAt = at + n
            for x in 0..<kinds { laneAt -= kindCount[q * kinds + x] }
            if q < k { wideFrom[g * k + q] = laneAt }
            for x in 0..<kinds {
                kindCursor[q * kinds + x] = laneAt
                laneAt += kindCount[q * kinds + x]
                batches += (kindCount[q * kinds + x] + 3) / 4
            }
            at += n
        }
        colorStart[base + k + 1] = Int32(j1)
        for t in j0..<j1 {
            let c = Int(colorOf[t])
            let j = joints[Int(list[t])]
            if inLanes[t] {
                let kind = WideJoint.kind(j.def.type)
                let x = c * kinds + kind
                order[Int(kindCursor[x])] = list[t]
                kindAt[Int(kindCursor[x])] = UInt8(kind)
                kindCursor[x] += 1
            } else {
                order[Int(cursor[c])] = list[t]
                cursor[c] += 1
            }
            if bits[Int(j.bodyA)] != 0 { bits[Int(j.bodyA)] = 0 }
            if bits[Int(j.bodyB)] != 0 { bits[Int(j.bodyB)] = 0 }
        }
        batchStart[g] = batches
    }

    /// Group `g`'s batches from its first one on: each colour's joints in lanes, four to a
    /// batch, kind by kind (the last batch of each kind padded).
    private func writeBatches(_ g: Int) {
        let k = ColoredBatches.colorCount, stride = ColoredJoints.stride, w = g * ColoredJoints.wideStride
        var at = Int(batchStart[g])
        for q in 0..<k {
            wideStart[w + q] = Int32(at)
            var t = Int(wideFrom[g * k + q])
            let stop = Int(colorStart[g * stride + q + 1])
            while t < stop {
                let kind = kindAt[t]
                var batch = WideJoint()
                var l = 0
                while l < 4 && t < stop && kindAt[t] == kind {
                    batch.joint[l] = order[t]
                    l += 1; t += 1
                }
                wide[at] = batch
                at += 1
            }
        }
        wideStart[w + k] = Int32(at)
        assert(at == Int(batchStart[g + 1]), "ColoredJoints: group \(g) wrote \(at - Int(batchStart[g])) batches, counted \(batchStart[g + 1] - batchStart[g])")
    }
}

extension World {
    /// The tight bounding box of shape `s` placed by `xf`.
    func shapeAABB(_ s: Int, _ xf: Transform) -> AABB {
        PairContext.shapeAABB(shapes[s], xf, pool.vertices.view)
    }

    /// Updates moving boxes, rebuilds the moving grid and writes the sorted pair keys to
    /// `broadPhase.pairs`.
    func findPairs(_ ctx: StepContext) {
        if broadPhase.staticDirty { rebuildStaticGrid() }
        // The broad phase in place (`broadPhase` is exclusivity-unchecked and nothing below
        // reads it through `self`): moving it out and back, or copying it, would retain and
        // release every buffer of the struct each step.
        findPairs(ctx, &broadPhase)
    }

    /// Up to this many moving shapes, every one counts as large (no moving grid).
    static let fewMovingShapes = 8

    /// A pass is incremental while at most 1 / this of the moving shapes moved out of their
    /// fat boxes: only they query, instead of every shape. The same on several workers, where
    /// the full pass's queries split over the workers and the incremental pass merges its
    /// pairs on one thread: up to half moved out, the incremental pass still does less in all
    /// (junkyard at two workers, between a quarter and half of its shapes moving out: broad phase
    /// 0.98 → 0.77 ms, `ab` ×1.06, against a quarter; `ab` on one worker: dashboard 5 000
    /// +4 %, pile and mix 4 000 +1–2 % against a quarter).
    static let incrementalShare = 2

    /// From this many contacts, the narrow phase and the batch preparation ask the processor
    /// for each contact's data and bodies a few contacts ahead (`View.prefetch`,
    /// `dk_prefetch_batch`): their data (120 bytes a contact, 192 a body) is then more than a
    /// core's 512 KB cache holds, and a world whose contacts come and go reads it in no order
    /// the processor foresees, so asking ahead pays. Below, it stays in the cache and asking
    /// only costs instructions. Each
    /// world reads its own `StepOptions.prefetchingContacts`, which starts here (tests lower it).
    static let defaultPrefetchingContacts = 4096

    /// Steps of its present motion a moving shape's new fat box reaches ahead, in a world of
    /// at most `fewMovingShapes` moving shapes (others: none, the fat margin only). A body in
    /// flight moves farther in one step than the fat margin, so with the margin alone its box
    /// would leave its fat box nearly every step and its pairs be found afresh each time (a
    /// menu or an alert sliding in); reaching this far ahead, only about one step in
    /// `fewShapesLead` does. A few shapes make few extra pairs.
    static let fewShapesLead: Float = 3

    private func findPairs(_ ctx: StepContext, _ bp: inout BroadPhase) {
        let dt = ctx.dt
        let half = 0.5 * speculativeDistance
        let maxMargin = half + 2 * settings.maxLinearSpeed * dt
        let shapeCount = Int(shapeSlots.count)
        bp.pairsChanged = false
        // Moving shapes added or released since the last pass join or leave the lists, or, when
        // they cannot (`takeShapeChanges`), make the pass rebuild them.
        // (The lists of changes are opened only when there are some: a small world's pass
        // reads the flag alone.)
        let shapesChanged = bp.shapesChanged
        var tookShapes = false
        if shapesChanged {
            bp.shapesChanged = false
            if !bp.dirty {
                tookShapes = takeShapeChanges(&bp, ctx)
                if !tookShapes { bp.dirty = true }
            }
            if bp.dirty { bp.shapeChanges.removeAllKeepingCapacity(); bp.addedShapes.removeAllKeepingCapacity() }
        }
        // The moving shapes in slot order, written through views (the lists only grow).
        // Only a structural change (`BroadPhase.dirty`: a body type or collision group changed,
        // static geometry, a restored snapshot, or shapes the pass could not take in) changes
        // it here.
        if bp.dirty {
            if bp.moving.count < shapeCount { bp.moving.append(contentsOf: repeatElement(0, count: shapeCount - bp.moving.count)) }
            if bp.enlarged.count < shapeCount { bp.enlarged.append(contentsOf: repeatElement(0, count: shapeCount - bp.enlarged.count)) }
            var count = 0
            let sh = ctx.shapes, mv = bp.moving.mutableView, en = bp.enlarged.mutableView
            for s in 0..<shapeCount {
                if sh[s].alive && !sh[s].isStatic { mv[count] = Int32(s); count += 1 } else { en[s] = 0 }
            }
            bp.moving.truncate(to: count)
            bp.findReach(shapes: sh, metas: ctx.metas.readOnly, count: shapeCount)
        }
        assert(bp.moving.elementsEqual((0..<shapeCount).lazy.filter { self.shapes[$0].alive && !self.shapes[$0].isStatic }.map { Int32($0) }),
               "the moving shapes changed without BroadPhase.dirty")
        let movingCount = bp.moving.count
        // A structural change: the next pass is a full one, which sorts every moving shape
        // into `active` or the sleeping grid afresh; until then all are active. (While the
        // sleeping grid is empty, `active` stands for every moving shape and is not read, nor
        // written: a small world's structural change touches none of the sleeping lists.)
        if bp.dirty {
            if bp.sleepGridCount > 0 {
                for s in bp.activity.sleepList.view { bp.activity.inSleepGrid[Int(s)] = 0 }
                bp.activity.sleepList.removeAllKeepingCapacity()
                bp.sleepGridCount = 0
            }
            if bp.requeryPending {
                bp.activity.requery.removeAllKeepingCapacity()
                bp.requeryPending = false
            }
        }
        // Woken bodies' shapes leave the sleeping grid for `active` (kept in slot order).
        if bp.requeryPending && bp.sleepGridCount > 0 {
            let inSleep = bp.activity.inSleepGrid.mutableView
            var appended = false
            for b in bp.activity.requery.view where metas[Int(b)].alive && metas[Int(b)].awake {
                forEachShape(of: Int(b)) { s in
                    if s < inSleep.count && inSleep[s] != 0 { inSleep[s] = 0; bp.activity.active.append(Int32(s)); appended = true }
                }
            }
            if appended { sortKeys(bp.activity.active.mutableView) }
        }
        // Boxes of awake moving shapes, in parallel (each worker its own shapes). A shape whose
        // box left its fat box gets a new fat box and is flagged "enlarged"; `escaped` is raised.
        // (Every step, so the buffers only read are opened mutably, in place: a read-only view of
        // a class property retains and releases its array; these arrays are never shared, so
        // no copy is made.)
        let workers = ctx.workers
        let fatMargin = self.fatMargin
        bp.boxEscaped.clear()
        let lead: Float = movingCount <= Self.fewMovingShapes ? Self.fewShapesLead : 0
        // (`active` is every moving shape while the sleeping grid is empty: a small world reads
        // the list it reads anyway.)
        let boxList = bp.sleepGridCount == 0 ? bp.moving.view : bp.activity.active.view
        let v = BoxUpdate(ctx: ctx, enlarged: bp.enlarged.mutableView, escaped: bp.boxEscaped, moving: boxList,
                          half: half, maxMargin: maxMargin, fatMargin: fatMargin, lead: lead)
        Parallel.forRanges(workers: workers, count: boxList.count, minPerWorker: 1024, v)
        // Woken bodies look for their partners again.
        let requeried = bp.requeryPending
        if bp.requeryPending {
            bp.requeryPending = false
            let en = bp.enlarged.mutableView
            for b in bp.activity.requery.view where metas[Int(b)].alive && metas[Int(b)].awake {
                forEachShape(of: Int(b)) { s in if !shapes[s].isStatic && s < en.count { en[s] = 1; bp.boxEscaped.set() } }
            }
            bp.activity.requery.removeAllKeepingCapacity()
        }
        // New shapes look for partners (their fat boxes were set where they were made).
        if tookShapes && !bp.addedShapes.isEmpty {
            let en = bp.enlarged.mutableView
            for s in bp.addedShapes.view { en[Int(s)] = 1 }
            bp.boxEscaped.set()
            bp.addedShapes.removeAllKeepingCapacity()
        }
        let n = bp.moving.count
        // Nothing moved out of its fat box and nothing structural changed: last step's pairs
        // are still every pair, and the contacts stand as they are.
        let dirty = bp.dirty || movingCount != bp.lastMovingCount
        if !dirty && !shapesChanged && !bp.boxEscaped.isSet {
            counters.pairsReusedSteps += 1
            return
        }
        // No moving shape can have a partner (a sheet whose pieces collide with nothing): there
        // are no pairs, and the lists stand as the last full pass sorted them (every small
        // moving shape a loner, nothing structural since). Only the fat boxes moved, which the
        // queries' loner grid follows. (Not with a sleeping grid or woken bodies, which move
        // shapes between the lists.)
        if !dirty && !shapesChanged && !requeried && bp.sleepGridCount == 0 && bp.reachLimited && bp.seekers.isEmpty {
            assert(bp.pairs.isEmpty && bp.socialSmall.isEmpty, "a world where no shape can have a partner has pairs")
            bp.lonersVersion &+= 1
            counters.partnerlessPasses += 1
            return
        }
        bp.pairsChanged = true
        bp.lastMovingCount = movingCount
        bp.pairs.removeAllKeepingCapacity()
        guard n > 0 else { bp.dirty = false; return }
        // A few moving shapes are all "large": they test each other box against box, and no
        // moving grid is built (for a few shapes, building it would cost more than the tests).
        let allLarge = n <= Self.fewMovingShapes
        // The enlarged shapes, in slot order: only the incremental pass reads them, and it
        // needs at least four moving shapes (here one moved out, a quarter of fewer).
        let mayIncrement = !dirty && n >= 4
        if mayIncrement {
            bp.enlargedList.removeAllKeepingCapacity()
            let en = bp.enlarged.view, mv = boxList
            for k in mv.indices where en[Int(mv[k])] != 0 { bp.enlargedList.append(mv[k]) }
        }
        // A few shapes moved out: only they look for partners (every pair they are in), and
        // the contacts of the others stand. Many moved, or the grid's large/small split no
        // longer fits: every shape looks again. Both find the same pairs (every pair of
        // overlapping fat boxes the filter allows, under the same keys), so the choice is
        // only about speed (`incrementalShare`).
        var incremental = mayIncrement && bp.enlargedList.count * Self.incrementalShare <= n && bp.cellSize > 0
        if incremental {
            let largeLimit = largeShapeCells * bp.cellSize
            let bx = ctx.fatBoxes.readOnly, large = bp.isLarge.view, el = bp.enlargedList.view
            for k in el.indices {
                let s = Int(el[k])
                let e = bx[s].upper - bx[s].lower
                if (allLarge || max(e.x, e.y) > largeLimit) != (large[s] != 0) { incremental = false; break }
            }
        }
        bp.dirty = false
        // All large and nothing structural since the last pass: the moving shapes are the ones
        // the lists were last sorted from (only a structural change, which makes the pass
        // dirty, changes them), all large whatever the cell size, so the lists stand and the
        // moving grid stays empty.
        let listsStand = allLarge && !dirty
        if !listsStand { bp.hasKeptIndex = false }
        if incremental {
            counters.incrementalPasses += 1
        } else if !listsStand {
            // Mean size (serial, in slot order: the cell size never depends on the worker count).
            var sizeSum: Float = 0
            let bx = ctx.fatBoxes.readOnly, mv = bp.moving.view
            for k in mv.indices {
                let e = bx[Int(mv[k])].upper - bx[Int(mv[k])].lower
                sizeSum += max(e.x, e.y)
            }
            // Cell size ≈ 1.5 × the mean moving shape; shapes over 8 cells are "large".
            bp.cellSize = max(1, 1.5 * sizeSum / Float(n))
            bp.movingLarge.removeAllKeepingCapacity()
            let largeLimit = largeShapeCells * bp.cellSize
            // Small shapes written through a view (the list only grows); large ones are rare.
            bp.movingSmall.grow(to: n, with: 0)
            var smallCount = 0
            let large = bp.isLarge.mutableView, sm = bp.movingSmall.mutableView
            for k in mv.indices {
                let s = mv[k]
                let e = bx[Int(s)].upper - bx[Int(s)].lower
                if allLarge || max(e.x, e.y) > largeLimit {
                    large[Int(s)] = 1; bp.movingLarge.append(s)
                } else {
                    large[Int(s)] = 0; sm[smallCount] = s; smallCount += 1
                }
            }
            bp.movingSmall.truncate(to: smallCount)
        }
        // The grid of the small moving shapes' fat boxes. (A view taken first: reading
        // bp.movingSmall while bp.grid is mutated would otherwise make the compiler
        // materialise a temporary array every step, and a local reference to the column would
        // be a retain and a release.)
        // Entry masks only when there is more than one collision group to tell apart (in a
        // world of one group they pass everything and only cost time).
        let liveGroups = Int(groups.slots.count) - groups.slots.freeSlots.count
        let filter = liveGroups > 1 ? CollisionFilter(shapes: ctx.shapes, metas: ctx.metas.readOnly) : nil
        if !listsStand {
            // Shapes of sleeping bodies go to the sleeping grid: all of them in a pass where every
            // shape looks, else once enough fell asleep since it was built.
            sortActive(&bp, ctx, everything: !incremental, filter: filter)
            var small = bp.sleepGridCount == 0 ? bp.movingSmall.view : bp.activity.activeSmall.view
            // Shapes that can have no moving partner stay out of the grid: only the search for
            // moving partners reads it, and no such search can find them.
            if bp.reachLimited || !bp.loners.isEmpty { small = bp.setLoners(from: small) }
            bp.grid.build(ids: small, boxes: ctx.fatBoxes.readOnly, cellSize: bp.cellSize, workers: workers, pipeline: ctx.pipeline,
                          minParallel: options.parallelMin(1024), filter: filter)
        }
        assert(!listsStand || (bp.movingSmall.isEmpty && bp.grid.nx == 0 && bp.movingLarge.elementsEqual(bp.moving)),
               "a world of few moving shapes kept lists that are not all of them, large")
        let tEmit = options.isProfiling ? StepProfile.now() : 0
        defer { if options.isProfiling { profile.pairEmission += StepProfile.now() - tEmit } }
        // Pairs: chunks of emitters claimed by the workers, each chunk into its own buffer.
        // (Shapes that can have no partner at all look for none: `seekers` leaves them out.)
        let emitters = incremental ? bp.enlargedList.view : bp.reachLimited ? bp.seekers.view : bp.moving.view
        let count = emitters.count
        let chunkSize = 256
        let chunks = (count + chunkSize - 1) / chunkSize
        while bp.workerPairs.count < chunks { bp.workerPairs.append([]) }
        let masks = filter != nil
        if !(bp.hasKeptIndex && bp.keptIndexMasks == masks) {
            bp.keptIndex = bp.index(masks: masks)
            bp.hasKeptIndex = allLarge; bp.keptIndexMasks = masks
        }
        assert(bp.keptIndex.isSame(as: bp.index(masks: masks)), "the kept pair-finder index is not the broad phase's")
        let pairs = PairContext(world: self, shapes: ctx.shapes, metas: ctx.metas.readOnly, boxes: ctx.fatBoxes.readOnly,
                              isLarge: bp.isLarge.view, enlarged: bp.enlarged.view, filters: bp.filters.view,
                              reach: bp.reachLimited ? bp.reach.view : nil, index: bp.keptIndex)
        let task = PairEmission(pairs: pairs, emitters: emitters, incremental: incremental,
                                out: ChunkBuffers(bp.workerPairs.mutableView))
        Parallel.forChunks(workers: workers, count: count, chunkSize: chunkSize, task)
        if !incremental {
            // Emitters in slot order, each with its partners sorted: the keys are sorted.
            for c in 0..<chunks { bp.pairs.append(contentsOf: bp.workerPairs[c]) }
        } else {
            mergeFreshPairs(&bp, chunks: chunks, workers: workers)
        }
        // Every shape, or the enlarged ones, found the partners they had (a body in flight
        // with no partner; a body jiggling out of its fat box keeps its neighbours): the
        // contacts stand, and the merge is skipped.
        if bp.pairs.count == contacts.count {
            let keys = bp.pairs.view, old = contacts.view
            var same = true
            for k in keys.indices where keys[k] != old[k].key || old[k].shapeA < 0 { same = false; break }
            if same { bp.pairsChanged = false }
        }
    }

    /// Takes the moving shapes added and released since the last pass (`shapeChanges`) into
    /// the moving lists, without reading every shape: each list (kept in slot order) loses the
    /// changed slots and gets back those that hold a moving shape now (a released slot may hold
    /// a new one). The new shapes' bodies are awake, so they join `active` and look for
    /// partners in this pass (`addedShapes`); a released shape leaves the sleeping grid.
    /// Lists of 4-byte slots are merged, so the cost is a copy of them at worst, where
    /// rebuilding them reads every shape's record and the pass that follows has every shape
    /// look. False when the pass must rebuild the lists instead (then left for the rebuild to
    /// overwrite): no many-shape pass yet; a world of few moving shapes before or after
    /// (`fewMovingShapes`: their lists stand as they are); a new shape whose body sleeps, or
    /// whose reach `findReach` must find again (`reachOfAdded`); or more new shapes than the
    /// incremental share of the moving ones, for which the cell size should be chosen afresh.
    private func takeShapeChanges(_ bp: inout BroadPhase, _ ctx: StepContext) -> Bool {
        let sh = ctx.shapes, me = ctx.metas.readOnly
        let oldCount = bp.moving.count
        guard bp.cellSize > 0, oldCount == bp.lastMovingCount, oldCount > Self.fewMovingShapes else { return false }
        // The changed slots, sorted, each once.
        let changes = bp.shapeChanges
        sortKeys(changes.mutableView)
        do {
            let cv = changes.mutableView
            var w = 0
            for k in cv.indices where w == 0 || cv[k] != cv[w - 1] { cv[w] = cv[k]; w += 1 }
            changes.truncate(to: w)
        }
        let shapeCount = Int(shapeSlots.count)
        let added = bp.addedShapes
        added.removeAllKeepingCapacity()
        for s in changes.view where Int(s) < shapeCount && sh[Int(s)].alive && !sh[Int(s)].isStatic {
            let b = Int(sh[Int(s)].body)
            guard me[b].awake, let r = bp.reachOfAdded(Int(s), shapes: sh, metas: me) else { return false }
            bp.reach[Int(s)] = r
            added.append(s)
        }
        guard added.count * Self.incrementalShare <= oldCount else { return false }
        let removed = changes.view, fresh = added.view
        bp.moving.replaceSlots(removing: removed, adding: fresh) { _ in true }
        guard bp.moving.count > Self.fewMovingShapes else { return false }
        // Per-slot marks: a changed slot is in no grid, enlarged only if a new shape is there.
        if bp.enlarged.count < shapeCount { bp.enlarged.grow(to: shapeCount, with: 0) }
        let en = bp.enlarged.mutableView, inSleep = bp.activity.inSleepGrid.mutableView
        for s in removed where Int(s) < shapeCount { en[Int(s)] = 0; inSleep[Int(s)] = 0 }
        // Small or large by the cell size of the last full pass.
        let largeLimit = largeShapeCells * bp.cellSize
        let bx = ctx.fatBoxes.readOnly, large = bp.isLarge.mutableView
        for s in fresh {
            let e = bx[Int(s)].upper - bx[Int(s)].lower
            large[Int(s)] = max(e.x, e.y) > largeLimit ? 1 : 0
        }
        let isLarge = bp.isLarge.view
        bp.movingSmall.replaceSlots(removing: removed, adding: fresh) { isLarge[Int($0)] == 0 }
        bp.movingLarge.replaceSlots(removing: removed, adding: fresh) { isLarge[Int($0)] != 0 }
        if bp.sleepGridCount > 0 { bp.activity.active.replaceSlots(removing: removed, adding: fresh) { _ in true } }
        if bp.reachLimited {
            let rv = bp.reach.view
            bp.seekers.replaceSlots(removing: removed, adding: fresh) { rv[Int($0)] != 0 }
        }
        changes.removeAllKeepingCapacity()
        counters.shapeChangesTaken += 1
        bp.lastMovingCount = bp.moving.count
        bp.hasKeptIndex = false
        assert(listsFollowMoving(bp), "the moving lists do not follow the moving shapes after shapes were added or released")
        return true
    }

    /// Whether the lists a pass keeps are what `moving` gives: the small and large ones by
    /// `isLarge`, `active` its shapes outside the sleeping grid, `seekers` those with reach.
    private func listsFollowMoving(_ bp: BroadPhase) -> Bool {
        let mv = bp.moving.view, large = bp.isLarge.view, inSleep = bp.activity.inSleepGrid.view, rv = bp.reach.view
        guard bp.movingSmall.elementsEqual(mv.lazy.filter { large[Int($0)] == 0 }),
              bp.movingLarge.elementsEqual(mv.lazy.filter { large[Int($0)] != 0 }) else { return false }
        if bp.sleepGridCount > 0 && !bp.activity.active.elementsEqual(mv.lazy.filter { inSleep[Int($0)] == 0 }) { return false }
        if bp.reachLimited && !bp.seekers.elementsEqual(mv.lazy.filter { rv[Int($0)] != 0 }) { return false }
        return true
    }

    /// Makes `activeSmall` the small shapes of `active` (while the sleeping grid has shapes;
    /// else they are `movingSmall`) and, when `everything` (a pass in which
    /// every shape looks, after `movingSmall` was sorted out) or when the shapes of sleeping
    /// bodies in `active` reach a quarter of the sleeping grid's (at least
    /// `sleepGridMinimum`), moves them into a new sleeping grid.
    private func sortActive(_ bp: inout BroadPhase, _ ctx: StepContext, everything: Bool, filter: CollisionFilter?) {
        let me = ctx.metas.readOnly, sh = ctx.shapes, large = bp.isLarge.view
        @inline(__always) func sleeps(_ s: Int32) -> Bool { !me[Int(sh[Int(s)].body)].awake }
        // (With the sleeping grid empty, every moving shape is active; `active` is written out
        // only when the grid gets shapes.)
        let wasEmpty = bp.sleepGridCount == 0
        let activeNow = wasEmpty ? bp.moving.view : bp.activity.active.view
        var rebuild = everything
        if !everything {
            var pending = 0
            for s in activeNow where large[Int(s)] == 0 && sleeps(s) { pending += 1 }
            rebuild = pending >= max(Self.sleepGridMinimum, bp.activity.sleepList.count / 4)
        }
        if rebuild {
            // The new sleeping list: still-valid members and the small sleeping shapes of
            // `active` (or, from scratch, of every moving shape), in slot order.
            let inSleep = bp.activity.inSleepGrid.mutableView
            let source = everything ? bp.moving.view : activeNow
            bp.activity.activeSmall.removeAllKeepingCapacity()  // (scratch: the newly sleeping shapes)
            for s in source where large[Int(s)] == 0 && sleeps(s) && inSleep[Int(s)] == 0 { bp.activity.activeSmall.append(s) }
            // No small shape sleeps and none did: the sleeping grid stays empty (and `active`
            // every moving shape).
            if everything && bp.activity.activeSmall.isEmpty && bp.activity.sleepList.isEmpty { return }
            if everything {
                for s in bp.activity.sleepList.view { inSleep[Int(s)] = 0 }
                bp.activity.sleepList.removeAllKeepingCapacity()
            }
            // The still-valid members and the new ones (both in slot order) merged into
            // `freshShapes`, which then trades places with `sleepList`.
            let merged = bp.activity.freshShapes
            merged.removeAllKeepingCapacity()
            let old = bp.activity.sleepList.view, add = bp.activity.activeSmall.view
            var i = 0, j = 0
            while i < old.count || j < add.count {
                if j >= add.count || (i < old.count && old[i] < add[j]) {
                    if inSleep[Int(old[i])] != 0 { merged.append(old[i]) }
                    i += 1
                } else {
                    // (A shape whose body woke and fell asleep again since the build is in
                    // both lists: listed once.)
                    if i < old.count && old[i] == add[j] { i += 1 }
                    merged.append(add[j]); inSleep[Int(add[j])] = 1; j += 1
                }
            }
            bp.activity.sleepList.swapStorage(with: merged)
            assert(zip(bp.activity.sleepList.view, bp.activity.sleepList.view.dropFirst()).allSatisfy { $0 < $1 },
                   "the sleeping grid's shapes are not each listed once, in slot order")
            bp.sleepGridCount = bp.activity.sleepList.count
            bp.activity.sleepGrid.build(ids: bp.activity.sleepList.view, boxes: ctx.fatBoxes.readOnly, cellSize: bp.cellSize, filter: filter)
            bp.activity.sleepGridMasks = filter != nil
            // `active`: what is not in the sleeping grid.
            let act = bp.activity.active
            if everything || wasEmpty { act.assign(from: bp.moving.view) }
            var w = 0
            let av = act.mutableView
            for k in av.indices where inSleep[Int(av[k])] == 0 { av[w] = av[k]; w += 1 }
            act.truncate(to: w)
            bp.hasKeptIndex = false
        }
        // (While the sleeping grid is empty the small active shapes are `movingSmall`.)
        guard bp.sleepGridCount > 0 else { return }
        bp.activity.activeSmall.removeAllKeepingCapacity()
        for s in bp.activity.active.view where large[Int(s)] == 0 { bp.activity.activeSmall.append(s) }
    }

    /// The least number of newly sleeping shapes that makes a pass rebuild the sleeping grid.
    static let sleepGridMinimum = 256

    /// The incremental pass's pairs: the enlarged shapes' pairs, sorted, merged with the
    /// standing pairs (last step's contacts with no enlarged shape), in key ranges shared out
    /// among the workers (`FreshPairMerge`).
    private func mergeFreshPairs(_ bp: inout BroadPhase, chunks: Int, workers: Int) {
        bp.freshPairs.removeAllKeepingCapacity()
        for c in 0..<chunks { bp.freshPairs.append(contentsOf: bp.workerPairs[c]) }
        FreshPairMerge.merge(old: contacts.view, fresh: bp.freshPairs.view, enlarged: bp.enlarged.view,
                             scratch: bp.freshScratch, into: bp.pairs, workers: workers)
    }
}

/// The buffers `FreshPairMerge` works in (kept by the broad phase from pass to pass).
struct FreshPairScratch {
    /// Each part's share of the fresh pairs, sorted.
    let sorted = Column<UInt64>()
    /// Per part: how many fresh and standing pairs its key range holds, then its offsets.
    let counts = Column<Int>()
    /// Where each part's key range starts; the sample of fresh keys the ranges are cut from.
    let bounds = Column<UInt64>()
    let sample = Column<UInt64>()
}

/// The incremental pass's merge of the fresh pairs (unsorted, as the chunks found them) with
/// the standing ones, in `parts` key ranges: part w takes the keys from `bounds[w]` up to
/// `bounds[w + 1]` (the last part every key from its bound up). First (`writing` false) each
/// part counts its range's fresh pairs and standing contacts (alive, no enlarged shape) into
/// `counts[2w]` and `counts[2w + 1]`, which the caller turns into offsets; then each part
/// copies its fresh pairs into `sorted` at its offset, sorts them and merges them with its
/// standing contacts into `out` at its offset, and leaves where its output ends in
/// `counts[2w + 1]`. The output, sorted, is the same for any number of parts.
struct FreshPairMerge: RangeTask, @unchecked Sendable {
    /// Writes to `pairs` (emptied first) the keys of `fresh` (unsorted, none twice) and of
    /// the standing contacts of `old` (sorted by key; alive, neither shape `enlarged`), sorted:
    /// on one part, or on `workers` parts when there are `parallelFrom` fresh keys or more.
    static func merge(old: View<Contact>, fresh: View<UInt64>, enlarged: View<UInt8>, scratch: FreshPairScratch,
                      into pairs: Column<UInt64>, workers: Int) {
        pairs.removeAllKeepingCapacity()
        let parts = workers > 1 && fresh.count >= parallelFrom ? workers : 1
        // The parts' key ranges, cut where the work is shared evenly: a fresh pair (copied and
        // sorted) costs about `freshWeight` standing contacts (read and copied), and the fresh
        // pairs gather where the shapes move (a pusher's path, a falling crowd), so the cuts
        // are chosen among an even sample of them (at most 256 keys, sorted), each standing
        // for `fresh.count / sample.count` pairs, with the contacts below it counted exactly.
        let bounds = scratch.bounds
        bounds.grow(to: parts + 1, with: 0)
        bounds[0] = 0
        if parts > 1 {
            let sample = scratch.sample
            sample.removeAllKeepingCapacity()
            let stride = max(1, fresh.count / 256)
            for k in Swift.stride(from: 0, to: fresh.count, by: stride) { sample.append(fresh[k]) }
            sortKeys(sample.mutableView)
            let sv = sample.view
            let perSample = Double(fresh.count) / Double(sv.count)
            @inline(__always) func work(below q: Int) -> Double {
                Double(q) * perSample * freshWeight + Double(old.firstContact(atLeast: sv[q]))
            }
            let total = Double(fresh.count) * freshWeight + Double(old.count)
            var from = 0
            for w in 1..<parts {
                // The first sampled key below which the work reaches w parts' share.
                let share = total * Double(w) / Double(parts)
                var lo = from, hi = sv.count - 1
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if work(below: mid) < share { lo = mid + 1 } else { hi = mid }
                }
                bounds[w] = sv[lo]
                from = lo
            }
        }
        scratch.counts.grow(to: 2 * parts, with: 0)
        scratch.sorted.grow(to: fresh.count, with: 0)
        let counts = scratch.counts.mutableView
        var task = FreshPairMerge(old: old, fresh: fresh, enlarged: enlarged, bounds: bounds.view,
                                  sorted: scratch.sorted.mutableView, counts: counts, out: MutableView(),
                                  parts: parts, writing: false)
        // One part needs no offsets: it writes from 0 into room for every pair there may be.
        if parts == 1 {
            counts[0] = 0; counts[1] = 0
            pairs.grow(to: old.count + fresh.count, with: 0)
            task.out = pairs.mutableView
            task.writing = true
            task.run(0..<1, part: 0)
            pairs.truncate(to: counts[1])
            return
        }
        Parallel.forRanges(workers: parts, count: parts, minPerWorker: 1, task)
        // Each part's offsets into the sorted fresh pairs and into the output, in part order.
        var freshAt = 0, outAt = 0
        for w in 0..<parts {
            let f = counts[2 * w], s = counts[2 * w + 1]
            counts[2 * w] = freshAt; counts[2 * w + 1] = outAt
            freshAt += f; outAt += f + s
        }
        assert(freshAt == fresh.count, "FreshPairMerge: the parts' key ranges hold \(freshAt) of \(fresh.count) fresh pairs")
        pairs.grow(to: outAt, with: 0)
        task.out = pairs.mutableView
        task.writing = true
        Parallel.forRanges(workers: parts, count: parts, minPerWorker: 1, task)
    }

    let old: View<Contact>
    let fresh: View<UInt64>
    let enlarged: View<UInt8>
    let bounds: View<UInt64>
    let sorted: MutableView<UInt64>
    let counts: MutableView<Int>
    var out: MutableView<UInt64>
    let parts: Int
    var writing: Bool

    /// The fewest fresh pairs whose merge is shared among the workers.
    static let parallelFrom = 1024

    /// About how many standing contacts a fresh pair's share of the work is worth.
    static let freshWeight = 4.0

    func run(_ r: Range<Int>, part w: Int) {
        let low = bounds[w]
        let last = w == parts - 1
        let high: UInt64 = last ? .max : bounds[w + 1]
        let js = (w == 0 ? 0 : old.firstContact(atLeast: low))..<(last ? old.count : old.firstContact(atLeast: high))
        @inline(__always) func inRange(_ k: UInt64) -> Bool { k >= low && (last || k < high) }
        @inline(__always) func standing(_ c: Contact) -> Bool {
            // (An ended contact's pair is gone.)
            guard c.shapeA >= 0 else { return false }
            let a = Int(truncatingIfNeeded: c.key >> 32), b = Int(truncatingIfNeeded: c.key & 0xFFFF_FFFF)
            return enlarged[a] == 0 && enlarged[b] == 0
        }
        if !writing {
            var f = 0, s = 0
            // (Only on several parts: one part writes without counting first.)
            for k in fresh where inRange(k) { f += 1 }
            for j in js where standing(old[j]) { s += 1 }
            counts[2 * w] = f; counts[2 * w + 1] = s
            return
        }
        let freshAt = counts[2 * w]
        let nextFresh = w + 1 < parts ? counts[2 * w + 2] : fresh.count
        var n = freshAt
        for k in fresh where inRange(k) { sorted[n] = k; n += 1 }
        let mine = sorted.subview(freshAt..<nextFresh)
        sortKeys(mine)
        var i = 0, o = counts[2 * w + 1]
        for j in js {
            let c = old[j]
            guard standing(c) else { continue }
            let k = c.key
            while i < mine.count && mine[i] < k { out[o] = mine[i]; o += 1; i += 1 }
            out[o] = k; o += 1
        }
        while i < mine.count { out[o] = mine[i]; o += 1; i += 1 }
        // (Where the part's output ends: one part's caller keeps that much.)
        counts[2 * w + 1] = o
    }
}

/// Sorts pair keys (or shape slots) in place without allocating.
func sortKeys<Key: Comparable>(_ a: MutableView<Key>) { sortInPlace(a) { $0 } }

/// Sorts `a` in place by `key` without allocating (quicksort, median of three, insertion sort
/// below 16 elements; the smaller side recursed, so the depth stays logarithmic).
func sortInPlace<Element, Key: Comparable>(_ a: MutableView<Element>, by key: (Element) -> Key) {
    guard a.count > 1 else { return }
    sortInPlace(a, 0, a.count - 1, key)
}

private func sortInPlace<Element, Key: Comparable>(_ p: MutableView<Element>, _ lo0: Int, _ hi0: Int, _ key: (Element) -> Key) {
    var lo = lo0, hi = hi0
    @inline(__always) func swapAt(_ i: Int, _ j: Int) { let t = p[i]; p[i] = p[j]; p[j] = t }
    while hi - lo >= 16 {
        let mid = lo + (hi - lo) / 2
        if key(p[mid]) < key(p[lo]) { swapAt(mid, lo) }
        if key(p[hi]) < key(p[lo]) { swapAt(hi, lo) }
        if key(p[hi]) < key(p[mid]) { swapAt(hi, mid) }
        let pivot = key(p[mid])
        var i = lo, j = hi
        while i <= j {
            while key(p[i]) < pivot { i += 1 }
            while key(p[j]) > pivot { j -= 1 }
            if i <= j { swapAt(i, j); i += 1; j -= 1 }
        }
        if j - lo < hi - i { sortInPlace(p, lo, j, key); lo = i } else { sortInPlace(p, i, hi, key); hi = j }
    }
    if hi <= lo { return }
    for i in (lo + 1)...hi {
        let v = p[i]
        var j = i - 1
        while j >= lo && key(p[j]) > key(v) { p[j + 1] = p[j]; j -= 1 }
        p[j + 1] = v
    }
}

/// Pair emission for one chunk of moving shapes into the chunk's own buffer (a shape that can
/// have no partner, `BroadPhase.reach` 0, emits nothing).
struct PairEmission: RangeTask, @unchecked Sendable {
    let pairs: PairContext
    /// The shapes that look for partners: every moving shape, or only the enlarged ones.
    let emitters: View<Int32>
    let incremental: Bool
    let out: ChunkBuffers<UInt64>
    func run(_ r: Range<Int>, part c: Int) {
        self.out.withBuffer(c) { out in
            out.removeAllKeepingCapacity()
            if incremental {
                for k in r { self.pairs.emitAllPairs(of: Int(emitters[k]), into: &out) }
            } else {
                for k in r { self.pairs.emitPairs(for: Int(emitters[k]), into: &out) }
            }
        }
    }
}

/// Box update of moving shapes (each index of `moving` by one worker).
struct BoxUpdate: RangeTask, @unchecked Sendable {
    /// Reads the shapes, bodies and vertices; writes the boxes and fat boxes of its shapes.
    unowned(unsafe) var ctx: StepContext
    var enlarged: MutableView<UInt8>
    // (World-owned flags and counters are held unowned in the per-step task structs: a
    // strong reference costs a retain and a release per copy.)
    unowned(unsafe) var escaped: WorkFlag
    var moving: View<Int32>
    var half: Float
    var maxMargin: Float
    var fatMargin: Float
    /// Steps of its motion a new fat box reaches ahead (0: none; `World.fewShapesLead`).
    var lead: Float

    func run(_ r: Range<Int>, part: Int) { update(r) }

    func update(_ r: Range<Int>) {
        let shapes = ctx.shapes, metas = ctx.metas, states = ctx.states, sims = ctx.sims, dt = ctx.dt
        let vertices = ctx.vertices, boxes = ctx.boxes, fatBoxes = ctx.fatBoxes
        var out = false
        for k in r {
            let s = Int(moving[k])
            let b = Int(shapes[s].body)
            enlarged[s] = 0
            guard metas[b].awake else { continue }  // a sleeping shape keeps its box
            let v = states[b]
            // Swept, not grown on every side: the box covers the shape's path over the step
            // (its velocity at the start of the step), plus the speculative half-distance and
            // the arc of its rotation on every side. Two shapes that meet during the step
            // overlap somewhere on their paths, so their boxes overlap; two that only fall
            // side by side make no pair (boxes grown by the motion on every side would give a
            // falling pile many pairs per touching one).
            let reach = maxMargin - half
            let turn = min(dt * abs(v.w) * sims[b].maxExtent, reach)
            let d = vmin(vmax(dt * v.v, Vec2(-reach, -reach)), Vec2(reach, reach))
            var box = PairContext.shapeAABB(shapes[s], sims[b].xf, vertices).expanded(by: half + turn)
            box.lower += vmin(d, .zero)
            box.upper += vmax(d, .zero)
            boxes[s] = box
            let f = fatBoxes[s]
            if !(box.lower.x >= f.lower.x && box.lower.y >= f.lower.y && box.upper.x <= f.upper.x && box.upper.y <= f.upper.y) {
                var fat = box.expanded(by: fatMargin)
                if lead > 0 {
                    fat.lower += lead * vmin(d, .zero)
                    fat.upper += lead * vmax(d, .zero)
                }
                fatBoxes[s] = fat
                enlarged[s] = 1
                out = true
            }
        }
        if out { escaped.set() }
    }
}


/// The broad phase's structure as it is read (`BroadPhase.index`): the grid of static shapes,
/// the grid of small moving shapes, every moving shape, the large moving and the large static
/// shapes. The pair finder and the world queries (`World/Queries.swift`) read it alike.
struct BroadPhaseIndex {
    var staticGrid = GridView(), grid = GridView(), sleepGrid = GridView()
    var moving = View<Int32>(), movingLarge = View<Int32>(), staticLarge = View<Int32>()
    /// Per shape slot: whether its `sleepGrid` entry stands (`BroadPhase.inSleepGrid`).
    var sleepMembers = View<UInt8>()

    /// The same views of the same buffers (a kept index is still valid; debug checks).
    func isSame(as o: BroadPhaseIndex) -> Bool {
        func same<T>(_ a: View<T>, _ b: View<T>) -> Bool {
            a.count == b.count && (a.count == 0 || a.base == b.base)
        }
        func same(_ a: GridView, _ b: GridView) -> Bool {
            a.geo.origin == b.geo.origin && a.geo.invCellSize == b.geo.invCellSize && a.geo.nx == b.geo.nx && a.geo.ny == b.geo.ny
                && same(a.cellStart, b.cellStart) && same(a.entries, b.entries)
                && (a.masks == nil) == (b.masks == nil) && (a.masks == nil || same(a.masks!, b.masks!))
                && same(a.runEnds, b.runEnds)
        }
        return same(staticGrid, o.staticGrid) && same(grid, o.grid) && same(sleepGrid, o.sleepGrid) && same(moving, o.moving)
            && same(sleepMembers, o.sleepMembers)
            && same(movingLarge, o.movingLarge) && same(staticLarge, o.staticLarge)
    }
}

extension BroadPhase {
    /// Views of the grids and lists; `masks`: the moving grid's entry masks too.
    func index(masks: Bool) -> BroadPhaseIndex {
        // (The sleeping grid only when it has shapes: a small world never opens it.)
        let sleeping = sleepGridCount > 0
        return BroadPhaseIndex(staticGrid: GridView(staticGrid), grid: GridView(grid, masks: masks),
                               sleepGrid: sleeping ? GridView(activity.sleepGrid, masks: masks && activity.sleepGridMasks) : GridView(),
                               moving: moving.view, movingLarge: movingLarge.view, staticLarge: staticLarge.view,
                               sleepMembers: sleeping ? activity.inSleepGrid.view : View())
    }
}

/// A read-only view of a built grid.
struct GridView {
    var geo: GridGeometry
    var cellStart: View<Int32>
    var entries: View<Int32>
    /// Each entry's filter mask (`UniformGrid.entryMasks`), for a grid built with a filter.
    var masks: View<UInt64>?
    /// With `masks`: each entry's run end (`UniformGrid.entryRunEnds`).
    var runEnds = View<Int32>()
    /// A grid of no cells (nothing to read).
    init() {
        geo = GridGeometry(origin: .zero, invCellSize: 1, nx: 0, ny: 0)
        cellStart = View(); entries = View(); masks = nil
    }

    init(_ g: UniformGrid, masks: Bool = false) {
        geo = GridGeometry(origin: g.origin, invCellSize: g.invCellSize, nx: g.nx, ny: g.ny)
        cellStart = g.cellStart.view; entries = g.entries.view; self.masks = masks ? g.entryMasks.view : nil
        if masks { runEnds = g.entryRunEnds.view }
    }
}

/// Read-only views of the world's shape data for pair finding. Valid only inside
/// `World.findPairs`, where the arrays are neither resized nor written.
struct PairContext: @unchecked Sendable {
    unowned(unsafe) let world: World
    /// The step context's shapes, body records and fat boxes (read only here; held as values,
    /// read in the innermost loops).
    let shapes: View<ShapeRecord>
    let metas: View<BodyMeta>
    let boxes: View<AABB>
    /// Per shape slot: 1 for a shape in a large list; 1 for a shape whose fat box changed this step.
    let isLarge, enlarged: View<UInt8>
    /// Per shape slot: its collision filter (read for shapes whose record is `filtered`).
    let filters: View<ShapeFilter>
    /// Per shape slot: which partners its collision groups and filter allow at all
    /// (`BroadPhase.reach`); nil: every shape may have any.
    let reach: View<UInt8>?
    let index: BroadPhaseIndex

    @inline(__always)
    static func shapeAABB(_ rec: ShapeRecord, _ xf: Transform, _ verts: View<Vec2>) -> AABB {
        if rec.kind == .circle {
            let c = xf.apply(rec.center)
            return AABB(lower: c - Vec2(rec.radius, rec.radius), upper: c + Vec2(rec.radius, rec.radius))
        }
        let st = Int(rec.vertexStart)
        var lo = xf.apply(verts[st]), hi = lo
        for k in 1..<Int(rec.vertexCount) {
            let p = xf.apply(verts[st + k])
            lo = vmin(lo, p); hi = vmax(hi, p)
        }
        // (A rounded polygon's or capsule's skin; 0 for the others.)
        let r = Vec2(rec.radius, rec.radius)
        return AABB(lower: lo - r, upper: hi + r)
    }

    /// The collision filter for a candidate pair of shapes. Groups with index ≥ 64 take the
    /// world's slow path (rare: only when more than 64 groups are alive).
    @inline(__always)
    func shouldCollide(_ s: Int, _ t: Int) -> Bool {
        let a = Int(shapes[s].body), b = Int(shapes[t].body)
        if a == b { return false }
        if (shapes[s].filtered || shapes[t].filtered) && !filters[s].collides(with: filters[t]) { return false }
        let ma = metas[a], mb = metas[b]
        if ma.type != .dynamic && mb.type != .dynamic { return false }
        // A retired pair (neither body awake nor kinematic): its contact, if any, is in a
        // sleeping set (`ContactSet`).
        if !ma.awake && !mb.awake && ma.type != .kinematic && mb.type != .kinematic { return false }
        if shapes[t].isBoundary {
            let g = shapes[t].boundaryGroup
            return g < 64 ? ma.boundaryMask & (1 << UInt64(g)) != 0 : world.bodyCollidesWithBoundary(a, group: g)
        }
        if shapes[s].isBoundary {
            let g = shapes[s].boundaryGroup
            return g < 64 ? mb.boundaryMask & (1 << UInt64(g)) != 0 : world.bodyCollidesWithBoundary(b, group: g)
        }
        if ma.itemMask & mb.itemMask != 0 { return true }
        return ma.overflow && mb.overflow && world.bodiesCollide(a, b)
    }

    /// Which partners a grid query reports, and under which key.
    enum PartnerRule {
        /// Every partner (static shapes): key `s << 32 | t`.
        case all
        /// Partners with a higher slot (every moving shape looks): key `s << 32 | t`.
        case above
        /// Every partner except enlarged shapes with a lower slot, which report the pair
        /// themselves (only enlarged shapes look): key `min << 32 | max`.
        case notEnlargedBelow
    }

    /// The key of moving shape `s` and partner `t` under `rule`, or nil when `s` does not
    /// report the pair.
    @inline(__always)
    func pairKey(_ s: Int, _ t: Int, _ rule: PartnerRule) -> UInt64? {
        switch rule {
        case .all:
            return UInt64(UInt32(s)) << 32 | UInt64(UInt32(t))
        case .above:
            return t > s ? UInt64(UInt32(s)) << 32 | UInt64(UInt32(t)) : nil
        case .notEnlargedBelow:
            if t == s || (t < s && enlarged[t] != 0) { return nil }
            let lo = min(s, t), hi = max(s, t)
            return UInt64(UInt32(lo)) << 32 | UInt64(UInt32(hi))
        }
    }

    /// Appends the pairs moving shape `s` reports when every moving shape looks: its static
    /// partners and its moving partners of higher slot, sorted by partner. (Keys: the moving
    /// shape, or the lower slot of two moving shapes, first; emitters in slot order then give
    /// sorted output.) They are written in place and sorted there (no scratch buffer: per-chunk
    /// scratch arrays allocated side by side would make the workers write to the same cache
    /// lines).
    @inline(__always)
    func emitPairs(for s: Int, into out: inout [UInt64]) {
        let start = out.count
        emitPartners(of: s, rule: .above, into: &out)
        // Sort this emitter's partners (few: insertion sort) in place.
        let m = out.count - start
        guard m > 1 else { return }
        out.withMutableView { all in
            let sc = all.subview(start ..< start + m)
            for i in 1..<m {
                let v = sc[i]
                var j = i - 1
                while j >= 0 && sc[j] > v { sc[j + 1] = sc[j]; j -= 1 }
                sc[j + 1] = v
            }
        }
    }

    /// Appends every pair of enlarged shape `s` (unsorted), except those an enlarged shape of
    /// lower slot reports.
    @inline(__always)
    func emitAllPairs(of s: Int, into out: inout [UInt64]) {
        emitPartners(of: s, rule: .notEnlargedBelow, into: &out)
    }

    @inline(__always)
    func emitPartners(of s: Int, rule: PartnerRule, into out: inout [UInt64]) {
        let box = boxes[s]
        let allowed = reach?[s] ?? 3
        // Static partners: the static grid, then the large static shapes.
        if allowed & 2 != 0 {
            query(index.staticGrid, box: box, from: s, rule: .all, into: &out)
            for t32 in index.staticLarge {
                let t = Int(t32)
                if box.overlaps(boxes[t]) && shouldCollide(s, t) { out.append(UInt64(UInt32(s)) << 32 | UInt64(UInt32(t))) }
            }
        }
        // Moving partners: a large shape tests every moving shape; a small one the grid (small
        // shapes) and the large ones.
        if allowed & 1 == 0 {
            return
        } else if isLarge[s] != 0 {
            for t32 in index.moving {
                let t = Int(t32)
                guard let key = pairKey(s, t, rule) else { continue }
                if box.overlaps(boxes[t]) && shouldCollide(s, t) { out.append(key) }
            }
        } else {
            query(index.grid, box: box, from: s, rule: rule, into: &out)
            if index.sleepGrid.geo.nx > 0 {
                query(index.sleepGrid, box: box, from: s, rule: rule, members: MarkedEntries(marks: index.sleepMembers), into: &out)
            }
            for t32 in index.movingLarge {
                let t = Int(t32)
                guard let key = pairKey(s, t, rule) else { continue }
                if box.overlaps(boxes[t]) && shouldCollide(s, t) { out.append(key) }
            }
        }
    }

    /// Cells of more shapes than this are searched for the first partner of higher slot
    /// (rule `.above`) instead of scanned from their start.
    static let searchedCellEntries = 8

    /// Partners of `s` in `grid` that `rule` lets `s` report, each reported once: only in the
    /// cell holding the lower corner of the two boxes' intersection.
    @inline(__always)
    func query(_ g: GridView, box: AABB, from s: Int, rule: PartnerRule, into out: inout [UInt64]) {
        query(g, box: box, from: s, rule: rule, members: EveryEntry(), into: &out)
    }

    /// `query` on a grid whose entries count only where `members` says so (a specialised copy
    /// each: the moving and static grids' loops carry no membership test).
    @inline(__always)
    func query<Members: GridMembership>(_ g: GridView, box: AABB, from s: Int, rule: PartnerRule, members: Members,
                                        into out: inout [UInt64]) {
        guard g.geo.nx > 0 else { return }
        let geo = g.geo
        let r = geo.cellRange(box)
        let nx = Int(geo.nx)
        let cs = g.cellStart, en = g.entries
        // With entry masks (the moving grid): this shape's mask, to pass over the shapes of
        // other collision groups before reading their boxes.
        let masks = g.masks, runs = g.runEnds
        let own: UInt64 = masks != nil ? CollisionFilter(shapes: shapes, metas: metas).mask(of: s) : 0
        for y in r.y...r.w {
            for x in r.x...r.z {
                let c = Int(y) * nx + Int(x)
                let end = Int(cs[c + 1])
                var first = Int(cs[c])
                // Reporting partners of higher slot only, in a crowded cell (layers of collision
                // groups sharing the space): a cell lists its shapes in increasing slot order,
                // so those at or below `s` are passed over at once.
                if rule == .above && end - first > Self.searchedCellEntries {
                    var hi = end
                    while first < hi {
                        let mid = (first + hi) >> 1
                        if Int(en[mid]) <= s { first = mid + 1 } else { hi = mid }
                    }
                    assert(first == end || Int(en[first]) > s, "a grid cell's shapes are not in slot order")
                }
                var e = first
                while e < end {
                    // A shape of a group `s` does not collide with: pass over its run.
                    if let masks, masks[e] & own == 0 { e = Int(runs[e]); continue }
                    let t = Int(en[e])
                    e += 1
                    // (The sleeping grid: a shape whose body woke since is in `grid` now.)
                    if !members.counts(t) { continue }
                    guard let key = pairKey(s, t, rule) else { continue }
                    let tb = boxes[t]
                    guard box.overlaps(tb) else { continue }
                    let ref = geo.cell(of: vmax(box.lower, tb.lower))
                    guard ref.x == x && ref.y == y else { continue }
                    if shouldCollide(s, t) { out.append(key) }
                }
            }
        }
    }
}

/// Which entries of a grid a pair query counts.
protocol GridMembership {
    /// Whether shape slot `t`'s entry counts.
    func counts(_ t: Int) -> Bool
}

/// Every entry counts (the static and moving grids).
struct EveryEntry: GridMembership {
    @inline(__always) func counts(_ t: Int) -> Bool { true }
}

/// Entries whose shape is marked count (the sleeping grid: a shape whose body woke since the
/// grid was built is in the moving grid now, its old entry is passed over).
struct MarkedEntries: GridMembership {
    let marks: View<UInt8>
    @inline(__always) func counts(_ t: Int) -> Bool { marks[t] != 0 }
}

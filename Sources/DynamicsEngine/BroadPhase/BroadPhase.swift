/// The broad phase: finds every pair of shapes whose fat boxes overlap and that the collision
/// filter allows, in a canonical order.
///
/// - Each moving shape has a fat box: its box grown by `fatMargin` when it last moved out of
///   the previous one. Only shapes whose box left their fat box ("enlarged") look for partners,
///   in the spirit of Box2D's enlarged proxies; the pairs of the others stand as they were.
///   When many moved, or something structural changed, every shape looks again: both ways
///   find the same pairs under the same keys, so the choice never changes a result.
/// - Moving shapes (of dynamic and kinematic bodies) go into a grid rebuilt every step.
/// - Static shapes (static bodies, boundaries) go into a second grid rebuilt only when static
///   geometry changes.
/// - Shapes spanning many cells (long boundaries, full-screen items) go into "large" lists that
///   are tested box-against-box instead of filling thousands of cells.
///
/// Each pair is emitted by exactly one shape (the "emitter") under the key
/// `emitter << 32 | partner`; emitters run in increasing slot order and sort their own
/// partners, so the output is sorted by key without a global sort. Duplicates from shapes
/// spanning several cells are removed by reporting a pair only in the cell that holds the
/// lower corner of the two boxes' intersection.
struct BroadPhase {
    // (The flags first: a small world's step at rest reads them and nothing else here.)
    /// Set when body types, collision groups or filters change, static geometry changes or a
    /// snapshot is restored: the next pass rebuilds the moving lists and every shape looks.
    var dirty = true
    /// Set when moving shapes were added or released, or contacts ended, since the last pass
    /// (`shapeChanges`): the next pass takes them in without reading every shape, and cannot
    /// reuse the last pass's pairs.
    var shapesChanged = false
    /// Set when static geometry changed and the static grid must be rebuilt.
    var staticDirty = true
    /// Set by this step's broad phase when its pairs differ from the contacts' (the merge runs).
    var pairsChanged = true
    /// Bodies woke since the last pass (`requery` holds them).
    var requeryPending = false
    /// `sleepList.count` (0: `active` is every moving shape).
    var sleepGridCount = 0
    /// Each shape's bounding box with its speculative margin (updated every step for moving
    /// shapes; kept apart from the shape records so the broad phase reads a dense array).
    let boxes = Column<AABB>()
    /// The boxes the broad phase last found pairs with: each moving shape's box grown by
    /// `fatMargin` (static shapes: their box). While every moving shape's box stays inside its
    /// fat box and nothing structural changed, the pairs cannot change and are reused.
    let fatBoxes = Column<AABB>()
    /// Per shape slot: 1 when a moving shape is in a large list.
    let isLarge = Column<UInt8>()
    /// Per shape slot: its collision filter (read only for shapes whose record is `filtered`).
    let filters = Column<ShapeFilter>()
    /// Per shape slot, for moving shapes while `reachLimited`: which partners its collision
    /// groups and `ShapeFilter` allow at all (bit 0: some moving shape, bit 1: some static
    /// shape or boundary). A moving shape never looks where nothing can be its partner: a
    /// sheet whose pieces collide with nothing (Box2D's joint_grid) or debris that only meets
    /// the ground makes no grid queries in vain (`PairContext.emitPartners`). Found by every
    /// structural change (`findReach`).
    let reach = Column<UInt8>()
    /// Whether some moving shape can have no moving or no static partner (`reach` is read
    /// only then).
    var reachLimited = false
    /// While `reachLimited`: the moving shapes that can have some partner (`reach` not 0), in
    /// slot order — the emitters of a pass in which every shape looks.
    let seekers = Column<Int32>()
    /// The small awake moving shapes of the last pass that can have no moving partner
    /// (`reach` bit 0 clear), in slot order. They stay out of `grid`: the pair search reads it
    /// only for moving partners. The world queries index them apart, by a grid of their own
    /// built when a query needs it (`QueryIndex.lonerGrid`).
    let loners = Column<Int32>()
    /// The other small shapes of that pass, those `grid` holds (while there are loners).
    let socialSmall = Column<Int32>()
    /// What `findReach` found over all shapes, kept so that a shape added later gets its
    /// reach without another look at every shape (`reachOfAdded`): the item groups of the
    /// moving and of the static bodies, the boundaries' groups, whether some body is in a
    /// group of index 64 or more, whether some shape has a filter, and whether the filters
    /// limited the reach (`movingFilterKinds`, `staticFilterKinds` and `kindReach` then hold
    /// them). Shapes released since only make these wider than they need be, which costs
    /// searches, never a pair.
    var reachMovingItems: UInt64 = 0, reachStaticItems: UInt64 = 0, reachBoundaryGroups: UInt64 = 0
    var reachOverflow = false, reachFiltered = false, reachFiltersLimit = false
    /// Moves on whenever `loners` is written (the queries' loner grid follows it).
    var lonersVersion = 0
    /// Scratch of `findReach`: the distinct filters of the moving and of the static
    /// shapes, and the reach of each moving one.
    let movingFilterKinds = Column<ShapeFilter>()
    let staticFilterKinds = Column<ShapeFilter>()
    let kindReach = Column<UInt8>()
    /// Raised by the box update when a moving shape's box left its fat box.
    let boxEscaped = WorkFlag()
    /// The small moving shapes of `active`, by fat box (rebuilt by every pass that looks for pairs).
    var grid = UniformGrid()
    var staticGrid = UniformGrid()
    /// Which moving shapes a pass reads and which wait, asleep, in the sleeping grid.
    let activity = ShapeActivity()
    /// Moving shapes in slot order; the small ones are in `grid`.
    let moving = Column<Int32>()
    let movingSmall = Column<Int32>()
    let movingLarge = Column<Int32>()
    let staticSmall = Column<Int32>()
    let staticLarge = Column<Int32>()
    /// Scratch of `rebuildStaticGrid`: the static shapes and their sizes (kept, so that a
    /// rebuild — a moved boundary — allocates nothing once warm).
    let staticIDs = Column<Int32>()
    let staticSizes = Column<Float>()
    /// The cell size `rebuildStaticGrid` last chose (the one it sorts large static shapes by
    /// and asks the grid for). It follows the moving shapes' sizes at the time of the build,
    /// which later steps change, so a snapshot records it: a restored world rebuilds the same
    /// grid, in whose order the continuous step's sweeps and the queries visit static shapes.
    var staticCellSize: Float = 0
    /// Output: pair keys, sorted.
    let pairs = Column<UInt64>()
    /// Per shape slot: 1 when its fat box changed in this step's box update.
    let enlarged = Column<UInt8>()
    /// The enlarged moving shapes, in slot order.
    let enlargedList = Column<Int32>()
    /// The enlarged shapes' pairs, as the chunks found them, before they join the standing
    /// ones (`FreshPairMerge`, in `freshScratch`).
    let freshPairs = Column<UInt64>()
    let freshScratch = FreshPairScratch()
    /// Each chunk's own pair output (concatenated in chunk order, which keeps the keys sorted).
    let workerPairs = Column<[UInt64]>()
    /// The pair finder's views of the grids and lists (`index(masks:)`), kept from a pass of
    /// few moving shapes while the lists and grids they view stand: a world of one or two
    /// bodies whose shape left its fat box reads them here instead of opening ten column
    /// objects. Dropped by every change to those lists and grids (`hasKeptIndex`). (Not an
    /// optional: the index is a few hundred bytes, and wrapping and unwrapping an optional of
    /// it copies it each time.)
    var keptIndex = BroadPhaseIndex()
    var hasKeptIndex = false
    var keptIndexMasks = false
    /// The moving shape slots added or released since the last pass (`shapesChanged`; a slot
    /// may be listed twice), and scratch of the pass that takes them in: those of them that
    /// are moving shapes now, which look for partners in that pass.
    let shapeChanges = Column<Int32>()
    let addedShapes = Column<Int32>()
    /// Typical cell size of the last build.
    var cellSize: Float = 0
    /// Moving shapes at the last build.
    var lastMovingCount = -1

    /// A new shape slot's box, fat box and large flag. (Mutating, so that it is called on the
    /// world's broad phase in place: a non-mutating call would copy the struct, retaining each
    /// column.)
    mutating func appendShapeSlot() {
        boxes.append(AABB(lower: .zero, upper: .zero)); fatBoxes.append(AABB(lower: .zero, upper: .zero)); isLarge.append(0)
        filters.append(.default)
        reach.append(3)
        activity.inSleepGrid.append(0)
    }
}

extension World {
    /// Largest number of cells a shape may cover before it counts as "large".
    @inline(__always) var largeShapeCells: Float { 8 }

    /// Rebuilds the static grid (static bodies and boundaries). `keepingBoxes`: from the
    /// static shapes' boxes as they are (a restored snapshot's), not recomputed. `cellSize`:
    /// the cell size to use (a restored snapshot's `BroadPhase.staticCellSize`) instead of
    /// choosing one.
    func rebuildStaticGrid(keepingBoxes: Bool = false, cellSize: Float? = nil) {
        // In place, into kept buffers: a boundary moved by a component's toggle rebuilds this
        // grid, and that must not allocate once warm.
        broadPhase.hasKeptIndex = false
        broadPhase.staticIDs.removeAllKeepingCapacity()
        broadPhase.staticSizes.removeAllKeepingCapacity()
        let boxes = broadPhase.boxes, fatBoxes = broadPhase.fatBoxes
        // The moving shapes' mean size (a moving shape's query covers about (size / cell + 1)²
        // cells of this grid, so the cells are not made much smaller than the moving shapes),
        // by their fat boxes: a moving shape's box is the box update's scratch, which a
        // snapshot does not keep, while its fat box is kept, so a restored world chooses the
        // cell size the original would.
        var movingSizeSum: Float = 0, movingCount = 0
        for s in 0..<Int(shapeSlots.count) where shapes[s].alive {
            guard shapes[s].isStatic else {
                let e = fatBoxes[s].upper - fatBoxes[s].lower
                if e.x.isFinite && e.y.isFinite { movingSizeSum += max(e.x, e.y, 0); movingCount += 1 }
                continue
            }
            if !keepingBoxes {
                boxes[s] = shapeAABB(s, sims[Int(shapes[s].body)].xf).expanded(by: 0.5 * speculativeDistance)
                fatBoxes[s] = boxes[s]
            }
            broadPhase.staticIDs.append(Int32(s))
            let e = boxes[s].upper - boxes[s].lower
            // The side of a square of the box's area: a long thin boundary counts as the strip
            // it is, not as its length.
            broadPhase.staticSizes.append((max(e.x, 0) * max(e.y, 0)).squareRoot())
        }
        // Cell size: twice the mean size of the smaller half of the static shapes, at least 1.5
        // times the moving shapes' mean size (the moving grid's), grown as the grid grows it to
        // keep to about four cells per shape.
        var sizes = broadPhase.staticSizes  // (a reference: sorted in place)
        sizes.sort()
        let half = broadPhase.staticSizes.prefix(max(1, broadPhase.staticSizes.count / 2))
        var cell = half.isEmpty ? 100 : max(1, half.reduce(0, +) / Float(half.count) * 2)
        if movingCount > 0 { cell = max(cell, 1.5 * movingSizeSum / Float(movingCount)) }
        let ids = broadPhase.staticIDs
        if let given = cellSize {
            cell = given
        } else if let first = ids.first {
            var lo = fatBoxes[Int(first)].lower, hi = fatBoxes[Int(first)].upper
            for s in ids { lo = vmin(lo, fatBoxes[Int(s)].lower); hi = vmax(hi, fatBoxes[Int(s)].upper) }
            let ext = hi - lo, maxCells = Float(max(16, 4 * ids.count))
            while (ext.x / cell + 1) * (ext.y / cell + 1) > maxCells { cell *= 1.5 }
        }
        // Large: a box over as many cells as a square of `largeShapeCells` cells a side (a
        // boundary along a screen's edge, over one row of cells, is not).
        broadPhase.staticSmall.removeAllKeepingCapacity()
        broadPhase.staticLarge.removeAllKeepingCapacity()
        let largeCells = largeShapeCells * largeShapeCells
        for s in ids {
            let e = boxes[Int(s)].upper - boxes[Int(s)].lower
            if (e.x / cell + 1) * (e.y / cell + 1) > largeCells { broadPhase.staticLarge.append(s) } else { broadPhase.staticSmall.append(s) }
        }
        broadPhase.staticCellSize = cell
        broadPhase.staticGrid.build(ids: broadPhase.staticSmall.view, boxes: fatBoxes.view, cellSize: cell)
        broadPhase.staticDirty = false
        broadPhase.dirty = true
    }

    /// How much a moving shape's box is grown when it moves out of its fat box, so that small
    /// motions (resting jitter) keep it inside. Four linear slops (2 pt): fewer box updates
    /// than one slop, while ten cost more in extra pairs than they save in queries.
    @inline(__always) var fatMargin: Float { 4 * settings.linearSlop }

    /// The speculative distance: contacts are made this far before shapes touch.
    @inline(__always) var speculativeDistance: Float { 4 * settings.linearSlop }
}

extension BroadPhase {
    /// Sorts `small` (the pass's small awake moving shapes, in slot order) into `loners` and
    /// `socialSmall` by `reach`, and returns the shapes the moving grid is to hold.
    mutating func setLoners(from small: View<Int32>) -> View<Int32> {
        loners.removeAllKeepingCapacity(); socialSmall.removeAllKeepingCapacity()
        lonersVersion &+= 1
        guard reachLimited else { return small }
        let rv = reach.view
        for s in small { if rv[Int(s)] & 1 == 0 { loners.append(s) } else { socialSmall.append(s) } }
        return loners.isEmpty ? small : socialSmall.view
    }

    /// The most distinct filters of either kind `findReach` sorts out (more: the filters
    /// limit no shape's reach).
    static let filterKindLimit = 16

    /// Sets `reach` and `reachLimited` for the live moving shapes from the two rules a pair
    /// must pass (`PairContext.shouldCollide`): the collision groups (a body's item and
    /// boundary masks against the union of the other bodies' and the boundaries' groups) and
    /// the shape filters (each against every distinct filter of the moving and of the static
    /// shapes). Both rules are symmetric, so a shape that allows no moving partner is no
    /// moving shape's partner either. Conservative: groups of index 64 or more allow
    /// everything here. Writes only kept buffers: a body made or destroyed in a warm world
    /// allocates nothing.
    mutating func findReach(shapes sh: View<ShapeRecord>, metas me: View<BodyMeta>, count: Int) {
        reachLimited = false
        // The groups present: moving bodies' item groups, static bodies' item groups,
        // boundaries' groups; and whether any shape has a filter.
        var movingItems: UInt64 = 0, staticItems: UInt64 = 0, boundaryGroups: UInt64 = 0
        var anyOverflow = false, anyFiltered = false
        for s in 0..<count where sh[s].alive {
            let b = Int(sh[s].body)
            if me[b].overflow { anyOverflow = true }
            if sh[s].filtered { anyFiltered = true }
            if sh[s].isBoundary {
                let g = sh[s].boundaryGroup
                if g >= 64 { anyOverflow = true } else { boundaryGroups |= 1 << UInt64(g) }
            } else if sh[s].isStatic {
                staticItems |= me[b].itemMask
            } else {
                movingItems |= me[b].itemMask
            }
        }
        reachMovingItems = movingItems; reachStaticItems = staticItems; reachBoundaryGroups = boundaryGroups
        reachOverflow = anyOverflow; reachFiltered = anyFiltered
        // The filters' reach per distinct moving filter (none: every shape reaches both).
        // (Neighbouring shapes mostly share a filter: the last one found is tried first.)
        kindReach.removeAllKeepingCapacity()
        movingFilterKinds.removeAllKeepingCapacity(); staticFilterKinds.removeAllKeepingCapacity()
        let fv = filters.view
        var filtersLimit = anyFiltered
        if filtersLimit {
            var lastMoving: ShapeFilter? = nil, lastStatic: ShapeFilter? = nil
            for s in 0..<count where sh[s].alive {
                let f = sh[s].filtered ? fv[s] : .default
                if sh[s].isStatic {
                    if f == lastStatic { continue }
                    lastStatic = f
                    if !staticFilterKinds.contains(f) {
                        guard staticFilterKinds.count < Self.filterKindLimit else { filtersLimit = false; break }
                        staticFilterKinds.append(f)
                    }
                } else {
                    if f == lastMoving { continue }
                    lastMoving = f
                    if !movingFilterKinds.contains(f) {
                        guard movingFilterKinds.count < Self.filterKindLimit else { filtersLimit = false; break }
                        movingFilterKinds.append(f)
                    }
                }
            }
        }
        reachFiltersLimit = filtersLimit
        if filtersLimit {
            for f in movingFilterKinds {
                let m: UInt8 = movingFilterKinds.contains(where: { f.collides(with: $0) }) ? 1 : 0
                let st: UInt8 = staticFilterKinds.contains(where: { f.collides(with: $0) }) ? 2 : 0
                kindReach.append(m | st)
            }
        }
        let kinds = movingFilterKinds.view, kr = kindReach.view
        var lastFilter: ShapeFilter? = nil, lastReach: UInt8 = 3
        let rv = reach.mutableView
        var limited = false
        seekers.removeAllKeepingCapacity()
        for s in 0..<count where sh[s].alive && !sh[s].isStatic {
            let b = Int(sh[s].body)
            var r: UInt8 = 3
            if !anyOverflow {
                let items = me[b].itemMask
                if items & movingItems == 0 { r &= ~1 }
                if items & staticItems == 0 && me[b].boundaryMask & boundaryGroups == 0 { r &= ~2 }
            }
            if filtersLimit {
                let f = sh[s].filtered ? fv[s] : .default
                if f != lastFilter { lastFilter = f; lastReach = kr[kinds.firstIndex(of: f)!] }
                r &= lastReach
            }
            rv[s] = r
            if r != 3 { limited = true }
        }
        reachLimited = limited
        if limited {
            for s in 0..<count where sh[s].alive && !sh[s].isStatic && rv[s] != 0 { seekers.append(Int32(s)) }
        }
    }

    /// The reach of moving shape `s`, added since the last `findReach`, by the rules of that
    /// call and what it found; nil when `findReach` must look at every shape again: the shape
    /// would widen another shape's reach (its body is in an item group no moving body was in,
    /// or in a group of index 64 or more; it has a filter no moving shape had), or it limits
    /// its own reach in a world where no shape's was limited (`seekers` is then not kept).
    func reachOfAdded(_ s: Int, shapes sh: View<ShapeRecord>, metas me: View<BodyMeta>) -> UInt8? {
        let b = Int(sh[s].body)
        var r: UInt8 = 3
        if !reachOverflow {
            let items = me[b].itemMask
            if me[b].overflow || items & ~reachMovingItems != 0 { return nil }
            if items & reachMovingItems == 0 { r &= ~1 }
            if items & reachStaticItems == 0 && me[b].boundaryMask & reachBoundaryGroups == 0 { r &= ~2 }
        }
        if sh[s].filtered && !reachFiltered { return nil }
        if reachFiltersLimit {
            let f = sh[s].filtered ? filters[s] : .default
            guard let k = movingFilterKinds.view.firstIndex(of: f) else { return nil }
            r &= kindReach[k]
        }
        if r != 3 && !reachLimited { return nil }
        return r
    }
}

extension Column where Element == Int32 {
    /// Takes the slots of `removed` (sorted, each once) out of this list of slots (in
    /// increasing order) and merges in those of `added` (sorted, each once, none in the list
    /// after the removal) for which `keep` holds, in place.
    func replaceSlots(removing removed: View<Int32>, adding added: View<Int32>, where keep: (Int32) -> Bool) {
        var w = count
        if !removed.isEmpty {
            let v = mutableView
            var r = 0
            w = 0
            for k in v.indices {
                let s = v[k]
                while r < removed.count && removed[r] < s { r += 1 }
                if r < removed.count && removed[r] == s { continue }
                v[w] = s; w += 1
            }
            truncate(to: w)
        }
        var m = 0
        for s in added where keep(s) { m += 1 }
        guard m > 0 else { return }
        grow(to: w + m, with: 0)
        // Merged from the back, in place.
        let v = mutableView
        var i = w - 1, j = added.count - 1, d = w + m - 1
        while j >= 0 {
            if !keep(added[j]) { j -= 1; continue }
            if i >= 0 && v[i] > added[j] { v[d] = v[i]; i -= 1 } else { v[d] = added[j]; j -= 1 }
            d -= 1
        }
    }
}

/// The moving shapes a broad-phase pass reads (`active`: those of awake bodies, and those that
/// fell asleep since the sleeping grid was built) and the sleeping grid that holds the others,
/// kept apart from `BroadPhase` so that a small world, which has no sleeping grid, never opens
/// them (it reads `BroadPhase.moving`, which `active` equals while the sleeping grid is empty).
final class ShapeActivity {
    /// The small shapes of sleeping bodies (`sleepList`), by fat box: built when enough shapes
    /// fell asleep since (`World.sortActive`) or by a pass in which every shape looks, so that a
    /// pass reads only the awake part in `grid`. A shape whose body woke stays listed until
    /// the next build but is passed over (`inSleepGrid` 0).
    @exclusivity(unchecked) var sleepGrid = UniformGrid()
    /// Whether `sleepGrid` was built with entry masks (a world of several collision groups).
    @exclusivity(unchecked) var sleepGridMasks = false
    /// The shapes `sleepGrid` lists, in slot order.
    let sleepList = Column<Int32>()
    /// Per shape slot: 1 while the shape is in `sleepGrid` and its body has not woken since.
    let inSleepGrid = Column<UInt8>()
    /// The moving shapes not (validly) in `sleepGrid`, in slot order: the awake ones and those
    /// that fell asleep since its build. The box update reads only these. While the sleeping
    /// grid is empty (`BroadPhase.sleepGridCount` 0) every moving shape is active and this list
    /// is neither read nor kept (`BroadPhase.moving` is read instead).
    let active = Column<Int32>()
    /// The small shapes of `active` (the moving grid's) while `sleepGrid` has shapes; else
    /// `BroadPhase.movingSmall` is the list.
    let activeSmall = Column<Int32>()
    /// Scratch of the sleeping grid's rebuild (swapped with `sleepList`).
    let freshShapes = Column<Int32>()
    /// Bodies woken since the last pass: their shapes look for partners again in the next one,
    /// as if enlarged (their pairs with static and sleeping shapes were not kept while they
    /// slept: `ContactSet`'s sleeping sets).
    let requery = Column<Int32>()
}

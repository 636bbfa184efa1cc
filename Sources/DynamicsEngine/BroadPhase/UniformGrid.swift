/// A dense uniform grid over the bounding box of a set of shapes, built by counting sort.
///
/// Each cell lists the shapes whose box overlaps it, in increasing shape order. Building is
/// O(n + cells); the cell count is capped at a few per shape so a sparse world cannot blow
/// up memory (the cell size grows instead). Buffers are reused between builds.
struct UniformGrid {
    var origin = Vec2.zero
    var cellSize: Float = 1
    var invCellSize: Float = 1
    var nx: Int32 = 0
    var ny: Int32 = 0
    /// `cellStart[c] ..< cellStart[c + 1]` indexes `entries` for cell c.
    let cellStart = Column<Int32>()
    let entries = Column<Int32>()
    /// Built with a filter: each entry's collision filter mask (`entryMasks[e]` for
    /// `entries[e]`), read before the entry's box so that shapes of other collision groups
    /// sharing a cell are passed over without touching their boxes.
    let entryMasks = Column<UInt64>()
    /// Built with a filter: for entry e, the first entry after it in its cell whose mask
    /// differs from e's (or the cell's end), so a query passes over a run of shapes of a group
    /// it does not collide with in one jump (layers of groups sharing the space: a cell lists
    /// each layer's shapes together, as it lists shapes in slot order).
    let entryRunEnds = Column<Int32>()
    /// Per-shape cell range of the last build (x0, y0, x1, y1), indexed by position in the input.
    let ranges = Column<SIMD4<Int32>>()
    /// Parallel build only: per band of rows, its entry total (then its first entry).
    let bandTotals = Column<Int32>()

    /// Builds the grid over `ids` (shape slots) with boxes from `boxes` (indexed by shape slot).
    ///
    /// With `workers` > 1, a `pipeline` and at least `minParallel` shapes, the grid is counted and filled in parallel
    /// (`buildParallel`); the cells list their shapes in the same order either way.
    /// With a `filter`, `entryMasks` gets each entry's mask.
    mutating func build(ids: View<Int32>, boxes: View<AABB>, cellSize requested: Float,
                        workers: Int = 1, pipeline: StagePipeline? = nil, minParallel: Int = 2048,
                        filter: CollisionFilter? = nil) {
        let n = ids.count
        guard n > 0 else {
            // (An empty grid — nx 0 — has empty lists already: a world whose few moving
            // shapes are all large does not open them every step.)
            assert(nx != 0 || (cellStart.isEmpty && entries.isEmpty), "an empty grid with cells")
            if nx != 0 {
                nx = 0; ny = 0
                cellStart.removeAllKeepingCapacity(); entries.removeAllKeepingCapacity()
            }
            return
        }
        var lo = boxes[Int(ids[0])].lower, hi = boxes[Int(ids[0])].upper
        for k in 1..<n {
            let b = boxes[Int(ids[k])]
            lo = vmin(lo, b.lower); hi = vmax(hi, b.upper)
        }
        var size = max(requested, 1.0e-3)
        let ext = hi - lo
        // Cap the number of cells at ~4 per shape (and at least 16).
        let maxCells = Float(max(16, 4 * n))
        while (ext.x / size + 1) * (ext.y / size + 1) > maxCells { size *= 1.5 }
        origin = lo
        cellSize = size
        invCellSize = 1 / size
        nx = Int32(ext.x * invCellSize) + 1
        ny = Int32(ext.y * invCellSize) + 1
        let cells = Int(nx) * Int(ny)

        if workers > 1, n >= minParallel, ny >= 2, let pipeline {
            buildParallel(ids: ids, boxes: boxes, cells: cells, workers: workers, pipeline: pipeline, filter: filter)
            return
        }
        if ranges.count < n { ranges.append(contentsOf: repeatElement(SIMD4<Int32>(), count: n - ranges.count)) }
        if cellStart.count < cells + 1 { cellStart.append(contentsOf: repeatElement(0, count: cells + 1 - cellStart.count)) }
        let nxI = Int(nx)
        var total = 0
        let geo = GridGeometry(origin: origin, invCellSize: invCellSize, nx: nx, ny: ny)
        do {
            let rg = ranges.mutableView, cs = cellStart.mutableView
            for c in 0...cells { cs[c] = 0 }
            for k in 0..<n {
                let r = geo.cellRange(boxes[Int(ids[k])])
                rg[k] = r
                for y in r.y...r.w {
                    let row = Int(y) * nxI
                    for x in r.x...r.z { cs[row + Int(x) + 1] &+= 1 }
                }
            }
            for c in 0..<cells { cs[c + 1] &+= cs[c] }
            total = Int(cs[cells])
        }
        if entries.count < total { entries.append(contentsOf: repeatElement(0, count: total - entries.count)) }
        if filter != nil && entryMasks.count < total { entryMasks.append(contentsOf: repeatElement(0, count: total - entryMasks.count)) }
        let masks = filter != nil ? entryMasks.mutableView : nil
        do {
            let rg = ranges.view, cs = cellStart.mutableView, en = entries.mutableView
            // Fill using cs[c] as the write cursor, then shift back. (Two loops: an
            // optional mask inside one loop would slow the grids built without masks.)
            if let filter, let masks {
                for k in 0..<n {
                    let r = rg[k]
                    let id = ids[k]
                    let mask = filter.mask(of: Int(id))
                    for y in r.y...r.w {
                        let row = Int(y) * nxI
                        for x in r.x...r.z {
                            let c = row + Int(x)
                            en[Int(cs[c])] = id
                            masks[Int(cs[c])] = mask
                            cs[c] &+= 1
                        }
                    }
                }
            } else {
                for k in 0..<n {
                    let r = rg[k]
                    let id = ids[k]
                    for y in r.y...r.w {
                        let row = Int(y) * nxI
                        for x in r.x...r.z {
                            let c = row + Int(x)
                            en[Int(cs[c])] = id
                            cs[c] &+= 1
                        }
                    }
                }
            }
            var c = cells
            while c > 0 { cs[c] = cs[c - 1]; c -= 1 }
            cs[0] = 0
        }
        if filter != nil { buildRunEnds(cells: cells, total: total) }
    }

    /// `entryRunEnds` for the entries and masks just built (each cell from its end back).
    mutating func buildRunEnds(cells: Int, total: Int) {
        if entryRunEnds.count < total { entryRunEnds.append(contentsOf: repeatElement(0, count: total - entryRunEnds.count)) }
        let cs = cellStart.view, masks = entryMasks.view, runs = entryRunEnds.mutableView
        for c in 0..<cells {
            let start = Int(cs[c]), end = Int(cs[c + 1])
            guard end > start else { continue }
            var e = end - 1
            runs[e] = Int32(end)
            while e > start {
                e -= 1
                runs[e] = masks[e] == masks[e + 1] ? runs[e + 1] : Int32(e + 1)
            }
        }
    }
}

extension UniformGrid {
    /// The parallel counting sort, split by bands of grid rows so that every cell is counted
    /// and filled by one thread only, in stages of one pipeline run: (0) the cell range of
    /// each block of shapes; (1) per band: count the cells of the band (every shape is scanned,
    /// only its part inside the band counts) and sum them up locally; (2) serially, the first
    /// entry of each band; then, after `entries` has grown, (3) per band: write the entries
    /// (shapes in increasing order, as the serial build) and the final cell starts.
    mutating func buildParallel(ids: View<Int32>, boxes: View<AABB>, cells: Int,
                                workers: Int, pipeline: StagePipeline, filter: CollisionFilter?) {
        let n = ids.count
        let rowsPerBand = (Int(ny) + workers - 1) / workers
        let bands = (Int(ny) + rowsPerBand - 1) / rowsPerBand
        let shapeBlock = (n + workers - 1) / workers
        if bandTotals.count < bands + 1 { bandTotals.append(contentsOf: repeatElement(0, count: bands + 1 - bandTotals.count)) }
        if ranges.count < n { ranges.append(contentsOf: repeatElement(SIMD4<Int32>(), count: n - ranges.count)) }
        if cellStart.count < cells + 1 { cellStart.append(contentsOf: repeatElement(0, count: cells + 1 - cellStart.count)) }
        let geo = GridGeometry(origin: origin, invCellSize: invCellSize, nx: nx, ny: ny)
        var v = GridBuildViews(ids: ids, boxes: boxes, geo: geo, cells: cells, bands: bands,
                               ranges: ranges.mutableView, cellStart: cellStart.mutableView,
                               totals: bandTotals.mutableView, entries: nil, filter: filter, entryMasks: nil)
        let counter = v
        pipeline.stages.removeAllKeepingCapacity()
        pipeline.stages.append(Stage(kind: 0, pass: 0, island: -1, begin: 0, end: Int32(n), blockSize: Int32(shapeBlock)))
        pipeline.stages.append(Stage(kind: 1, pass: 0, island: -1, begin: 0, end: Int32(ny), blockSize: Int32(rowsPerBand)))
        pipeline.stages.append(Stage(kind: 2, pass: 0, island: -1, begin: 0, end: 1, blockSize: 1))
        pipeline.run(workers: workers, counter)
        let total = Int(bandTotals[bands])
        if entries.count < total { entries.append(contentsOf: repeatElement(0, count: total - entries.count)) }
        v.entries = entries.mutableView
        if filter != nil {
            if entryMasks.count < total { entryMasks.append(contentsOf: repeatElement(0, count: total - entryMasks.count)) }
            v.entryMasks = entryMasks.mutableView
        }
        let filler = v
        pipeline.stages.removeAllKeepingCapacity()
        pipeline.stages.append(Stage(kind: 3, pass: 0, island: -1, begin: 0, end: Int32(ny), blockSize: Int32(rowsPerBand)))
        pipeline.run(workers: workers, filler)
        cellStart[cells] = Int32(total)
        if filter != nil { buildRunEnds(cells: cells, total: total) }
    }
}

/// Views of a grid under construction (see `UniformGrid.buildParallel`); each stage's
/// blocks write disjoint parts (their shapes' ranges, or their band's cells and entries).
struct GridBuildViews: StageExecutor, @unchecked Sendable {
    var ids: View<Int32>
    var boxes: View<AABB>
    var geo: GridGeometry
    var cells: Int
    var bands: Int
    var ranges: MutableView<SIMD4<Int32>>
    var cellStart: MutableView<Int32>
    var totals: MutableView<Int32>
    var entries: MutableView<Int32>?
    var filter: CollisionFilter?
    var entryMasks: MutableView<UInt64>?

    func execute(_ stage: Stage, _ block: Int) {
        let r = stage.items(block)
        let nxI = Int(geo.nx)
        switch stage.kind {
        case 0:  // cell ranges of this block of shapes
            for k in r { ranges[k] = geo.cellRange(boxes[Int(ids[k])]) }
        case 1:  // count the band's cells (rows r), then local starts; the band's total
            let y0 = Int32(r.lowerBound), y1 = Int32(r.upperBound - 1)
            let c0 = r.lowerBound * nxI, c1 = r.upperBound * nxI
            for c in c0..<c1 { cellStart[c] = 0 }
            for k in 0..<ids.count {
                let g = ranges[k]
                let ya = max(g.y, y0), yb = min(g.w, y1)
                if ya > yb { continue }
                for y in ya...yb {
                    let base = Int(y) * nxI
                    for x in g.x...g.z { cellStart[base + Int(x)] &+= 1 }
                }
            }
            var run: Int32 = 0
            for c in c0..<c1 { let t = cellStart[c]; cellStart[c] = run; run &+= t }
            totals[block] = run
        case 2:  // first entry of each band; totals[bands] = all entries
            var run: Int32 = 0
            for b in 0..<bands { let t = totals[b]; totals[b] = run; run &+= t }
            totals[bands] = run
        default:  // fill the band's entries, then make its cell starts global
            let y0 = Int32(r.lowerBound), y1 = Int32(r.upperBound - 1)
            let c0 = r.lowerBound * nxI, c1 = r.upperBound * nxI
            // (The band's entries: `totals[block] ..< totals[block + 1]`.)
            let band = Int(totals[block]) ..< Int(totals[block + 1])
            let en = entries!.subview(band)
            let em = entryMasks.map { $0.subview(band) }
            for k in 0..<ids.count {
                let g = ranges[k]
                let ya = max(g.y, y0), yb = min(g.w, y1)
                if ya > yb { continue }
                let id = ids[k]
                let mask = filter?.mask(of: Int(id)) ?? 0
                for y in ya...yb {
                    let base = Int(y) * nxI
                    for x in g.x...g.z {
                        let c = base + Int(x)
                        en[Int(cellStart[c])] = id
                        em?[Int(cellStart[c])] = mask
                        cellStart[c] &+= 1
                    }
                }
            }
            // Each cursor now points at the next cell's local start: shift back by one cell,
            // adding the band's first entry.
            let base = totals[block]
            var c = c1 - 1
            while c > c0 { cellStart[c] = cellStart[c - 1] &+ base; c -= 1 }
            cellStart[c0] = base
        }
    }
}

/// The placement of a grid, separate from its buffers so it can be read while they change.
struct GridGeometry {
    var origin: Vec2
    var invCellSize: Float
    var nx: Int32
    var ny: Int32

    /// The cell range covered by `box`, clamped to the grid. Coordinates are clamped first
    /// and then truncated, which equals rounding down for the non-negative values left (and
    /// compiles to a conversion instead of a call to `floorf` on baseline x86-64).
    @inline(__always)
    func cellRange(_ box: AABB) -> SIMD4<Int32> {
        let lo = (box.lower - origin) * invCellSize
        let hi = (box.upper - origin) * invCellSize
        let mx = Float(nx - 1), my = Float(ny - 1)
        return SIMD4(Int32(clamp(lo.x, 0, mx)), Int32(clamp(lo.y, 0, my)),
                     Int32(clamp(hi.x, 0, mx)), Int32(clamp(hi.y, 0, my)))
    }

    /// The cell containing point `p`, clamped.
    @inline(__always)
    func cell(of p: Vec2) -> SIMD2<Int32> {
        let q = (p - origin) * invCellSize
        return SIMD2(Int32(clamp(q.x, 0, Float(nx - 1))), Int32(clamp(q.y, 0, Float(ny - 1))))
    }
}

/// The collision filter masks of moving shapes, for a grid that stores them with its entries
/// (see `UniformGrid.entryMasks`): the body's item groups, or every bit for a body in a group
/// of index 64 or more (the world's slow path decides those). Two moving shapes whose masks
/// share no bit never collide (`PairContext.shouldCollide` says no), so a query may pass over
/// them; every other pair still goes through `shouldCollide`.
struct CollisionFilter: @unchecked Sendable {
    let shapes: View<ShapeRecord>
    let metas: View<BodyMeta>

    @inline(__always)
    func mask(of shape: Int) -> UInt64 {
        let m = metas[Int(shapes[shape].body)]
        return m.overflow ? ~0 : m.itemMask
    }
}

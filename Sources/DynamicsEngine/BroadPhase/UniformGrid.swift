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
    var cellStart: [Int32] = []
    var entries: [Int32] = []
    /// Per-shape cell range of the last build (x0, y0, x1, y1), indexed by position in the input.
    var ranges: [SIMD4<Int32>] = []

    /// Builds the grid over `ids` (shape slots) with boxes from `boxes` (indexed by shape slot).
    mutating func build(ids: UnsafeBufferPointer<Int32>, boxes: UnsafePointer<AABB>, cellSize requested: Float) {
        let n = ids.count
        guard n > 0 else {
            nx = 0; ny = 0
            cellStart.removeAll(keepingCapacity: true); entries.removeAll(keepingCapacity: true)
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

        if ranges.count < n { ranges.append(contentsOf: repeatElement(SIMD4<Int32>(), count: n - ranges.count)) }
        if cellStart.count < cells + 1 { cellStart.append(contentsOf: repeatElement(0, count: cells + 1 - cellStart.count)) }
        let nxI = Int(nx)
        var total = 0
        let geo = GridGeometry(origin: origin, invCellSize: invCellSize, nx: nx, ny: ny)
        ranges.withUnsafeMutableBufferPointer { rg in
            cellStart.withUnsafeMutableBufferPointer { cs in
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
        }
        if entries.count < total { entries.append(contentsOf: repeatElement(0, count: total - entries.count)) }
        ranges.withUnsafeBufferPointer { rg in
            cellStart.withUnsafeMutableBufferPointer { cs in
                entries.withUnsafeMutableBufferPointer { en in
                    // Fill using cs[c] as the write cursor, then shift back.
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
                    var c = cells
                    while c > 0 { cs[c] = cs[c - 1]; c -= 1 }
                    cs[0] = 0
                }
            }
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

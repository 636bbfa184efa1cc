extension World {
    /// The tight bounding box of shape `s` placed by `xf`.
    func shapeAABB(_ s: Int, _ xf: Transform) -> AABB {
        pool.vertices.withUnsafeBufferPointer { v in
            shapes.withUnsafeBufferPointer { sh in PairContext.shapeAABB(sh[s], xf, v.baseAddress!) }
        }
    }

    /// Updates moving boxes, rebuilds the moving grid and writes the sorted pair keys to
    /// `broadPhase.pairs`.
    func findPairs(dt: Float) {
        if staticDirty { rebuildStaticGrid() }
        // Work on the broad phase outside `self` so the loops below touch no class property.
        var bp = broadPhase
        broadPhase = BroadPhase()
        defer { broadPhase = bp }
        let half = 0.5 * speculativeDistance
        let maxMargin = half + 2 * settings.maxLinearSpeed * dt
        bp.moving.removeAll(keepingCapacity: true)
        bp.movingSmall.removeAll(keepingCapacity: true)
        bp.movingLarge.removeAll(keepingCapacity: true)
        bp.pairs.removeAll(keepingCapacity: true)
        let shapeCount = Int(shapeSlots.count)
        var sizeSum: Float = 0
        shapes.withUnsafeBufferPointer { sh in
        metas.withUnsafeBufferPointer { me in
        states.withUnsafeBufferPointer { st in
        sims.withUnsafeBufferPointer { si in
        pool.vertices.withUnsafeBufferPointer { vb in
        aabbs.withUnsafeMutableBufferPointer { bx in
            let verts = vb.baseAddress!
            for s in 0..<shapeCount where sh[s].alive && !sh[s].isStatic {
                let b = Int(sh[s].body)
                if me[b].awake {
                    let v = st[b]
                    let margin = min(half + dt * (length(v.v) + abs(v.w) * si[b].maxExtent), maxMargin)
                    bx[s] = PairContext.shapeAABB(sh[s], si[b].xf, verts).expanded(by: margin)
                }
                bp.moving.append(Int32(s))
                let e = bx[s].upper - bx[s].lower
                sizeSum += max(e.x, e.y)
            }
        }}}}}}
        let n = bp.moving.count
        guard n > 0 else { return }
        // Cell size ≈ 1.5 × the mean moving shape; shapes over 8 cells are "large".
        let cell = max(1, 1.5 * sizeSum / Float(n))
        bp.cellSize = cell
        let largeLimit = largeShapeCells * cell
        aabbs.withUnsafeBufferPointer { bx in
        shapeIsLarge.withUnsafeMutableBufferPointer { large in
            for s in bp.moving {
                let e = bx[Int(s)].upper - bx[Int(s)].lower
                if max(e.x, e.y) > largeLimit {
                    large[Int(s)] = 1; bp.movingLarge.append(s)
                } else {
                    large[Int(s)] = 0; bp.movingSmall.append(s)
                }
            }
            // A local reference (not a copy): reading bp.movingSmall while bp.grid is mutated
            // would otherwise make the compiler materialise a temporary array every step.
            let small = bp.movingSmall
            small.withUnsafeBufferPointer { ids in bp.grid.build(ids: ids, boxes: bx.baseAddress!, cellSize: cell) }
        }}
        // Pairs, emitter by emitter in slot order.
        shapes.withUnsafeBufferPointer { sh in
        metas.withUnsafeBufferPointer { me in
        aabbs.withUnsafeBufferPointer { bx in
        shapeIsLarge.withUnsafeBufferPointer { large in
            let ctx = PairContext(world: self, shapes: sh.baseAddress!, metas: me.baseAddress!,
                                  boxes: bx.baseAddress!, isLarge: large.baseAddress!)
            for k in 0..<n { ctx.emitPairs(for: Int(bp.moving[k]), into: &bp) }
        }}}}
    }
}

/// Read-only views of the world's shape data for pair finding. Valid only inside
/// `World.findPairs`, where the arrays are neither resized nor written.
struct PairContext {
    unowned(unsafe) let world: World
    let shapes: UnsafePointer<ShapeRecord>
    let metas: UnsafePointer<BodyMeta>
    let boxes: UnsafePointer<AABB>
    let isLarge: UnsafePointer<UInt8>

    @inline(__always)
    static func shapeAABB(_ rec: ShapeRecord, _ xf: Transform, _ verts: UnsafePointer<Vec2>) -> AABB {
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
        return AABB(lower: lo, upper: hi)
    }

    /// The collision filter for a candidate pair of shapes. Groups with index ≥ 64 take the
    /// world's slow path (rare: only when more than 64 groups are alive).
    @inline(__always)
    func shouldCollide(_ s: Int, _ t: Int) -> Bool {
        let a = Int(shapes[s].body), b = Int(shapes[t].body)
        if a == b { return false }
        let ma = metas[a], mb = metas[b]
        if ma.type != .dynamic && mb.type != .dynamic { return false }
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

    /// Emits the pairs of moving shape `s` (sorted by partner) into `bp.pairs`.
    @inline(__always)
    func emitPairs(for s: Int, into bp: inout BroadPhase) {
        bp.scratch.removeAll(keepingCapacity: true)
        let box = boxes[s]
        let key = UInt64(UInt32(s)) << 32
        // Static partners: the static grid, then the large static shapes.
        query(bp.staticGrid, box: box, from: s, after: -1, into: &bp.scratch, key: key)
        for t32 in bp.staticLarge {
            let t = Int(t32)
            if box.overlaps(boxes[t]) && shouldCollide(s, t) { bp.scratch.append(key | UInt64(UInt32(t))) }
        }
        // Moving partners.
        if isLarge[s] != 0 {
            // A large shape tests every moving shape: small ones always, large ones above it.
            for t32 in bp.moving {
                let t = Int(t32)
                if t == s || (isLarge[t] != 0 && t < s) { continue }
                if box.overlaps(boxes[t]) && shouldCollide(s, t) { bp.scratch.append(key | UInt64(UInt32(t))) }
            }
        } else {
            query(bp.grid, box: box, from: s, after: s, into: &bp.scratch, key: key)
        }
        // Sort this emitter's partners (few: insertion sort) and append.
        bp.scratch.withUnsafeMutableBufferPointer { sc in
            let m = sc.count
            if m > 1 {
                for i in 1..<m {
                    let v = sc[i]
                    var j = i - 1
                    while j >= 0 && sc[j] > v { sc[j + 1] = sc[j]; j -= 1 }
                    sc[j + 1] = v
                }
            }
        }
        bp.pairs.append(contentsOf: bp.scratch)
    }

    /// Partners of `s` in `grid` with slot > `after`, each reported once: only in the cell
    /// holding the lower corner of the two boxes' intersection.
    @inline(__always)
    func query(_ grid: UniformGrid, box: AABB, from s: Int, after: Int, into out: inout [UInt64], key: UInt64) {
        guard grid.nx > 0 else { return }
        let geo = GridGeometry(origin: grid.origin, invCellSize: grid.invCellSize, nx: grid.nx, ny: grid.ny)
        let r = geo.cellRange(box)
        let nx = Int(grid.nx)
        grid.cellStart.withUnsafeBufferPointer { cs in
            grid.entries.withUnsafeBufferPointer { en in
                for y in r.y...r.w {
                    for x in r.x...r.z {
                        let c = Int(y) * nx + Int(x)
                        for e in Int(cs[c])..<Int(cs[c + 1]) {
                            let t = Int(en[e])
                            if t <= after { continue }
                            let tb = boxes[t]
                            guard box.overlaps(tb) else { continue }
                            let ref = geo.cell(of: vmax(box.lower, tb.lower))
                            guard ref.x == x && ref.y == y else { continue }
                            if shouldCollide(s, t) { out.append(key | UInt64(UInt32(t))) }
                        }
                    }
                }
            }
        }
    }
}

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
        // The broad phase in place (`broadPhase` is exclusivity-unchecked and nothing below
        // reads it through `self`): moving it out and back, or copying it, retained and
        // released every buffer of the struct each step.
        findPairs(dt: dt, &broadPhase)
    }

    private func findPairs(dt: Float, _ bp: inout BroadPhase) {
        let half = 0.5 * speculativeDistance
        let maxMargin = half + 2 * settings.maxLinearSpeed * dt
        let shapeCount = Int(shapeSlots.count)
        // The moving shapes in slot order, written through pointers (the lists only grow).
        if bp.moving.count < shapeCount { bp.moving.append(contentsOf: repeatElement(0, count: shapeCount - bp.moving.count)) }
        var movingCount = 0
        shapes.withUnsafeMutableBufferPointer { sh in
            bp.moving.withUnsafeMutableBufferPointer { mv in
                for s in 0..<shapeCount where sh[s].alive && !sh[s].isStatic { mv[movingCount] = Int32(s); movingCount += 1 }
            }
        }
        bp.moving.removeLast(bp.moving.count - movingCount)
        // Boxes of awake moving shapes, in parallel (each worker its own shapes); a shape whose
        // box left its fat box raises `escaped`. (Every step, so the buffers only read are
        // opened mutably, in place: a read-only view of a class property retained and released
        // its array; these arrays are never shared, so no copy is made.)
        let workers = stepWorkers
        boxEscaped.clear()
        shapes.withUnsafeMutableBufferPointer { sh in
        metas.withUnsafeMutableBufferPointer { me in
        states.withUnsafeMutableBufferPointer { st in
        sims.withUnsafeMutableBufferPointer { si in
        pool.vertices.withUnsafeMutableBufferPointer { vb in
        fatBoxes.withUnsafeMutableBufferPointer { fb in
        aabbs.withUnsafeMutableBufferPointer { bx in
        bp.moving.withUnsafeMutableBufferPointer { mv in
            let v = BoxUpdate(shapes: orDummy(UnsafePointer(sh.baseAddress)), metas: orDummy(UnsafePointer(me.baseAddress)),
                              states: orDummy(UnsafePointer(st.baseAddress)), sims: orDummy(UnsafePointer(si.baseAddress)),
                              verts: orDummy(UnsafePointer(vb.baseAddress)), boxes: orDummy(bx.baseAddress),
                              fat: orDummy(UnsafePointer(fb.baseAddress)), escaped: boxEscaped,
                              moving: orDummy(UnsafePointer(mv.baseAddress)), half: half, maxMargin: maxMargin, dt: dt)
            Parallel.forRanges(workers: workers, count: mv.count, minPerWorker: 1024, v)
        }}}}}}}}
        // Nothing moved out of its fat box and nothing structural changed: last step's pairs
        // are still every pair (and a few more whose fat boxes overlap), in the same order.
        if !broadPhaseDirty && !boxEscaped.isSet && movingCount == bp.lastMovingCount {
            pairsReusedSteps += 1
            return
        }
        broadPhaseDirty = false
        bp.lastMovingCount = movingCount
        bp.movingLarge.removeAll(keepingCapacity: true)
        bp.pairs.removeAll(keepingCapacity: true)
        // The fat boxes of this build.
        let fatMargin = self.fatMargin
        aabbs.withUnsafeBufferPointer { bx in
        fatBoxes.withUnsafeMutableBufferPointer { fb in
            for s in bp.moving { fb[Int(s)] = bx[Int(s)].expanded(by: fatMargin) }
        }}
        // Mean size (serial, in slot order: the cell size never depends on the worker count).
        var sizeSum: Float = 0
        fatBoxes.withUnsafeBufferPointer { bx in
            bp.moving.withUnsafeBufferPointer { mv in
                for s in mv {
                    let e = bx[Int(s)].upper - bx[Int(s)].lower
                    sizeSum += max(e.x, e.y)
                }
            }
        }
        let n = bp.moving.count
        guard n > 0 else { return }
        // Cell size ≈ 1.5 × the mean moving shape; shapes over 8 cells are "large".
        let cell = max(1, 1.5 * sizeSum / Float(n))
        bp.cellSize = cell
        let largeLimit = largeShapeCells * cell
        fatBoxes.withUnsafeBufferPointer { bx in
        shapeIsLarge.withUnsafeMutableBufferPointer { large in
            // Small shapes through a pointer (the list only grows); large ones are rare.
            if bp.movingSmall.count < n { bp.movingSmall.append(contentsOf: repeatElement(0, count: n - bp.movingSmall.count)) }
            var smallCount = 0
            bp.moving.withUnsafeBufferPointer { mv in
            bp.movingSmall.withUnsafeMutableBufferPointer { sm in
                for s in mv {
                    let e = bx[Int(s)].upper - bx[Int(s)].lower
                    if max(e.x, e.y) > largeLimit {
                        large[Int(s)] = 1; bp.movingLarge.append(s)
                    } else {
                        large[Int(s)] = 0; sm[smallCount] = s; smallCount += 1
                    }
                }
            }}
            bp.movingSmall.removeLast(bp.movingSmall.count - smallCount)
            // A local reference (not a copy): reading bp.movingSmall while bp.grid is mutated
            // would otherwise make the compiler materialise a temporary array every step.
            let small = bp.movingSmall
            small.withUnsafeBufferPointer { ids in
                bp.grid.build(ids: ids, boxes: bx.baseAddress!, cellSize: cell, workers: workers, pipeline: pipeline,
                              minParallel: parallelMin(1024))
            }
        }}
        let tEmit = isProfiling ? StepProfile.now() : 0
        defer { if isProfiling { profile.pairEmission += StepProfile.now() - tEmit } }
        // Pairs: chunks of emitters claimed by the workers, each chunk into its own buffer;
        // concatenating the buffers in chunk order keeps the keys sorted.
        let chunkSize = 256
        let chunks = (n + chunkSize - 1) / chunkSize
        while bp.workerPairs.count < chunks { bp.workerPairs.append([]) }
        let staticGrid = bp.staticGrid, grid = bp.grid
        let moving = bp.moving, staticLarge = bp.staticLarge
        shapes.withUnsafeBufferPointer { sh in
        metas.withUnsafeBufferPointer { me in
        fatBoxes.withUnsafeBufferPointer { bx in
        shapeIsLarge.withUnsafeBufferPointer { large in
        staticGrid.cellStart.withUnsafeBufferPointer { scs in staticGrid.entries.withUnsafeBufferPointer { sen in
        grid.cellStart.withUnsafeBufferPointer { gcs in grid.entries.withUnsafeBufferPointer { gen in
        moving.withUnsafeBufferPointer { mv in staticLarge.withUnsafeBufferPointer { sl in
        bp.workerPairs.withUnsafeMutableBufferPointer { outs in
            let ctx = PairContext(world: self, shapes: orDummy(sh.baseAddress), metas: orDummy(me.baseAddress),
                                  boxes: orDummy(bx.baseAddress), isLarge: orDummy(large.baseAddress),
                                  staticGrid: GridView(staticGrid, orDummy(scs.baseAddress), orDummy(sen.baseAddress)),
                                  grid: GridView(grid, orDummy(gcs.baseAddress), orDummy(gen.baseAddress)),
                                  moving: mv, staticLarge: sl)
            let task = PairEmission(ctx: ctx, out: ChunkBuffers(outs.baseAddress!))
            Parallel.forChunks(workers: workers, count: n, chunkSize: chunkSize, counter: chunkCounter, task)
        }}}}}}}}}}}
        for c in 0..<chunks { bp.pairs.append(contentsOf: bp.workerPairs[c]) }
    }
}

/// Pair emission for one chunk of moving shapes into the chunk's own buffer.
struct PairEmission: RangeTask, @unchecked Sendable {
    let ctx: PairContext
    let out: ChunkBuffers<UInt64>
    func run(_ r: Range<Int>, part c: Int) {
        out.withBuffer(c) { pairs in
            pairs.removeAll(keepingCapacity: true)
            for k in r { ctx.emitPairs(for: Int(ctx.moving[k]), into: &pairs) }
        }
    }
}

/// Box update of moving shapes (each index of `moving` by one worker).
struct BoxUpdate: RangeTask, @unchecked Sendable {
    var shapes: UnsafePointer<ShapeRecord>
    var metas: UnsafePointer<BodyMeta>
    var states: UnsafePointer<BodyState>
    var sims: UnsafePointer<BodySim>
    var verts: UnsafePointer<Vec2>
    var boxes: UnsafeMutablePointer<AABB>
    var fat: UnsafePointer<AABB>
    var escaped: WorkFlag
    var moving: UnsafePointer<Int32>
    var half: Float
    var maxMargin: Float
    var dt: Float

    func run(_ r: Range<Int>, part: Int) { update(r) }

    func update(_ r: Range<Int>) {
        var out = false
        for k in r {
            let s = Int(moving[k])
            let b = Int(shapes[s].body)
            guard metas[b].awake else { continue }  // a sleeping shape keeps its box
            let v = states[b]
            // Swept, not grown on every side: the box covers the shape's path over the step
            // (its velocity at the start of the step), plus the speculative half-distance and
            // the arc of its rotation on every side. Two shapes that meet during the step
            // overlap somewhere on their paths, so their boxes overlap; two that only fall
            // side by side no longer make a pair (a falling pile of 100 000 bodies had ten
            // pairs per touching one).
            let reach = maxMargin - half
            let turn = min(dt * abs(v.w) * sims[b].maxExtent, reach)
            let d = vmin(vmax(dt * v.v, Vec2(-reach, -reach)), Vec2(reach, reach))
            var box = PairContext.shapeAABB(shapes[s], sims[b].xf, verts).expanded(by: half + turn)
            box.lower += vmin(d, .zero)
            box.upper += vmax(d, .zero)
            boxes[s] = box
            let f = fat[s]
            if !(box.lower.x >= f.lower.x && box.lower.y >= f.lower.y && box.upper.x <= f.upper.x && box.upper.y <= f.upper.y) { out = true }
        }
        if out { escaped.set() }
    }
}


/// A read-only view of a built grid.
struct GridView {
    var geo: GridGeometry
    var cellStart: UnsafePointer<Int32>
    var entries: UnsafePointer<Int32>
    init(_ g: UniformGrid, _ cs: UnsafePointer<Int32>, _ en: UnsafePointer<Int32>) {
        geo = GridGeometry(origin: g.origin, invCellSize: g.invCellSize, nx: g.nx, ny: g.ny)
        cellStart = cs; entries = en
    }
}

/// Read-only views of the world's shape data for pair finding. Valid only inside
/// `World.findPairs`, where the arrays are neither resized nor written.
struct PairContext: @unchecked Sendable {
    unowned(unsafe) let world: World
    let shapes: UnsafePointer<ShapeRecord>
    let metas: UnsafePointer<BodyMeta>
    let boxes: UnsafePointer<AABB>
    let isLarge: UnsafePointer<UInt8>
    let staticGrid: GridView
    let grid: GridView
    let moving: UnsafeBufferPointer<Int32>
    let staticLarge: UnsafeBufferPointer<Int32>

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

    /// Appends the pairs of moving shape `s` to `out`, sorted by partner. They are written in
    /// place and sorted there (no scratch buffer: per-chunk scratch arrays allocated side by
    /// side made the workers write to the same cache lines).
    @inline(__always)
    func emitPairs(for s: Int, into out: inout [UInt64]) {
        let start = out.count
        let box = boxes[s]
        let key = UInt64(UInt32(s)) << 32
        // Static partners: the static grid, then the large static shapes.
        query(staticGrid, box: box, from: s, after: -1, into: &out, key: key)
        for t32 in staticLarge {
            let t = Int(t32)
            if box.overlaps(boxes[t]) && shouldCollide(s, t) { out.append(key | UInt64(UInt32(t))) }
        }
        // Moving partners.
        if isLarge[s] != 0 {
            // A large shape tests every moving shape: small ones always, large ones above it.
            for t32 in moving {
                let t = Int(t32)
                if t == s || (isLarge[t] != 0 && t < s) { continue }
                if box.overlaps(boxes[t]) && shouldCollide(s, t) { out.append(key | UInt64(UInt32(t))) }
            }
        } else {
            query(grid, box: box, from: s, after: s, into: &out, key: key)
        }
        // Sort this emitter's partners (few: insertion sort) in place.
        let m = out.count - start
        guard m > 1 else { return }
        out.withUnsafeMutableBufferPointer { all in
            let sc = all.baseAddress! + start
            for i in 1..<m {
                let v = sc[i]
                var j = i - 1
                while j >= 0 && sc[j] > v { sc[j + 1] = sc[j]; j -= 1 }
                sc[j + 1] = v
            }
        }
    }

    /// Partners of `s` in `grid` with slot > `after`, each reported once: only in the cell
    /// holding the lower corner of the two boxes' intersection.
    @inline(__always)
    func query(_ g: GridView, box: AABB, from s: Int, after: Int, into out: inout [UInt64], key: UInt64) {
        guard g.geo.nx > 0 else { return }
        let geo = g.geo
        let r = geo.cellRange(box)
        let nx = Int(geo.nx)
        let cs = g.cellStart, en = g.entries
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

extension World {
    /// The tight bounding box of shape `s` placed by `xf`.
    func shapeAABB(_ s: Int, _ xf: Transform) -> AABB {
        let rec = shapes[s]
        if rec.kind == .circle {
            let c = xf.apply(rec.center)
            return AABB(lower: c - Vec2(rec.radius, rec.radius), upper: c + Vec2(rec.radius, rec.radius))
        }
        return pool.vertices.withUnsafeBufferPointer { v in
            let st = Int(rec.vertexStart)
            var lo = xf.apply(v[st]), hi = lo
            for k in 1..<Int(rec.vertexCount) {
                let p = xf.apply(v[st + k])
                lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p)
            }
            return AABB(lower: lo, upper: hi)
        }
    }

    /// Updates moving boxes, rebuilds the moving grid and writes the sorted pair keys to
    /// `broadPhase.pairs`.
    func findPairs(dt: Float) {
        if staticDirty { rebuildStaticGrid() }
        let half = 0.5 * speculativeDistance
        let maxMargin = half + 2 * settings.maxLinearSpeed * dt
        broadPhase.moving.removeAll(keepingCapacity: true)
        broadPhase.movingSmall.removeAll(keepingCapacity: true)
        broadPhase.movingLarge.removeAll(keepingCapacity: true)
        var sizeSum: Float = 0
        for s in 0..<Int(shapeSlots.count) where shapes[s].alive && !shapes[s].isStatic {
            let b = Int(shapes[s].body)
            if metas[b].awake {
                let st = states[b]
                let margin = min(half + dt * (length(st.v) + abs(st.w) * sims[b].maxExtent), maxMargin)
                aabbs[s] = shapeAABB(s, sims[b].xf).expanded(by: margin)
            }
            broadPhase.moving.append(Int32(s))
            let e = aabbs[s].upper - aabbs[s].lower
            sizeSum += max(e.x, e.y)
        }
        let n = broadPhase.moving.count
        broadPhase.pairs.removeAll(keepingCapacity: true)
        guard n > 0 else { return }
        // Cell size ≈ 1.5 × the mean moving shape; shapes over 8 cells are "large".
        let cell = max(1, 1.5 * sizeSum / Float(n))
        broadPhase.cellSize = cell
        for s in broadPhase.moving {
            let e = aabbs[Int(s)].upper - aabbs[Int(s)].lower
            if max(e.x, e.y) > largeShapeCells * cell {
                shapeIsLarge[Int(s)] = 1
                broadPhase.movingLarge.append(s)
            } else {
                shapeIsLarge[Int(s)] = 0
                broadPhase.movingSmall.append(s)
            }
        }
        broadPhase.movingSmall.withUnsafeBufferPointer { ids in
            aabbs.withUnsafeBufferPointer { bx in
                broadPhase.grid.build(ids: ids, boxes: bx.baseAddress!, cellSize: cell)
            }
        }
        for k in 0..<n {
            emitPairs(for: Int(broadPhase.moving[k]))
        }
    }

    /// Emits the pairs of moving shape `s` into `broadPhase.pairs` (sorted by partner).
    @inline(__always)
    func emitPairs(for s: Int) {
        broadPhase.scratch.removeAll(keepingCapacity: true)
        let box = aabbs[s]
        let key = UInt64(UInt32(s)) << 32
        // Static partners.
        let sg = broadPhase.staticGrid
        if sg.nx > 0 {
            let r = sg.cellRange(box)
            for y in r.y...r.w {
                for x in r.x...r.z {
                    let c = Int(y) * Int(sg.nx) + Int(x)
                    for e in Int(sg.cellStart[c])..<Int(sg.cellStart[c + 1]) {
                        let t = Int(sg.entries[e])
                        let tb = aabbs[t]
                        guard box.overlaps(tb) else { continue }
                        let ref = sg.cell(of: pointwiseMax(box.lower, tb.lower))
                        guard ref.x == x && ref.y == y else { continue }
                        if shouldCollide(s, t) { broadPhase.scratch.append(key | UInt64(UInt32(t))) }
                    }
                }
            }
        }
        for t32 in broadPhase.staticLarge {
            let t = Int(t32)
            if box.overlaps(aabbs[t]) && shouldCollide(s, t) { broadPhase.scratch.append(key | UInt64(UInt32(t))) }
        }
        // Moving partners.
        if shapeIsLarge[s] != 0 {
            // A large shape tests every moving shape: small ones always, large ones above it.
            for t32 in broadPhase.moving {
                let t = Int(t32)
                if t == s || (shapeIsLarge[t] != 0 && t < s) { continue }
                if box.overlaps(aabbs[t]) && shouldCollide(s, t) { broadPhase.scratch.append(key | UInt64(UInt32(t))) }
            }
        } else {
            let g = broadPhase.grid
            let r = g.cellRange(box)
            for y in r.y...r.w {
                for x in r.x...r.z {
                    let c = Int(y) * Int(g.nx) + Int(x)
                    for e in Int(g.cellStart[c])..<Int(g.cellStart[c + 1]) {
                        let t = Int(g.entries[e])
                        if t <= s { continue }
                        let tb = aabbs[t]
                        guard box.overlaps(tb) else { continue }
                        let ref = g.cell(of: pointwiseMax(box.lower, tb.lower))
                        guard ref.x == x && ref.y == y else { continue }
                        if shouldCollide(s, t) { broadPhase.scratch.append(key | UInt64(UInt32(t))) }
                    }
                }
            }
        }
        // Sort this emitter's partners (few: insertion sort) and append.
        let m = broadPhase.scratch.count
        if m > 1 {
            for i in 1..<m {
                let v = broadPhase.scratch[i]
                var j = i - 1
                while j >= 0 && broadPhase.scratch[j] > v { broadPhase.scratch[j + 1] = broadPhase.scratch[j]; j -= 1 }
                broadPhase.scratch[j + 1] = v
            }
        }
        broadPhase.pairs.append(contentsOf: broadPhase.scratch)
    }

    /// The collision filter for a candidate pair of shapes.
    @inline(__always)
    func shouldCollide(_ s: Int, _ t: Int) -> Bool {
        let a = Int(shapes[s].body), b = Int(shapes[t].body)
        if a == b { return false }
        if metas[a].type != .dynamic && metas[b].type != .dynamic { return false }
        if shapes[t].isBoundary { return bodyCollidesWithBoundary(a, group: shapes[t].boundaryGroup) }
        if shapes[s].isBoundary { return bodyCollidesWithBoundary(b, group: shapes[s].boundaryGroup) }
        return bodiesCollide(a, b)
    }
}

/// The closest hit of a ray cast.
public struct RayHit: Sendable, Equatable {
    /// The body hit, or nil when the ray hit a boundary.
    public var body: BodyHandle?
    public var boundary: BoundaryHandle?
    /// The world point hit and the surface normal there (facing the ray).
    public var point: Vec2
    public var normal: Vec2
    /// Fraction of the ray's translation at the hit (0 … 1).
    public var fraction: Float
}

extension World {
    /// Number of islands (groups of awake dynamic bodies linked by contacts or joints) the last
    /// step solved.
    public var islandCount: Int { islands.count }

    /// Reads the placement of every body in `handles` into `out` (resized to match), in one
    /// pass: the bulk path for writing results back to items.
    /// - Precondition: every handle is a live body of this world.
    public func transforms(of handles: [BodyHandle], into out: inout [Transform]) {
        if out.count != handles.count { out = Array(repeating: .identity, count: handles.count) }
        // (The world's buffers opened mutably, in place, only to be read: a read-only view of a
        // class property retained and released its array on every call.)
        handles.withUnsafeBufferPointer { hs in
        metas.withUnsafeMutableBufferPointer { me in
        sims.withUnsafeMutableBufferPointer { si in
        out.withUnsafeMutableBufferPointer { o in
            for k in 0..<hs.count {
                let i = Int(hs[k].index)
                precondition(i >= 0 && i < me.count && me[i].alive && me[i].generation == hs[k].generation,
                             "transforms(of:into:): \(hs[k]) is not a live body of this world")
                o[k] = si[i].xf
            }
        }}}}
    }

    /// Bodies (not boundaries) whose bounding box overlaps `box`, in slot order. Static
    /// bodies are included; the boundary owner is not.
    public func bodies(overlapping box: AABB) -> [BodyHandle] {
        precondition(box.isValid, "bodies(overlapping:): the box must be finite with lower ≤ upper")
        var out: [BodyHandle] = []
        for i in 0..<Int(bodySlots.count) where metas[i].alive && Int32(i) != boundaryBody {
            var hit = false
            forEachShape(of: i) { s in
                if !hit && shapeAABB(s, sims[i].xf).overlaps(box) { hit = true }
            }
            if hit { out.append(handle(ofBody: i)) }
        }
        return out
    }

    /// Casts a ray from `origin` along `translation` and returns the closest shape hit
    /// (bodies and boundaries), or nil. A ray starting inside a shape does not hit it.
    public func rayCast(from origin: Vec2, translation: Vec2) -> RayHit? {
        precondition(origin.isFinite && translation.isFinite, "rayCast: origin and translation must be finite")
        let end = origin + translation
        let rayBox = AABB(lower: pointwiseMin(origin, end), upper: pointwiseMax(origin, end))
        var best: RayHit? = nil
        pool.vertices.withUnsafeBufferPointer { vb in
            pool.normals.withUnsafeBufferPointer { nb in
                guard let v = vb.baseAddress, let n = nb.baseAddress else { return }
                for s in 0..<Int(shapeSlots.count) where shapes[s].alive {
                    let b = Int(shapes[s].body)
                    let xf = sims[b].xf
                    guard shapeAABB(s, xf).overlaps(rayBox) else { continue }
                    guard let hit = RayCaster.cast(shapeView(s, v, n), xf, origin: origin, translation: translation) else { continue }
                    if best == nil || hit.fraction < best!.fraction {
                        let isBoundary = shapes[s].isBoundary
                        best = RayHit(body: isBoundary ? nil : handle(ofBody: b),
                                      boundary: isBoundary ? BoundaryHandle(shape: Int32(s), generation: shapes[s].generation) : nil,
                                      point: hit.point, normal: hit.normal, fraction: hit.fraction)
                    }
                }
            }
        }
        return best
    }
}

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
        let me = metas.view, si = sims.view
        for k in handles.indices {
            let h = handles[k], i = Int(h.index)
            precondition(i >= 0 && i < me.count && me[i].alive && me[i].generation == h.generation,
                         "transforms(of:into:): \(h) is not a live body of this world")
            out[k] = si[i].xf
        }
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
        let v = pool.vertices.view, n = pool.normals.view
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
        return best
    }
}

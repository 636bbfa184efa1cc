/// Read-only inspection of a world's geometry, for renderers, debuggers and tests.
///
/// Nothing here is on the stepping path: the functions copy what they return, so call them
/// between steps (never while `step` runs), and expect an allocation per call.
extension World {
    /// The geometry of a body's shapes, in the body's local frame (the frame `transform(_:)`
    /// places), in the order they were created.
    ///
    /// Boxes come back as `.polygon` with their 4 corners (the world stores every box as a
    /// polygon); circles as `.circle`; segments (static bodies only) as `.segment`; capsules
    /// and rounded polygons as themselves. Ellipses
    /// come back as the polygons `Geometry.ellipse` made them. A stale handle is a programmer
    /// error (precondition).
    public func shapes(of h: BodyHandle) -> [Geometry] {
        let i = slot(h)
        var out: [Geometry] = []
        out.reserveCapacity(Int(metas[i].shapeCount))
        forEachShape(of: i) { s in out.append(geometry(ofShape: s)) }
        return out
    }

    /// The number of shapes of a body.
    public func shapeCount(of h: BodyHandle) -> Int { Int(metas[slot(h)].shapeCount) }

    /// Every live boundary (added with `addBoundary` or `addBoundaryPath`), in creation order.
    /// `endPoints(of:)` gives a boundary's end points in world coordinates.
    public var boundaries: [BoundaryHandle] {
        var out: [BoundaryHandle] = []
        let b = Int(boundaryBody)
        out.reserveCapacity(Int(metas[b].shapeCount))
        forEachShape(of: b) { s in
            out.append(BoundaryHandle(shape: Int32(s), generation: shapes[s].generation))
        }
        return out
    }

    /// Every live boundary segment as its two end points in world coordinates, in creation order
    /// (a path added with `addBoundaryPath` appears as its consecutive segments).
    public var boundarySegments: [(a: Vec2, b: Vec2)] {
        var out: [(a: Vec2, b: Vec2)] = []
        let b = Int(boundaryBody)
        out.reserveCapacity(Int(metas[b].shapeCount))
        forEachShape(of: b) { s in
            let st = Int(shapes[s].vertexStart)
            out.append((pool.vertices[st], pool.vertices[st + 1]))
        }
        return out
    }

    /// The geometry of one shape slot, in its body's frame.
    private func geometry(ofShape s: Int) -> Geometry {
        let rec = shapes[s]
        switch rec.kind {
        case .circle:
            return .circle(radius: rec.radius, center: rec.center)
        case .segment:
            let st = Int(rec.vertexStart)
            return .segment(pool.vertices[st], pool.vertices[st + 1])
        case .polygon:
            let vs = polygonVertices(s)
            if rec.radius > 0 { return vs.count == 2 ? .capsule(vs[0], vs[1], radius: rec.radius) : .roundedPolygon(vs, radius: rec.radius) }
            return .polygon(vs)
        }
    }
}

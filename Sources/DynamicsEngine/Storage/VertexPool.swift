/// A block allocator for polygon vertices: blocks of 4, 8, 16, 32 or 64 entries, reused.
struct VertexPool {
    let vertices = Column<Vec2>()
    let normals = Column<Vec2>()
    var free: [[Int32]] = Array(repeating: [], count: 5)

    static func sizeClass(_ n: Int) -> Int {
        var c = 0, cap = 4
        while cap < n { cap <<= 1; c += 1 }
        return c
    }

    /// Stores a shape's `count` vertices and their normals, `element(i)` giving vertex i and
    /// normal i, and returns where they start. (No list is passed in: a box's or a segment's
    /// vertices need no heap block.)
    mutating func allocate(count: Int, _ element: (Int) -> (vertex: Vec2, normal: Vec2)) -> Int32 {
        let c = Self.sizeClass(count)
        let start: Int
        if let s = free[c].popLast() {
            start = Int(s)
        } else {
            start = vertices.count
            let cap = 4 << c
            vertices.append(contentsOf: repeatElement(.zero, count: cap))
            normals.append(contentsOf: repeatElement(.zero, count: cap))
        }
        for i in 0..<count {
            let (v, n) = element(i)
            vertices[start + i] = v
            normals[start + i] = n
        }
        return Int32(start)
    }

    mutating func release(start: Int32, count: Int32) {
        free[Self.sizeClass(Int(count))].append(start)
    }
}

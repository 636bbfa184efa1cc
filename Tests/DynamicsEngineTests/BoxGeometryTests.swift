import Testing
@testable import DynamicsEngine

/// A box's vertices and normals are computed inline (`GeometryBuilder.box`), without the
/// arrays a general polygon uses: the same numbers, bit for bit, and the same errors.
@Suite("Box geometry without arrays")
struct BoxGeometryTests {
    static let boxes: [(hx: Float, hy: Float, center: Vec2, angle: Float)] = [
        (0.5, 0.5, .zero, 0), (125, 12.5, Vec2(3, -7), 0), (75, 333.5, Vec2(-40, 1e3), 0.3),
        (1e-3, 2e-3, Vec2(1, 1), -2.5), (40, 40, Vec2(1e4, -1e4), Float.pi / 2), (2, 9, .zero, 3.1),
    ]

    @Test("inline boxes equal the polygon of their corners exactly, and match the box analytically")
    func sameAsPolygon() throws {
        for b in Self.boxes {
            let inline = try GeometryBuilder.box(halfWidth: b.hx, halfHeight: b.hy, center: b.center, angle: b.angle)
            let poly = try GeometryBuilder.polygon(GeometryBuilder.boxPoints(halfWidth: b.hx, halfHeight: b.hy, center: b.center, angle: b.angle))
            #expect(Array(inline.vertices) == poly.vertices, "\(b)")
            #expect(Array(inline.normals) == poly.normals, "\(b)")
            #expect(inline.centroid == poly.centroid && inline.area == poly.area, "\(b)")
            // Analytic: area 4·hx·hy, centroid at the centre, unit normals along the turned axes.
            let scale = max(b.hx, b.hy)
            #expect(abs(inline.area - 4 * b.hx * b.hy) <= 1e-4 * 4 * b.hx * b.hy, "\(b): area \(inline.area)")
            #expect(length(inline.centroid - b.center) <= 1e-5 * max(scale, length(b.center)), "\(b): centroid \(inline.centroid)")
            let q = Rot(angle: b.angle)
            let expected = [Vec2(0, -1), Vec2(1, 0), Vec2(0, 1), Vec2(-1, 0)].map { q.rotate($0) }
            for i in 0..<4 { #expect(length(inline.normals[i] - expected[i]) < 1e-4, "\(b): normal \(i)") }
        }
    }

    @Test("bad boxes throw what the polygon path throws")
    func sameErrors() {
        let bad: [(Float, Float, Vec2, Float, GeometryError)] = [
            (0, 1, .zero, 0, .nonPositiveSize("box half extents")),
            (-1, 1, .zero, 0, .nonPositiveSize("box half extents")),
            (.nan, 1, .zero, 0, .nonFinite("box size, center or angle")),
            (1, 1, Vec2(.infinity, 0), 0, .nonFinite("box size, center or angle")),
            (1, 1, .zero, .nan, .nonFinite("box size, center or angle")),
            (1e-9, 1e3, .zero, 0, .zeroArea),
        ]
        for (hx, hy, c, a, error) in bad {
            #expect(throws: error) { try GeometryBuilder.box(halfWidth: hx, halfHeight: hy, center: c, angle: a) }
            #expect(throws: error) {
                try GeometryBuilder.polygon(GeometryBuilder.boxPoints(halfWidth: hx, halfHeight: hy, center: c, angle: a))
            }
        }
    }

    @Test("a box body's vertices in the world are the box's")
    func worldVertices() throws {
        let world = World(gravity: .zero)
        let b = try world.createBody(BodyDef(type: .dynamic, position: Vec2(10, 20)),
                                     shapes: [ShapeDef(.box(halfWidth: 3, halfHeight: 1.5, center: Vec2(1, 0), angle: 0.4))])
        let expected = try GeometryBuilder.box(halfWidth: 3, halfHeight: 1.5, center: Vec2(1, 0), angle: 0.4)
        #expect(world.shapes(of: b) == [.polygon(Array(expected.vertices))])
        let s = world.shapes[Int(world.metas[world.slot(b)].firstShape)]
        #expect(s.vertexCount == 4)
        for i in 0..<4 {
            #expect(world.pool.vertices[Int(s.vertexStart) + i] == expected.vertices[i])
            #expect(world.pool.normals[Int(s.vertexStart) + i] == expected.normals[i])
        }
        #expect(s.center == expected.centroid)
    }
}

import DynamicsEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `washer`: Box2D v3.2's benchmark of that name (`CreateWasher` in `shared/benchmarks.c`): a
/// kinematic drum — a ring with four vanes — turns at a constant rate and tumbles a grid of
/// small boxes, like a washing machine.
///
/// In metres, y up, as Box2D builds it: the drum, one kinematic body at (0, 10) moving at
/// 25°/s and (0.001, −0.002) m/s (Box2D's `kinematic` branch; the revolute-motor branch is not
/// built), of density 1 and friction 0.6 like every shape here. Its ring is 36 quadrilaterals
/// between radii 16 and 18, one per 10° (u₁ = the direction k · 10°, u₂ = the next, the last
/// closing at 0°: the next direction comes from turning the previous one by 10°), each widened
/// by 1° at both ends so that neighbours overlap; at k = 0, 9, 18 and 27 a vane spans the same
/// 10° between radii 14 and 16. G × G boxes of half size 0.1 from (−0.11 G, 10 − 0.11 G),
/// 0.21 m apart (row by row, upwards). Sleeping on (Box2D's default), 500 steps. G = 90
/// (8 100 boxes) is Box2D's release size, 20 its debug size.
///
/// Differences: Box2D asks for hit events from the boxes (`enableHitEvents`), which its
/// benchmark never reads; the engine has no hit events. Box2D's unused ground body (for the
/// motor branch) is left out.
///
/// Checks: `contained` — every box's centre within 16 m (the ring's inner radius) of the drum's
/// centre. Metrics: `outside_drum`, `drum_angle` (radians in −π … π).
enum WasherScene {
    static let descriptor = SceneDescriptor(
        name: "washer",
        summary: "Box2D v3.2's washer: a kinematic ring drum with 4 vanes turns at 25°/s, tumbling G × G small boxes, 500 steps",
        sizeMeaning: "boxes per row and per column of the grid (G; G² boxes)",
        // The grid's corners, 0.11 √2 G + 0.15 m from the centre, must stay inside the ring's
        // inner faces (16 cos 6° = 15.9 m).
        sizes: [20, 90], defaultSize: 90, steps: 500, maximumSize: 100, builder: build)

    static let center = SceneUnits.pt(0, 10)
    /// Radii (m) of the vanes' inner ends, the ring's inner face and its outer face.
    static let vaneRadius: Float = 14, innerRadius: Float = 16, outerRadius: Float = 18
    /// The drum's rate: 25°/s.
    static let turnRate = 25 * Float.pi / 180
    /// Half size (m) of a box.
    static let half: Float = 0.1

    /// The drum's 40 shapes (36 ring pieces and 4 vanes), in points, in the order Box2D adds them.
    static func drumShapes() -> [ShapeDef] {
        let m = SceneUnits.pointsPerMetre
        let sector = Float.pi / 18
        let turn = Rot(c: cosf(sector), s: sinf(sector))
        let widen = Rot(c: cosf(0.1 * sector), s: sinf(0.1 * sector))
        func piece(_ a: Vec2, _ b: Vec2, from r0: Float, to r1: Float) -> ShapeDef {
            let hull = Box2DBenchmark.convexHull([a * r0, a * r1, b * r0, b * r1])
            return ShapeDef(.polygon(hull.map { $0 * m }), material: SceneUnits.material)
        }
        var shapes: [ShapeDef] = []
        var u1 = Vec2(1, 0)
        for k in 0..<36 {
            let u2 = k == 35 ? Vec2(1, 0) : turn.rotate(u1)
            shapes.append(piece(widen.invRotate(u1), widen.rotate(u2), from: Self.innerRadius, to: Self.outerRadius))
            if k % 9 == 0 { shapes.append(piece(u1, u2, from: Self.vaneRadius, to: Self.innerRadius)) }
            u1 = u2
        }
        return shapes
    }

    /// Builds the drum and the boxes. Deterministic: `seed` is ignored.
    static func build(_ request: SceneDescriptor.Request) throws -> SceneInstance {
        let g = request.size
        let world = Box2DBenchmark.world(sleep: true)
        var drumDef = BodyDef(type: .kinematic, position: Self.center)
        drumDef.angularVelocity = Self.turnRate
        drumDef.linearVelocity = SceneUnits.pt(0.001, -0.002)
        let drum = try world.createBody(drumDef, shapes: Self.drumShapes())

        let shape = [ShapeDef(.box(halfWidth: SceneUnits.pt(Self.half), halfHeight: SceneUnits.pt(Self.half)),
                              material: SceneUnits.material)]
        var boxes: [BodyHandle] = []
        boxes.reserveCapacity(g * g)
        // Box2D steps x and y by adding the spacing; so does this, in metres.
        let start = -1.1 * Self.half * Float(g), pitch = 2.1 * Self.half
        var y = start + 10
        for _ in 0..<g {
            var x = start
            for _ in 0..<g {
                boxes.append(try world.createBody(BodyDef(type: .dynamic, position: SceneUnits.pt(x, y)), shapes: shape))
                x += pitch
            }
            y += pitch
        }
        // The ring's outer corners turn on a circle of about 18 m; the frame is a square 1 m
        // beyond it (the drum drifts by 2 mm/s). `contained` is the tight check.
        let reach = SceneUnits.pt(Self.outerRadius + 1)
        let frame = SceneFrame(groundLevel: Self.center.y - reach, yUp: true, bodySize: SceneUnits.pt(2 * Self.half),
                               boundsMin: Self.center - Vec2(reach, reach), boundsMax: Self.center + Vec2(reach, reach))
        let limit = SceneUnits.pt(Self.innerRadius)
        return request.instance(world: world, dynamicBodies: boxes, staticBodyCount: 0, frame: frame) { scene, report in
            let w = scene.world, c = w.position(drum)
            var outside = 0
            for b in boxes where !(Box2DBenchmark.separation(w.position(b), c) <= limit) { outside += 1 }
            report.metrics["outside_drum"] = Double(outside)
            report.metrics["drum_angle"] = Double(w.angle(drum))
            report.checks["contained"] = outside == 0
        }
    }
}

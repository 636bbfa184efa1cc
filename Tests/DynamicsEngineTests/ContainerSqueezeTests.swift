import Foundation
import Testing
@testable import DynamicsEngine

/// A container's one-sided wall against a driver nothing stops: a kinematic shoe turning
/// about the centre of a round loop (360 sides of 70 pt, radius 4 000 pt) at 160 m/s along
/// the wall, its outer face 20 pt past the wall (it does not collide with the wall), drags
/// a body round the loop and presses it outward harder than any contact pushes back. The
/// body slides across two sides of the loop a step while squeezed against them, which is
/// how `spinner`'s crowd, stirred by a bar on an unlimited motor, lost bodies.
@Suite("A container's wall against an unstoppable driver")
struct ContainerSqueezeTests {
    static let radius: Float = 4000

    /// Runs the shoe for `steps` steps over a body of `kind` (0 circle, 1 capsule, 2 box;
    /// core radius 35 pt) that starts 20 pt inside the wall under the shoe. Returns the
    /// smallest distance of its centre inside the loop's circle and the angle it travelled.
    static func dragged(kind: Int, steps: Int) throws -> (minInside: Float, travelled: Float) {
        var settings = WorldSettings()
        settings.isSleepEnabled = false
        let w = World(gravity: .zero, settings: settings)
        let loop = (0..<360).map { i -> Vec2 in
            let a = -2 * Float.pi * Float(i) / 360
            return Vec2(radius * cos(a), radius * sin(a))
        }
        try w.addBoundaryPath(loop, closed: true, group: .default, material: Material(density: 1, friction: 0, restitution: 0),
                              keepsBodiesInside: true)
        let driven = w.createCollisionGroup(mode: .items)
        // The shoe: 41 boxes 150 pt long along an arc of 80° round the bottom, 100 pt deep,
        // their outer faces 20 pt beyond the wall.
        let grip = Material(density: 1, friction: 1, restitution: 0)
        let shoe = (-20...20).map { k -> ShapeDef in
            let a = -Float.pi / 2 + Float(k) * Float.pi / 90
            let r = radius + 20 - 50
            return ShapeDef(.box(halfWidth: 75, halfHeight: 50, center: Vec2(r * cos(a), r * sin(a)), angle: a + Float.pi / 2),
                            material: grip)
        }
        var shoeDef = BodyDef(type: .kinematic, position: .zero)
        shoeDef.angularVelocity = 4
        shoeDef.groups = [driven]
        try w.createBody(shoeDef, shapes: shoe)
        var def = BodyDef(type: .dynamic, position: Vec2(0, -radius + 20))
        def.groups = [.default, driven]
        let geometry: Geometry = switch kind {
        case 0: .circle(radius: 35)
        case 1: .capsule(Vec2(-35, 0), Vec2(35, 0), radius: 35)
        default: .box(halfWidth: 35, halfHeight: 35)
        }
        let body = try w.createBody(def, shapes: [ShapeDef(geometry, material: Material(density: 0.25, friction: 1, restitution: 0))])
        var minInside = Float.infinity, travelled: Float = 0
        var last = w.worldCenter(body)
        for _ in 0..<steps {
            w.step(dt: 1.0 / 60.0)
            let c = w.worldCenter(body)
            minInside = min(minInside, radius - length(c))
            travelled += abs(atan2(cross(last, c), dot(last, c)))
            last = c
        }
        return (minInside, travelled)
    }

    @Test("a body a kinematic shoe drags along the loop at 160 m/s and presses past the wall stays half its core inside",
          arguments: [0, 1, 2])
    func draggedBodyStaysInside(kind: Int) throws {
        let (minInside, travelled) = try Self.dragged(kind: kind, steps: 120)
        // Dragged round the loop more than once (not left behind), squeezed into the wall
        // by half its core (17.5 pt), never further (0.5 pt for the sides being chords).
        #expect(travelled > 2 * Float.pi, "travelled \(travelled) rad")
        #expect(minInside > 17, "centre \(minInside) pt inside the wall")
    }
}

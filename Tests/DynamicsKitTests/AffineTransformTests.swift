import Foundation
import Testing
import DynamicsKit

/// `CGAffineTransform`'s rotation, which an animator uses to write a turned body's angle back
/// to its view every tick (Linux has no CoreGraphics: the package defines the type).
@Suite("CGAffineTransform rotations")
struct AffineTransformTests {
    static let angles: [CGFloat] = [0, 1e-9, 0.01, -0.3, 0.7853981633974483, 1.5, -2.9, 3.141592653589793, 7.25, -40]

    @Test("a rotation is (cos, sin, −sin, cos) with no translation, and reads back its angle")
    func rotationEntries() {
        for a in Self.angles {
            let t = CGAffineTransform(rotationAngle: a)
            #expect(t.a == cos(a) && t.d == cos(a), "angle \(a)")
            #expect(t.b == sin(a) && t.c == -sin(a), "angle \(a)")
            #expect(t.tx == 0 && t.ty == 0)
            // The angle read back, folded into (−π, π].
            let folded = atan2(sin(a), cos(a))
            #expect(abs(t.rotationAngle - folded) < 1e-12, "angle \(a): read back \(t.rotationAngle)")
        }
    }

    @Test("rotating by b after a is the rotation by a + b, and keeps a scale")
    func rotationsCompose() {
        for a in Self.angles {
            for b in [0.02, -1.1, 2.5] as [CGFloat] {
                let r = CGAffineTransform(rotationAngle: a).rotated(by: b)
                let e = CGAffineTransform(rotationAngle: a + b)
                for (x, y) in [(r.a, e.a), (r.b, e.b), (r.c, e.c), (r.d, e.d)] {
                    #expect(abs(x - y) < 1e-12, "a \(a), b \(b): \(r) against \(e)")
                }
                let s = CGAffineTransform(scaleX: 1.5, y: 1.5).rotated(by: b)
                #expect(abs((s.a * s.a + s.b * s.b).squareRoot() - 1.5) < 1e-12)
                #expect(abs(s.rotationAngle - b) < 1e-12)
            }
        }
    }
}

import Foundation
import Testing
@testable import DynamicsEngine

/// The engine's own arctangent (`solverAtan2`, behind `Rot.relativeAngle`, every joint angle
/// and `Rot.portableAngle`) against `atan2` in double precision.
@Suite("The solver's arctangent")
struct SolverAtanTests {
    /// Error of `solverAtan2(y, x)` against the exact angle, in units of the exact angle's
    /// last place (float), so small and large angles are judged alike.
    static func ulps(_ y: Float, _ x: Float) -> Double {
        let exact = atan2(Double(y), Double(x))
        let got = Double(solverAtan2(y, x))
        let ulp = Double(Float(exact).ulp)
        return abs(got - exact) / ulp
    }

    @Test("within 3 ulps of the exact angle all round the circle, at every radius")
    func aroundTheCircle() {
        var worst = 0.0
        for k in 0..<200_000 {
            let a = -Double.pi + 2 * Double.pi * (Double(k) + 0.5) / 200_000
            for r in [1.0, 1e-6, 3.5e4] {
                let y = Float(r * sin(a)), x = Float(r * cos(a))
                worst = max(worst, Self.ulps(y, x))
            }
        }
        #expect(worst <= 3, "worst error \(worst) ulps")
    }

    @Test("small turns keep their relative precision (the solver's within-step angles)")
    func smallAngles() {
        var worst = 0.0
        var t: Float = 1e-30
        while t < 1 {
            for (y, x) in [(t, Float(1)), (-t, Float(1)), (t, Float(-1)), (Float(1), t), (Float(-1), -t)] {
                worst = max(worst, Self.ulps(y, x))
            }
            t *= 1.07
        }
        #expect(worst <= 3, "worst error \(worst) ulps")
    }

    @Test("axes, signed zeros and NaN as atan2f gives them")
    func axesSignedZerosAndNaNMatchAtan2f() {
        #expect(solverAtan2(0, 1) == 0 && solverAtan2(0, 1).sign == .plus)
        #expect(solverAtan2(-0.0, 1) == 0 && solverAtan2(-0.0, 1).sign == .minus)
        #expect(solverAtan2(0, -1) == Float.pi)
        #expect(solverAtan2(-0.0, -1) == -Float.pi)
        #expect(solverAtan2(0, 0) == 0 && solverAtan2(0, -0.0) == Float.pi && solverAtan2(-0.0, -0.0) == -Float.pi)
        #expect(solverAtan2(1, 0) == Float.pi / 2 && solverAtan2(-1, 0) == -Float.pi / 2)
        #expect(abs(solverAtan2(1, 1) - Float.pi / 4) <= Float.pi.ulp / 4)
        #expect(solverAtan2(.nan, 1).isNaN && solverAtan2(1, .nan).isNaN && solverAtan2(.nan, .nan).isNaN)
    }

    @Test("a rotation's portable angle: its (c, s) angle within 3 ulps, and the C library's within 4")
    func portableAngle() {
        var worst = 0.0, worstLibrary = 0.0
        for k in 0..<20_000 {
            let q = Rot(angle: Float(-Double.pi + 2 * Double.pi * (Double(k) + 0.5) / 20_000))
            let exact = atan2(Double(q.s), Double(q.c)), ulp = Double(Float(exact).ulp)
            worst = max(worst, abs(Double(q.portableAngle) - exact) / ulp)
            worstLibrary = max(worstLibrary, abs(Double(q.portableAngle) - Double(q.angle)) / ulp)
        }
        #expect(worst <= 3, "worst error \(worst) ulps")
        #expect(worstLibrary <= 4, "worst difference from atan2f \(worstLibrary) ulps")
    }

    @Test("relative angles of rotations: b relative to a, wrapped into [-π, π]")
    func relativeAngles() {
        for k in 0..<1_000 {
            let a = Float(k) * 0.0137 - 6, b = Float(k) * -0.0291 + 5
            var exact = Double(b) - Double(a)
            while exact > .pi { exact -= 2 * .pi }
            while exact < -.pi { exact += 2 * .pi }
            // (The rotations themselves are rounded: compare within a few float ulps of π.)
            #expect(abs(Double(Rot.relativeAngle(Rot(angle: b), Rot(angle: a))) - exact) < 1e-6, "a \(a), b \(b)")
        }
    }
}

@testable import DynamicsKit
import Foundation
import Testing

/// Spring and cubic timing against analytic results: the damped harmonic oscillator
/// integrated numerically (RK4, independent of the closed form the code evaluates), the spring
/// DynamicsKit derives from a duration and a damping ratio, and Core Animation's Béziers.
/// Every test uses its own clock.
@Suite("Spring and cubic timing")
struct SpringTimingTests {
    /// x″ + 2ζω₀x′ + ω₀²x = 0 from x(0) = 1, x′(0) = −v, by classical Runge–Kutta with step
    /// `h`; returns (x, x′) at each of `times` (ascending).
    static func oscillator(zeta: Double, omega: Double, velocity v: Double, at times: [Double], h: Double = 1e-4) -> [(Double, Double)] {
        func f(_ x: Double, _ y: Double) -> (Double, Double) { (y, -2 * zeta * omega * y - omega * omega * x) }
        var x = 1.0, y = -v, t = 0.0
        var out: [(Double, Double)] = []
        for target in times {
            while t < target - 1e-15 {
                let dt = min(h, target - t)
                let k1 = f(x, y)
                let k2 = f(x + dt / 2 * k1.0, y + dt / 2 * k1.1)
                let k3 = f(x + dt / 2 * k2.0, y + dt / 2 * k2.1)
                let k4 = f(x + dt * k3.0, y + dt * k3.1)
                x += dt / 6 * (k1.0 + 2 * k2.0 + 2 * k3.0 + k4.0)
                y += dt / 6 * (k1.1 + 2 * k2.1 + 2 * k3.1 + k4.1)
                t += dt
            }
            out.append((x, y))
        }
        return out
    }

    static let sampleTimes = (1...50).map { Double($0) * 0.03 }   // 50 times over 1.5 s

    @Test("closed form of the under-, critically and over-damped spring: position and velocity within 1e-6 of the distance at 50 times",
          arguments: [(0.15, 14.0), (0.5, 9.0), (1.0, 10.0), (2.5, 8.0), (4.56, (1000.0 / 3).squareRoot())])
    func closedFormAgainstIntegration(zeta: Double, omega: Double) {
        let spring = SpringResponse(dampingRatio: zeta, omega: omega)
        for v in [0.0, 3.0, -2.0] {
            let reference = Self.oscillator(zeta: zeta, omega: omega, velocity: v, at: Self.sampleTimes)
            for (t, (x, dx)) in zip(Self.sampleTimes, reference) {
                let p = spring.progress(at: t, velocity: v), dp = spring.progressVelocity(at: t, velocity: v)
                #expect(abs(p - (1 - x)) < 1e-6, "ζ \(zeta) v \(v) t \(t): progress \(p) vs \(1 - x)")
                #expect(abs(dp - (-dx)) < 1e-6, "ζ \(zeta) v \(v) t \(t): velocity \(dp) vs \(-dx)")
            }
            #expect(spring.progress(at: 0, velocity: v) == 0)
            #expect(abs(spring.progressVelocity(at: 0, velocity: v) - v) < 1e-12)
        }
    }

    @Test("a physical spring animator presents the integrated oscillator frame by frame, per axis, and lasts its settling time")
    func physicalSpringAnimator() {
        let clock = AnimationClock()
        let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))   // centre (10, 10)
        let (m, k, c) = (2.0, 300.0, 18.0)
        let zeta = c / (2 * (k * m).squareRoot()), omega = (k / m).squareRoot()   // ζ ≈ 0.367: under-damped
        let params = SpringTimingParameters(mass: m, stiffness: k, damping: c, initialVelocity: CGVector(dx: 2, dy: -1))
        #expect(abs(Double(params.dampingRatio) - zeta) < 1e-12)
        let animator = ViewPropertyAnimator(duration: 0.3, timingParameters: params, clock: clock)
        animator.addAnimations { v.center = CGPoint(x: 210, y: 110) }
        var done: [ViewAnimatingPosition] = []
        animator.addCompletion { done.append($0) }
        animator.startAnimation()
        #expect(v.center == CGPoint(x: 210, y: 110), "the model value changes at once")
        let frames = 50
        let times = (1...frames).map { Double($0) / 60 }
        let xs = Self.oscillator(zeta: zeta, omega: omega, velocity: 2, at: times)
        let ys = Self.oscillator(zeta: zeta, omega: omega, velocity: -1, at: times)
        for i in 0..<frames {
            clock.advance(by: 1.0 / 60)
            let p = v.presentation.center
            #expect(abs(Double(p.x) - (10 + 200 * (1 - xs[i].0))) < 1e-6 * 200, "frame \(i + 1): x \(p.x)")
            #expect(abs(Double(p.y) - (10 + 100 * (1 - ys[i].0))) < 1e-6 * 100, "frame \(i + 1): y \(p.y)")
        }
        // It lasts the spring's settling time, not the 0.3 s given.
        let settle = params.settlingDuration!
        #expect(settle > 1)
        #expect(done.isEmpty && animator.state == .active)
        clock.run(for: settle - Double(frames) / 60 + 1.0 / 30)
        #expect(done == [.end] && animator.state == .inactive && !v.isAnimating)
        #expect(v.presentation.center == v.center)
        // Settled means within the tolerance from then on: check the integrated motion.
        let after = Self.oscillator(zeta: zeta, omega: omega, velocity: 2, at: stride(from: settle, to: settle + 2, by: 0.01).map { $0 })
        #expect(after.allSatisfy { abs($0.0) <= SpringTimingParameters.settlingTolerance + 1e-9 })
    }

    /// The spring DynamicsKit derives from a duration T and a damping ratio ζ (docs/dynamicskit.md),
    /// computed here from its definition: τ = ζω₀T is the smaller root of (1 + τ)e^(−τ) = ε and
    /// e^(−τ)/√(1 − ζ²) = ε.
    static func derivedOmega(duration: Double, zeta: Double) -> Double {
        let eps = 0.001
        var lo = 0.0, hi = 100.0
        for _ in 0..<200 { let mid = (lo + hi) / 2; if (1 + mid) * exp(-mid) > eps { lo = mid } else { hi = mid } }
        var tau = hi
        if zeta < 1 { tau = min(tau, log(1 / (eps * (1 - zeta * zeta).squareRoot()))) }
        return tau / (zeta * duration)
    }

    @Test("the spring of a duration and a damping ratio has settled to 0.1 % exactly at the duration, and not long before",
          arguments: [0.1, 0.3, 0.5, 0.8, 0.95, 1.0])
    func springLastingDuration(zeta: Double) {
        for duration in [0.25, 0.6, 2.0] {
            let spring = SpringResponse.lasting(duration, dampingRatio: zeta)
            let omega = Self.derivedOmega(duration: duration, zeta: zeta)
            #expect(abs(spring.omega - omega) < 1e-9 * omega, "ζ \(zeta) T \(duration): ω₀ \(spring.omega) vs \(omega)")
            // From the duration on, the oscillator stays within 0.1 % of the distance.
            let late = stride(from: duration, through: duration * 3, by: duration / 400).map { $0 }
            let xs = Self.oscillator(zeta: zeta, omega: omega, velocity: 0, at: late, h: duration / 4000)
            let worstAfter = xs.map { abs($0.0) }.max()!
            #expect(worstAfter <= 0.001 + 1e-7, "ζ \(zeta) T \(duration): |x| reaches \(worstAfter) after the duration")
            // … and it is still moving by more than a third of that in the last fifth before it.
            let early = stride(from: duration * 0.8, to: duration, by: duration / 400).map { $0 }
            let worstBefore = Self.oscillator(zeta: zeta, omega: omega, velocity: 0, at: early, h: duration / 4000).map { abs($0.0) }.max()!
            #expect(worstBefore > 0.001 / 3, "ζ \(zeta) T \(duration): already settled to \(worstBefore) before the duration")
        }
    }

    @Test("usingSpringWithDamping: the presentation follows the derived spring with the given velocity; it ends at the duration")
    func blockSpring() {
        let clock = AnimationClock()
        let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))   // centre (20, 20)
        var done: [Bool] = []
        let (zeta, duration, velocity) = (0.4, 0.8, 1.5)
        DynamicView.animate(withDuration: duration, delay: 0, usingSpringWithDamping: CGFloat(zeta), initialSpringVelocity: CGFloat(velocity),
                            options: [], clock: clock, animations: { v.center.x = 320 }, completion: { done.append($0) })
        #expect(v.center.x == 320)
        let omega = Self.derivedOmega(duration: duration, zeta: zeta)
        let frames = Int((duration * 60).rounded())
        let xs = Self.oscillator(zeta: zeta, omega: omega, velocity: velocity, at: (1..<frames).map { Double($0) / 60 })
        var overshot = false
        for i in 0..<(frames - 1) {
            clock.advance(by: 1.0 / 60)
            let expected = 20 + 300 * (1 - xs[i].0)
            #expect(abs(Double(v.presentation.center.x) - expected) < 1e-6 * 300, "frame \(i + 1)")
            if v.presentation.center.x > 320 { overshot = true }
        }
        #expect(overshot, "ζ 0.4 overshoots")
        #expect(done.isEmpty)
        clock.advance(by: 1.0 / 60)
        #expect(done == [true] && v.presentation.center.x == 320)
    }

    @Test("cubic timing parameters: Core Animation's control points, custom points and overshoot, against the parametric curve")
    func cubicParameters() {
        let builtin: [(AnimationCurve, (Double, Double, Double, Double))] = [
            (.easeInOut, (0.42, 0, 0.58, 1)), (.easeIn, (0.42, 0, 1, 1)), (.easeOut, (0, 0, 0.58, 1)), (.linear, (0, 0, 1, 1)),
        ]
        for (curve, p) in builtin {
            let c = CubicTimingParameters(animationCurve: curve)
            #expect(c.controlPoint1 == CGPoint(x: p.0, y: p.1) && c.controlPoint2 == CGPoint(x: p.2, y: p.3))
            #expect(c.timingCurveType == .builtin && c.animationCurve == curve)
        }
        #expect(CubicTimingParameters().animationCurve == .easeInOut)
        let custom: [(Double, Double, Double, Double)] = [(0.25, 0.1, 0.25, 1), (0.5, -0.5, 0.5, 1.5), (0.1, 0.9, 0.2, 1)]
        for p in custom + builtin.map(\.1) {
            let clock = AnimationClock()
            let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            v.alpha = 0
            let a = ViewPropertyAnimator(duration: 1, controlPoint1: CGPoint(x: p.0, y: p.1), controlPoint2: CGPoint(x: p.2, y: p.3), clock: clock) {
                v.alpha = 1
            }
            a.startAnimation()
            for i in 1..<20 {
                clock.advance(by: 0.05)
                let expected = ViewAnimationTests.bruteForce(Double(i) * 0.05, p.0, p.1, p.2, p.3)
                #expect(abs(Double(v.presentation.alpha) - expected) < 1e-5, "\(p) at \(Double(i) * 0.05)")
            }
            clock.advance(by: 0.05)
            #expect(a.state == .inactive && v.presentation.alpha == 1)
        }
    }
}

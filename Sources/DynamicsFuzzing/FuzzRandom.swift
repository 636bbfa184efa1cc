import DynamicsEngine
import Foundation

/// The fuzzer's own deterministic generator (xorshift64*, seeded through SplitMix64), with the
/// few helpers a sequence needs. No Foundation randomness: a seed replays bit for bit.
struct FuzzRandom {
    private var state: UInt64

    init(seed: UInt64) {
        var s = SplitMix64(seed: seed)
        state = s.next() | 1
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// 0 ..< n (n > 0).
    mutating func int(_ n: Int) -> Int {
        precondition(n > 0)
        return Int(next() % UInt64(n))
    }

    mutating func int(in r: ClosedRange<Int>) -> Int { r.lowerBound + int(r.upperBound - r.lowerBound + 1) }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    mutating func double(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }

    mutating func cg(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * CGFloat(unit()) }

    mutating func chance(_ p: Double) -> Bool { unit() < p }

    mutating func pick<T>(_ a: [T]) -> T { a[int(a.count)] }

    /// An index into `weights`, chosen in proportion to them.
    mutating func weighted(_ weights: [Int]) -> Int {
        var r = int(weights.reduce(0, +))
        for (k, w) in weights.enumerated() {
            if r < w { return k }
            r -= w
        }
        return weights.count - 1
    }

    /// A random angle in radians.
    mutating func angle() -> CGFloat { cg(-.pi, .pi) }
}

/// A world's time limit (`EngineFuzzer.Options.timeLimit`): looked at every ten steps, so that
/// reading the clock costs the world nothing.
struct FuzzDeadline {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let limit: Duration?

    /// A limit of `seconds` from now; nil: none.
    init(seconds: Double?) {
        start = clock.now
        limit = seconds.map { .milliseconds(Int64($0 * 1000)) }
    }

    /// Whether the world ran past its limit (only ever true at a step that is a multiple of ten).
    func passed(atStep step: Int) -> Bool {
        guard let limit, step % 10 == 0 else { return false }
        return clock.now - start > limit
    }
}

import DynamicsEngine

/// A small, fast, deterministic random number generator (SplitMix64) for seeded scenes.
///
/// The same seed gives the same sequence on every platform and Swift version, which
/// `SystemRandomNumberGenerator` does not.
public struct SceneRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    /// Creates a generator from a seed (any value, including 0).
    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    public mutating func next() -> UInt64 { generator.next() }

    /// A uniform Float in `range`.
    public mutating func float(in range: ClosedRange<Float>) -> Float {
        Float.random(in: range, using: &self)
    }
}

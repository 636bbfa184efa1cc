/// A small, fast, deterministic random number generator (SplitMix64) for seeded scenes.
///
/// The same seed gives the same sequence on every platform and Swift version, which
/// `SystemRandomNumberGenerator` does not.
public struct SceneRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed (any value, including 0).
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }

    /// A uniform Float in `range`.
    public mutating func float(in range: ClosedRange<Float>) -> Float {
        Float.random(in: range, using: &self)
    }
}

/// SplitMix64 (Steele, Lea and Flood): a tiny, well-mixed 64-bit generator whose sequence is
/// the same on every platform and Swift version (which `SystemRandomNumberGenerator`'s is not).
/// The package's seeded scenes, fuzzers and tests all draw from it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state (the next output mixes `state + golden`).
    public var state: UInt64

    /// Creates a generator from a seed (any value, including 0).
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// SplitMix64's finalizer: a bijective scramble of `z` (usable alone as a hash).
    @inlinable
    public static func mix(_ z: UInt64) -> UInt64 {
        var z = z
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }
}

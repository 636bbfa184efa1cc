/// Small sideways shifts that turn one deterministic scene into a family of nearly equal ones.
///
/// Seed 0 is the scene as written. Any other seed shifts each body of `pile` and `mix`, and
/// each row of `pyramid`, sideways by its own amount in [−4, 4] cm. Piles and mixes are chaotic
/// (one change to the solve order moves the moment a pile comes to rest by seconds), so a
/// single run says little about how soon an engine puts such a world to sleep; a set of seeds
/// does. The peer drivers (`Peers/box2d3_driver.c`, argument `seed=S`) compute the same
/// offsets from the same seed, bit for bit, so both engines start from the same world.
enum SceneJitter {
    /// The largest shift (m). A pile's neighbours start 10 cm apart, so they never overlap.
    static let amplitude: Float = 0.04

    /// The shift of body or row `index` (m): 0 for seed 0.
    static func offset(seed: UInt64, index: Int) -> Float {
        guard seed != 0 else { return 0 }
        let h = mix(seed &* 0x100_0000_01B3 &+ UInt64(truncatingIfNeeded: index))
        // 24 bits, exact in a Float.
        let u = Float(h >> 40) * (1 / 16_777_216)
        return (2 * u - 1) * amplitude
    }

    /// SplitMix64's output function applied to `x` plus its increment.
    static func mix(_ value: UInt64) -> UInt64 {
        var x = value &+ 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }
}

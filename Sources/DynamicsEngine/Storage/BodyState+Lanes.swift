extension BodyState {
    /// Whether a body's (v.x, v.y, w) are the first three floats of its 32 bytes, which
    /// `velocityLanes` reads as one vector (and the C kernels too).
    static let lanesLayoutHolds: Bool =
        MemoryLayout<BodyState>.stride == 32 && MemoryLayout<BodyState>.offset(of: \BodyState.v) == 0
        && MemoryLayout<BodyState>.offset(of: \BodyState.w) == 8 && MemoryLayout<BodyState>.offset(of: \BodyState.pad) == 12
}

extension MutableView where Element == BodyState {
    /// Body `i`'s (v.x, v.y, w, pad) as one 16-byte load — the width of `setVelocityLanes`, so a
    /// read right after the previous constraint's write is forwarded from the store buffer.
    @inline(__always)
    func velocityLanes(_ i: Int) -> SIMD4<Float> {
        assert(BodyState.lanesLayoutHolds, "BodyState: v and w are not the first 12 of 32 bytes")
        return UnsafeRawPointer(pointer(at: i)).loadUnaligned(as: SIMD4<Float>.self)
    }

    /// Writes body `i`'s (v.x, v.y, w, pad) as one 16-byte store.
    @inline(__always)
    func setVelocityLanes(_ i: Int, _ lanes: SIMD4<Float>) {
        assert(BodyState.lanesLayoutHolds, "BodyState: v and w are not the first 12 of 32 bytes")
        UnsafeMutableRawPointer(pointer(at: i)).storeBytes(of: lanes, as: SIMD4<Float>.self)
    }
}

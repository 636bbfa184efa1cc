// Local values and arrays handed to code that takes a pointer or a view (see the list at the
// top of Column.swift).

/// A base address, or a never-dereferenced dummy when the buffer is empty.
@inline(__always) private func orDummy<T>(_ p: UnsafeMutablePointer<T>?) -> UnsafeMutablePointer<T> {
    p ?? UnsafeMutablePointer(bitPattern: 64)!
}

/// The four lanes of a local vector as a pointer for the length of `body`: a batch's contact
/// indices handed to `dk_prepare_batch`.
@inline(__always)
func withLanes<R>(of v: SIMD4<Int32>, _ body: (UnsafePointer<Int32>) throws -> R) rethrows -> R {
    try withUnsafePointer(to: v) { p in try p.withMemoryRebound(to: Int32.self, capacity: 4) { try body($0) } }
}

/// A local pair of values as a two-element view for the length of `body` (a segment's two
/// normals posing as a polygon's).
@inline(__always)
func withView<T, R>(of pair: (T, T), _ body: (View<T>) throws -> R) rethrows -> R {
    try withUnsafePointer(to: pair) { p in
        try p.withMemoryRebound(to: T.self, capacity: 2) { try body(View($0, 2)) }
    }
}

extension Array {
    /// The array's elements as a view for the length of `body` (the hand-off from an array a
    /// pass builds, such as a chunk's output list, to code that indexes it through a view).
    @inline(__always)
    mutating func withMutableView<R>(_ body: (MutableView<Element>) throws -> R) rethrows -> R {
        try withUnsafeMutableBufferPointer { try body(MutableView(orDummy($0.baseAddress), $0.count)) }
    }
}

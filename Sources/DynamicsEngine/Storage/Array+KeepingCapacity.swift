extension Array {
    /// `removeAll(keepingCapacity: true)`, skipped when already empty, and a short list popped
    /// element by element: the call costs many times a pop even for one element (a sizeable
    /// part of a small world's step). (Neither ever frees the storage.) For the package's
    /// other modules too (the animator's per-frame lists).
    @inlinable @inline(__always) package mutating func removeAllKeepingCapacity() {
        guard !isEmpty else { return }
        if count <= 4 {
            repeat { removeLast() } while !isEmpty
        } else {
            removeAll(keepingCapacity: true)
        }
    }

    /// Drops the elements from `n` on (nothing when there are `n` or fewer).
    @inline(__always) mutating func truncate(to n: Int) {
        if count > n { removeLast(count - n) }
    }
}

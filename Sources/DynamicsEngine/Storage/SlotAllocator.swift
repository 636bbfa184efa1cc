/// Generational slot allocation shared by bodies, shapes and joints.
struct SlotAllocator {
    var freeSlots: [Int32] = []
    var count: Int32 = 0

    /// Returns a free slot (lowest recently freed first) or a new one at the end.
    mutating func allocate() -> (slot: Int32, isNew: Bool) {
        if let s = freeSlots.popLast() { return (s, false) }
        count += 1
        return (count - 1, true)
    }

    mutating func release(_ slot: Int32) { freeSlots.append(slot) }
}

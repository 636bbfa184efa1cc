import DynamicsSolverKernels

/// Asks the processor for every 64-byte line of the `size` bytes at `address` (a hint: the
/// prefetch instruction never faults and changes no memory).
@inline(__always) func prefetchLines(_ address: UInt, _ size: Int) {
    forEachPrefetchAddress(address, size) { dk_prefetch_line($0) }
}

/// The addresses `prefetchLines` hands the processor: at least one in each 64-byte line of the
/// `size` bytes at `address` (one line for a size of 0). Up to 128 bytes (the size is a
/// constant where this is inlined), without a branch: the first byte, the byte 64 after it and
/// the last byte lie in every line of the span (whether an element spans two lines or three
/// depends on where it starts, which a loop over the lines would mispredict).
@inline(__always) func forEachPrefetchAddress(_ address: UInt, _ size: Int, _ body: (UInt) -> Void) {
    let last = address &+ UInt(Swift.max(size, 1)) &- 1
    if size <= 128 {
        body(address)
        if size > 64 { body(address &+ 64) }
        body(last)
        return
    }
    var line = address & ~63
    body(line)
    while line < last & ~63 { line &+= 64; body(line) }
}

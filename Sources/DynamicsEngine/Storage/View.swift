/// A pass's read-only view of `count` elements (a column's, usually): what the step hands its
/// parallel tasks instead of a bare pointer. Element access checks bounds in debug builds
/// (`assert`), and compiles to a plain load in release builds. Valid while the storage it
/// views is neither grown nor released — the step grows nothing while its passes run.
struct View<Element>: RandomAccessCollection, @unchecked Sendable {
    typealias Index = Int
    typealias Indices = Range<Int>
    /// The first element's address: read only to hand the elements to C (see the top of
    /// Column.swift); Swift code indexes the view.
    let base: UnsafePointer<Element>
    let count: Int

    @inline(__always) init(_ base: UnsafePointer<Element>, _ count: Int) { self.base = base; self.count = count }
    /// A view of nothing (its address is never dereferenced).
    @inline(__always) init() { self.init(UnsafePointer(bitPattern: 64)!, 0) }
    @inline(__always) var startIndex: Int { 0 }
    @inline(__always) var endIndex: Int { count }

    @inline(__always)
    subscript(i: Int) -> Element {
        unsafeAddress { checkedAddress(i, "View") }
    }

    @inline(__always) var indices: Range<Int> { 0..<count }

    /// The address of elements `i ..< i + n` (checked in debug builds), for code that takes a
    /// run of elements by pointer (a shape's vertices, a C kernel's batches).
    @inline(__always)
    func pointer(at i: Int, count n: Int = 1) -> UnsafePointer<Element> { checkedAddress(i, count: n, "View") }

    /// Asks the processor to bring element `i`'s cache lines toward its cache, a few
    /// iterations before a pass reads it at a place it cannot predict (a slot, a body): only a
    /// hint, nothing is read or written and it never faults (`i` is checked in debug builds).
    @inline(__always)
    func prefetch(_ i: Int) { prefetch(i, "View") }

    /// Elements `r` as a view of their own (its index 0 is `r.lowerBound`; checked in debug
    /// builds): an island's bodies, a shape's vertices, the first `n` of a longer column.
    @inline(__always)
    func subview(_ r: Range<Int>) -> View<Element> { View(checkedAddress(r.lowerBound, count: r.count, "View"), r.count) }

    // The checked accesses of `View` and `MutableView`, written once (`type` names the view's
    // type in the message).

    /// Element `i`'s address (`i` checked in debug builds).
    @inline(__always)
    func checkedAddress(_ i: Int, _ type: StaticString) -> UnsafePointer<Element> {
        assert(i >= 0 && i < count, "\(type): index \(i) outside 0..<\(count)")
        return base + i
    }

    /// The address of elements `i ..< i + n` (checked in debug builds).
    @inline(__always)
    func checkedAddress(_ i: Int, count n: Int, _ type: StaticString) -> UnsafePointer<Element> {
        assert(i >= 0 && n >= 0 && i + n <= count, "\(type): elements \(i)..<\(i + n) outside 0..<\(count)")
        return base + i
    }

    /// Prefetches element `i` (`i` checked in debug builds).
    @inline(__always)
    func prefetch(_ i: Int, _ type: StaticString) {
        assert(i >= 0 && i < count, "\(type): prefetch of index \(i) outside 0..<\(count)")
        prefetchLines(UInt(bitPattern: base + i), MemoryLayout<Element>.size)
    }

    /// Whether this is a view of all of `column` as it is now (same address, same count): a
    /// kept view is still valid (debug checks).
    func isView(of column: Column<Element>) -> Bool {
        count == column.count && (count == 0 || base == UnsafePointer(column.base))
    }
}

/// A pass's view of `count` elements it may write (see `View`). Copies of a view write the
/// same elements: which task writes which element is the pass's business (each pass says).
struct MutableView<Element>: @unchecked Sendable {
    /// The first element's address: read only to hand the elements to C (see `View.base`).
    let base: UnsafeMutablePointer<Element>
    let count: Int

    @inline(__always) init(_ base: UnsafeMutablePointer<Element>, _ count: Int) { self.base = base; self.count = count }
    /// A view of nothing (its address is never dereferenced).
    @inline(__always) init() { self.init(UnsafeMutablePointer(bitPattern: 64)!, 0) }

    @inline(__always)
    subscript(i: Int) -> Element {
        unsafeAddress { readOnly.checkedAddress(i, "MutableView") }
        nonmutating unsafeMutableAddress { UnsafeMutablePointer(mutating: readOnly.checkedAddress(i, "MutableView")) }
    }

    @inline(__always) var indices: Range<Int> { 0..<count }
    /// The same elements, read-only. The checked accesses below are `View`'s.
    @inline(__always) var readOnly: View<Element> { View(UnsafePointer(base), count) }

    /// The address of elements `i ..< i + n` (checked in debug builds; see `View`).
    @inline(__always)
    func pointer(at i: Int, count n: Int = 1) -> UnsafeMutablePointer<Element> {
        UnsafeMutablePointer(mutating: readOnly.checkedAddress(i, count: n, "MutableView"))
    }

    /// Asks for element `i`'s cache lines (a hint; see `View.prefetch(_:)`).
    @inline(__always)
    func prefetch(_ i: Int) { readOnly.prefetch(i, "MutableView") }

    /// Elements `r` as a view of their own (checked in debug builds; see `View.subview`).
    @inline(__always)
    func subview(_ r: Range<Int>) -> MutableView<Element> {
        MutableView(UnsafeMutablePointer(mutating: readOnly.checkedAddress(r.lowerBound, count: r.count, "MutableView")), r.count)
    }
}

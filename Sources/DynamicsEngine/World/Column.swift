/// Growable storage for the world's records (bodies, shapes, joints, contacts): one buffer,
/// owned by one `World` and never shared, so it is never copied on write.
///
/// Why not `Array`: every `withUnsafe…BufferPointer` on a stored array checks that its buffer
/// is uniquely referenced, and a read-only view of a class property retains and releases it.
/// A step opens its buffers a few dozen times, which in a one-body world was about a tenth of
/// the step. A column hands out its buffer as it is.
///
/// Audited raw storage: `base` is valid for `count` initialised elements (a never-dereferenced
/// dummy while nothing is allocated), and moves only when the column grows. Element access
/// checks bounds in debug builds (`assert`) and not in release builds; views taken with
/// `withUnsafe…BufferPointer`, `baseOrDummy…` or `mutableBufferInPlace` are valid until the
/// next append, growth or release — the step does neither while it holds them.
///
/// It is a class (reference semantics): copying a structure that holds a column shares the
/// column; assigning one column to another property aliases them. Use `swapStorage(with:)`
/// to exchange two columns' contents.
final class Column<Element>: RandomAccessCollection, MutableCollection {
    typealias Index = Int
    typealias Indices = Range<Int>

    // (Exclusivity-unchecked, as the world's own properties: a dynamic access check on every
    // element access would cost more than the uniqueness checks the column removes.)
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var capacity = 0

    init() { base = Self.dummy }

    init<S: Sequence>(_ elements: S) where S.Element == Element {
        base = Self.dummy
        for e in elements { append(e) }
    }

    deinit {
        base.deinitialize(count: count)
        if capacity > 0 { base.deallocate() }
    }

    private static var dummy: UnsafeMutablePointer<Element> { UnsafeMutablePointer(bitPattern: 64)! }

    @inline(__always) var startIndex: Int { 0 }
    @inline(__always) var endIndex: Int { count }
    @inline(__always) var isEmpty: Bool { count == 0 }

    @inline(__always)
    subscript(i: Int) -> Element {
        unsafeAddress {
            assert(i >= 0 && i < count, "Column: index \(i) outside 0..<\(count)")
            return UnsafePointer(base + i)
        }
        unsafeMutableAddress {
            assert(i >= 0 && i < count, "Column: index \(i) outside 0..<\(count)")
            return base + i
        }
    }

    // MARK: Growing and shrinking

    func reserveCapacity(_ n: Int) {
        guard n > capacity else { return }
        let p = UnsafeMutablePointer<Element>.allocate(capacity: n)
        p.moveInitialize(from: base, count: count)
        if capacity > 0 { base.deallocate() }
        base = p
        capacity = n
    }

    @inline(__always)
    private func makeRoom(for extra: Int) {
        if count + extra > capacity { reserveCapacity(Swift.max(count + extra, 2 * capacity, 4)) }
    }

    @inline(__always)
    func append(_ e: Element) {
        makeRoom(for: 1)
        (base + count).initialize(to: e)
        count += 1
    }

    /// Appends `n` copies of a value (the `repeatElement` form the world grows its lists with).
    func append(contentsOf r: Repeated<Element>) {
        guard r.count > 0 else { return }
        makeRoom(for: r.count)
        (base + count).initialize(repeating: r.first!, count: r.count)
        count += r.count
    }

    func append<S: Sequence>(contentsOf s: S) where S.Element == Element {
        for e in s { append(e) }
    }

    /// Grows to `m` elements with copies of `value` (nothing when there are `m` or more).
    @inline(__always)
    func grow(to m: Int, with value: Element) {
        if count < m { append(contentsOf: repeatElement(value, count: m - count)) }
    }

    /// Keeps the first `n` elements (nothing when there are `n` or fewer).
    @inline(__always)
    func truncate(to n: Int) {
        guard count > n else { return }
        (base + n).deinitialize(count: count - n)
        count = n
    }

    func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "Column.removeLast: \(k) of \(count)")
        truncate(to: count - k)
    }

    func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return (base + count).move()
    }

    /// Removes every element; the buffer stays (the name says so, as `Array`'s option does).
    @inline(__always)
    func removeAllKeepingCapacity() { truncate(to: 0) }

    func removeAll(keepingCapacity keep: Bool = false) {
        truncate(to: 0)
        if !keep && capacity > 0 { base.deallocate(); base = Self.dummy; capacity = 0 }
    }

    /// Exchanges the contents (buffers, counts, capacities) of two columns.
    func swapStorage(with other: Column<Element>) {
        swap(&base, &other.base)
        swap(&count, &other.count)
        swap(&capacity, &other.capacity)
    }

    // MARK: Views

    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: UnsafePointer(base), count: count))
    }

    @inline(__always)
    func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeMutableBufferPointer(start: base, count: count))
    }

    /// The elements as a view for a pass (valid until the column grows or is released).
    @inline(__always) var view: View<Element> { View(UnsafePointer(base), count) }
    @inline(__always) var mutableView: MutableView<Element> { MutableView(base, count) }

    /// The elements in place (valid until the column grows or is released).
    @inline(__always) var baseOrDummy: UnsafePointer<Element> { UnsafePointer(base) }
    @inline(__always) var baseOrDummyMutable: UnsafeMutablePointer<Element> { base }
    @inline(__always) var mutableBufferInPlace: UnsafeMutableBufferPointer<Element> {
        UnsafeMutableBufferPointer(start: base, count: count)
    }
}


// MARK: - Views for the step's passes

/// A pass's read-only view of `count` elements (a column's, usually): what the step hands its
/// parallel tasks instead of a bare pointer. Element access checks bounds in debug builds
/// (`assert`), and compiles to a plain load in release builds. Valid while the storage it
/// views is neither grown nor released — the step grows nothing while its passes run.
struct View<Element>: RandomAccessCollection, @unchecked Sendable {
    typealias Index = Int
    typealias Indices = Range<Int>
    let base: UnsafePointer<Element>
    let count: Int

    @inline(__always) init(_ base: UnsafePointer<Element>, _ count: Int) { self.base = base; self.count = count }
    /// A view of nothing (its address is never dereferenced).
    @inline(__always) init() { self.init(UnsafePointer(bitPattern: 64)!, 0) }
    @inline(__always) var startIndex: Int { 0 }
    @inline(__always) var endIndex: Int { count }

    @inline(__always)
    subscript(i: Int) -> Element {
        unsafeAddress {
            assert(i >= 0 && i < count, "View: index \(i) outside 0..<\(count)")
            return base + i
        }
    }

    @inline(__always) var indices: Range<Int> { 0..<count }

    /// The address of elements `i ..< i + n` (checked in debug builds), for code that takes a
    /// run of elements by pointer (a shape's vertices, a C kernel's batches).
    @inline(__always)
    func pointer(at i: Int, count n: Int = 1) -> UnsafePointer<Element> {
        assert(i >= 0 && n >= 0 && i + n <= count, "View: elements \(i)..<\(i + n) outside 0..<\(count)")
        return base + i
    }

    /// Elements `r` as a view of their own (its index 0 is `r.lowerBound`; checked in debug
    /// builds): an island's bodies, a shape's vertices, the first `n` of a longer column.
    @inline(__always)
    func subview(_ r: Range<Int>) -> View<Element> {
        assert(r.lowerBound >= 0 && r.upperBound <= count, "View: elements \(r) outside 0..<\(count)")
        return View(base + r.lowerBound, r.count)
    }
}

/// A pass's view of `count` elements it may write (see `View`). Copies of a view write the
/// same elements: which task writes which element is the pass's business (each pass says).
struct MutableView<Element>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Element>
    let count: Int

    @inline(__always) init(_ base: UnsafeMutablePointer<Element>, _ count: Int) { self.base = base; self.count = count }
    /// A view of nothing (its address is never dereferenced).
    @inline(__always) init() { self.init(UnsafeMutablePointer(bitPattern: 64)!, 0) }

    @inline(__always)
    subscript(i: Int) -> Element {
        unsafeAddress {
            assert(i >= 0 && i < count, "MutableView: index \(i) outside 0..<\(count)")
            return UnsafePointer(base + i)
        }
        nonmutating unsafeMutableAddress {
            assert(i >= 0 && i < count, "MutableView: index \(i) outside 0..<\(count)")
            return base + i
        }
    }

    @inline(__always) var indices: Range<Int> { 0..<count }
    @inline(__always) var readOnly: View<Element> { View(UnsafePointer(base), count) }

    /// The address of elements `i ..< i + n` (checked in debug builds; see `View`).
    @inline(__always)
    func pointer(at i: Int, count n: Int = 1) -> UnsafeMutablePointer<Element> {
        assert(i >= 0 && n >= 0 && i + n <= count, "MutableView: elements \(i)..<\(i + n) outside 0..<\(count)")
        return base + i
    }

    /// Elements `r` as a view of their own (checked in debug builds; see `View.subview`).
    @inline(__always)
    func subview(_ r: Range<Int>) -> MutableView<Element> {
        assert(r.lowerBound >= 0 && r.upperBound <= count, "MutableView: elements \(r) outside 0..<\(count)")
        return MutableView(base + r.lowerBound, r.count)
    }
}

// MARK: - Raw views of arrays still stored as arrays

/// A base address, or a never-dereferenced dummy when the buffer is empty.
@inline(__always) func orDummy<T>(_ p: UnsafeMutablePointer<T>?) -> UnsafeMutablePointer<T> {
    p ?? UnsafeMutablePointer(bitPattern: 64)!
}
@inline(__always) func orDummy<T>(_ p: UnsafePointer<T>?) -> UnsafePointer<T> {
    p ?? UnsafePointer(bitPattern: 64)!
}

extension Array {
    /// The array's element storage, valid while the array is neither mutated nor released
    /// (the solve keeps local references for its duration), or a never-dereferenced dummy.
    @inline(__always) var baseOrDummy: UnsafePointer<Element> {
        withUnsafeBufferPointer { $0.baseAddress } ?? UnsafePointer(bitPattern: 64)!
    }
    @inline(__always) var baseOrDummyMutable: UnsafeMutablePointer<Element> {
        mutating get {
            // No storage (the shared empty array): nothing to make unique — asking for a mutable
            // buffer would replace it with a new empty one on every call.
            if capacity == 0 { return UnsafeMutablePointer(bitPattern: 64)! }
            return withUnsafeMutableBufferPointer { $0.baseAddress } ?? UnsafeMutablePointer(bitPattern: 64)!
        }
    }
    /// `baseOrDummyMutable` with the count: the elements in place, under the same rule.
    @inline(__always) var mutableBufferInPlace: UnsafeMutableBufferPointer<Element> {
        mutating get { UnsafeMutableBufferPointer(start: baseOrDummyMutable, count: count) }
    }
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

extension Array {
    /// `removeAll(keepingCapacity: true)`, skipped when already empty: the call costs about a
    /// hundred instructions even then, a sizeable part of a small world's step.
    @inline(__always) mutating func removeAllKeepingCapacity() {
        if !isEmpty { removeAll(keepingCapacity: true) }
    }

    /// Drops the elements from `n` on (nothing when there are `n` or fewer).
    @inline(__always) mutating func truncate(to n: Int) {
        if count > n { removeLast(count - n) }
    }
}

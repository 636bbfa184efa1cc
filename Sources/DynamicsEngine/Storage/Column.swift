import DynamicsSolverKernels
#if canImport(Glibc)
import Glibc
#endif

// The engine's audited raw memory. Every element the engine's passes reach through a pointer
// is reached through the types and functions of this file, whose accessors check bounds in
// debug builds (`assert`; `swift test` runs with them on) and compile to plain loads and
// stores in release builds:
//
// - `Column<Element>`: the world's growable buffers (the only owner of raw storage);
// - `View<Element>` / `MutableView<Element>`: a pass's view of a column's elements (or of a
//   part of them, `subview`), `View()` for a view of nothing;
// - hand-offs to C (module DynamicsSolverKernels): `View.base` / `MutableView.base`, read
//   for that purpose only in `WideContactSolver.source` (with the views' counts, which the
//   C code checks in debug builds), and `pointer(at:count:)`, checked, for the batches and
//   states the kernels take (`SolverViews.batches`, `BatchPreparation`); `withLanes(of:)`
//   hands the kernels a batch's four contact indices held in a local vector;
// - `withView(of:)`: a local pair of values as a two-element view (a segment's normals);
// - `Array.withMutableView`: an array a pass builds (a chunk's output list) as a view;
// - layout-checked raw access: `MutableView<BodyState>.velocityLanes` / `setVelocityLanes`
//   read and write a body's (v, w) as one 16-byte vector; `BodyState.lanesLayoutHolds`
//   (asserted there in debug builds) and `WideContactSolver.layoutMatches` (asserted before
//   the kernels run, and tested) check the layouts the engine and the C kernels share;
// - `View.prefetch(_:)` / `MutableView.prefetch(_:)`: hand an element's address (its index
//   checked in debug builds) to the processor's prefetch instruction (`prefetchLines`), which
//   never faults and changes no memory;
// - `Prefault.pages`: hands a new buffer's address range to `madvise` (no element is read or
//   written), for `Column.reserveCapacity(_:prefaultingWithin:)`;
//
// Outside this file, raw pointers remain only at the C hand-offs above (`WideContactSolver.source`,
// `SolverViews.batches`) and in the parallel infrastructure's bookkeeping, where there are no
// elements to check: `WorkerPool` hands its threads the address of the
// caller's task value (type-erased as an `UnsafeRawPointer`, valid while `run` waits for
// them), and `PoolTask.invoke` turns it back into the task. (`ChunkBuffers` and
// `StagePipeline` hold views.)

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
/// checks bounds in debug builds (`assert`) and not in release builds; views (`view`,
/// `mutableView`) are valid until the next append, growth or release — the step does neither
/// while it holds them.
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
    // The count and the capacity are stored in 32 bits: the object is then 32 bytes (its
    // header, the address, the two counts), two to a cache line and never across one. A
    // world's columns are allocated together, and a small world's step reads most of their
    // objects: at 40 bytes (48 with the allocator's rounding) a menu's 87 columns took 65
    // lines, a third of what its frame touches, at 32 bytes they take 44.
    @exclusivity(unchecked) private var storedCount: Int32 = 0
    @exclusivity(unchecked) private var storedCapacity: Int32 = 0

    /// Elements in the column (at most `Column.maxCount`).
    @inline(__always)
    private(set) var count: Int {
        get { Int(storedCount) }
        set { storedCount = Int32(truncatingIfNeeded: newValue) }
    }

    /// Elements the buffer holds before it must grow.
    @inline(__always)
    private(set) var capacity: Int {
        get { Int(storedCapacity) }
        set { storedCapacity = Int32(truncatingIfNeeded: newValue) }
    }

    /// The most elements a column holds (its counts are 32-bit): growing past it stops with a
    /// message. A world's largest column at a million bodies holds a few million.
    static var maxCount: Int { Int(Int32.max) }

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

    /// The elements in place, for the standard library's algorithms (`sort()`, `reduce`, …):
    /// without these, `sort()` on a column copied it into a new array first (an allocation in
    /// every static-grid rebuild).
    func withContiguousMutableStorageIfAvailable<R>(_ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R) rethrows -> R? {
        var buffer = UnsafeMutableBufferPointer(start: count > 0 ? base : nil, count: count)
        return try body(&buffer)
    }

    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R? {
        try body(UnsafeBufferPointer(start: count > 0 ? base : nil, count: count))
    }

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
        precondition(n <= Self.maxCount, "Column: \(n) elements is more than a column holds (\(Self.maxCount))")
        let p = UnsafeMutablePointer<Element>.allocate(capacity: n)
        p.moveInitialize(from: base, count: count)
        if capacity > 0 { base.deallocate() }
        base = p
        capacity = Swift.min(Self.usableCapacity(p, requested: n), Self.maxCount)
    }

    /// How many elements a new buffer of `n` requested elements holds: a large block is rounded
    /// up by the allocator to its size class (jemalloc: up to a quarter more; the process pays
    /// for the whole block), so a large column counts what it got and grows only when that is
    /// full. Small buffers keep the requested capacity.
    @inline(__always)
    private static func usableCapacity(_ p: UnsafeMutablePointer<Element>, requested n: Int) -> Int {
        #if os(Linux)
        let stride = MemoryLayout<Element>.stride
        guard stride > 0, n * stride >= gentleGrowthBytes else { return n }
        return Swift.max(n, mallocUsableSize(UnsafeMutableRawPointer(p)) / stride)
        #else
        return n
        #endif
    }

    /// `reserveCapacity(n)` for a column about to be filled with `n` elements at once (a
    /// restored snapshot's records): a large new buffer's pages are mapped in one call
    /// (`Prefault.pages`) instead of one page fault per 4 KiB as the elements are written —
    /// when the new elements take at most `budget` bytes (the caller's bound on what the
    /// input can honestly need, so that a crafted count commits no more memory than that).
    func reserveCapacity(_ n: Int, prefaultingWithin budget: Int) {
        guard n > capacity else { return }
        reserveCapacity(n)
        let bytes = (n - count) * MemoryLayout<Element>.stride
        if bytes <= budget { Prefault.pages(UnsafeMutableRawPointer(base + count), bytes: bytes) }
    }

    /// Buffers of at least this many bytes grow by an eighth instead of doubling.
    static var gentleGrowthBytes: Int { 1 << 22 }

    /// The capacity to grow to when `needed` elements must fit: twice the capacity while the
    /// buffer is small; from `gentleGrowthBytes` (4 MiB) on, an eighth more than the larger of
    /// the capacity and `needed`. Doubling left up to half of a large buffer unused — about
    /// 75 MB of each contact-record buffer of a million-body pile, all counted by the allocator
    /// as resident; an eighth keeps the growth amortised with at most a ninth of the buffer
    /// unused, and the eighth on top of `needed` keeps a big jump (a pile's contacts appearing
    /// within a few steps) from being followed at once by another growth — a copy of the whole
    /// buffer while both old and new are mapped, when the world is at its largest.
    /// A first buffer (capacity 0) is taken at the size needed.
    @inline(__always)
    private func grownCapacity(toFit needed: Int) -> Int {
        let grown: Int
        if capacity > 0 && Swift.max(needed, capacity) * MemoryLayout<Element>.stride >= Self.gentleGrowthBytes {
            let m = Swift.max(needed, capacity)
            grown = m + m / 8
        } else {
            grown = Swift.max(needed, 2 * capacity, 4)
        }
        // (Never past `maxCount` unless `needed` is, which `reserveCapacity` refuses.)
        return Swift.max(needed, Swift.min(grown, Self.maxCount))
    }

    @inline(__always)
    private func makeRoom(for extra: Int) {
        if count + extra > capacity { reserveCapacity(grownCapacity(toFit: count + extra)) }
    }

    /// Room for `extra` more elements, grown as appending them one by one would (a caller that
    /// knows how many it will append takes one copy instead of several).
    func reserveRoom(for extra: Int) { makeRoom(for: extra) }

    /// Makes the column `n` copies of `value`, its old contents discarded: when the buffer
    /// must grow, the old one is released first, so the two never coexist and nothing is
    /// copied (a buffer that every pass overwrites whole: the contact merge's output). A large
    /// one grows to a thirty-second more than `n` (and its block's usable size): growing
    /// copies nothing here, so it needs less room ahead than `grownCapacity` leaves.
    func refill(count n: Int, with value: Element) {
        truncate(to: 0)
        if n > capacity {
            let c = n * MemoryLayout<Element>.stride >= Self.gentleGrowthBytes ? Swift.max(n, Swift.min(n + n / 32, Self.maxCount))
                : grownCapacity(toFit: n)
            if capacity > 0 { base.deallocate() }
            base = Self.dummy; capacity = 0
            reserveCapacity(c)
        }
        if n > 0 { base.initialize(repeating: value, count: n) }
        count = n
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

    /// Makes this column a copy of `other` (its buffer kept when large enough).
    func assign(from other: Column<Element>) { assign(from: other.view) }

    /// Makes this column a copy of `other`'s elements. (A view, unlike a column reached
    /// through another object, is passed without a retain and a release.)
    @inline(__always)
    func assign(from other: View<Element>) {
        truncate(to: 0)
        if other.count > capacity { reserveCapacity(other.count) }
        if other.count > 0 { base.initialize(from: other.base, count: other.count) }
        count = other.count
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
        swap(&storedCount, &other.storedCount)
        swap(&storedCapacity, &other.storedCapacity)
    }

    // MARK: Views

    /// The elements as a view for a pass (valid until the column grows or is released).
    @inline(__always) var view: View<Element> { View(UnsafePointer(base), count) }
    @inline(__always) var mutableView: MutableView<Element> { MutableView(base, count) }
}


#if os(Linux)
/// The size of the block `malloc` handed out at `p` (`malloc.h`, which the Glibc module does not
/// bring in; Swift's allocations on Linux are `malloc` blocks).
@_silgen_name("malloc_usable_size")
func mallocUsableSize(_ p: UnsafeMutableRawPointer?) -> Int
#endif

// MARK: - Prefaulting

/// Maps the pages of a large new buffer that is about to be written whole, in one system call
/// (Linux `madvise(MADV_POPULATE_WRITE)`, kernel 5.14 and later), instead of taking a page
/// fault per 4 KiB page as it is filled: restoring a 100 000-body world from a snapshot spent
/// most of its time in those faults. Elsewhere, or where the kernel refuses, it does nothing
/// (the pages are then faulted in as they are written, as before). It writes nothing: the
/// memory's contents are unchanged (fresh pages read as zero either way).
enum Prefault {
    /// Below this, the faults cost less than the call.
    static let minBytes = 1 << 20
    static let pageBytes = 4096

    static func pages(_ p: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux)
        guard bytes >= minBytes else { return }
        let a = Int(bitPattern: p)
        let lo = (a + pageBytes - 1) & ~(pageBytes - 1), hi = (a + bytes) & ~(pageBytes - 1)
        guard hi > lo, let q = UnsafeMutableRawPointer(bitPattern: lo) else { return }
        // MADV_POPULATE_WRITE (23): not in every libc's headers.
        _ = madvise(q, hi - lo, 23)
        #endif
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
    /// The first element's address: read only to hand the elements to C (see the top of this
    /// file); Swift code indexes the view.
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

    /// Asks the processor to bring element `i`'s cache lines toward its cache, a few
    /// iterations before a pass reads it at a place it cannot predict (a slot, a body): only a
    /// hint, nothing is read or written and it never faults (`i` is checked in debug builds).
    @inline(__always)
    func prefetch(_ i: Int) {
        assert(i >= 0 && i < count, "View: prefetch of index \(i) outside 0..<\(count)")
        prefetchLines(UInt(bitPattern: base + i), MemoryLayout<Element>.size)
    }

    /// Elements `r` as a view of their own (its index 0 is `r.lowerBound`; checked in debug
    /// builds): an island's bodies, a shape's vertices, the first `n` of a longer column.
    @inline(__always)
    func subview(_ r: Range<Int>) -> View<Element> {
        assert(r.lowerBound >= 0 && r.upperBound <= count, "View: elements \(r) outside 0..<\(count)")
        return View(base + r.lowerBound, r.count)
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

    /// Asks for element `i`'s cache lines (a hint; see `View.prefetch(_:)`).
    @inline(__always)
    func prefetch(_ i: Int) {
        assert(i >= 0 && i < count, "MutableView: prefetch of index \(i) outside 0..<\(count)")
        prefetchLines(UInt(bitPattern: base + i), MemoryLayout<Element>.size)
    }

    /// Elements `r` as a view of their own (checked in debug builds; see `View.subview`).
    @inline(__always)
    func subview(_ r: Range<Int>) -> MutableView<Element> {
        assert(r.lowerBound >= 0 && r.upperBound <= count, "MutableView: elements \(r) outside 0..<\(count)")
        return MutableView(base + r.lowerBound, r.count)
    }
}

// MARK: - Hand-offs

/// Asks the processor for every 64-byte line of the `size` bytes at `address` (a hint: the
/// prefetch instruction never faults and changes no memory).
@inline(__always) func prefetchLines(_ address: UInt, _ size: Int) {
    forEachPrefetchAddress(address, size) { dk_prefetch_line($0) }
}

/// The addresses `prefetchLines` hands the processor: at least one in each 64-byte line of the
/// `size` bytes at `address` (one line for a size of 0). Up to 128 bytes (the size is a
/// constant where this is inlined), without a branch: the first byte, the byte 64 after it and
/// the last byte lie in every line of the span (whether an element spans two lines or three
/// depends on where it starts, which a loop over the lines mispredicted).
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

extension Array {
    /// `removeAll(keepingCapacity: true)`, skipped when already empty, and a short list popped
    /// element by element: the call costs about eighty instructions even for one element (a
    /// sizeable part of a small world's step), a pop about ten. (Neither ever frees the
    /// storage.) For the package's other modules too (the animator's per-frame lists).
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

// MARK: - Layout-checked raw access

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

// The engine's audited raw memory. Every element the engine's passes reach through a pointer
// is reached through the types and functions of this folder (Storage/), whose accessors
// check bounds in debug builds (`assert`; `swift test` runs with them on) and compile to
// plain loads and stores in release builds:
//
// - `Column<Element>` (Column.swift): the world's growable buffers (the only owner of raw
//   storage);
// - `View<Element>` / `MutableView<Element>` (View.swift): a pass's view of a column's
//   elements (or of a part of them, `subview`), `View()` for a view of nothing;
// - hand-offs to C (module DynamicsSolverKernels): `View.base` / `MutableView.base`, read
//   for that purpose only in `WideContactSolver.source` and `IslandUnion.run` (with the
//   views' counts, which the C code checks in debug builds), and `pointer(at:count:)`,
//   checked, for the batches, states and lists the kernels take (`SolverViews.batches`,
//   `BatchPreparation`, `IslandUnion`); `withLanes(of:)`
//   (Handoffs.swift) hands the kernels a batch's four contact indices held in a local vector;
// - `withView(of:)` (Handoffs.swift): a local pair of values as a two-element view (a
//   segment's normals);
// - `Array.withMutableView` (Handoffs.swift): an array a pass builds (a chunk's output list)
//   as a view;
// - layout-checked raw access (BodyState+Lanes.swift): `MutableView<BodyState>.velocityLanes`
//   / `setVelocityLanes` read and write a body's (v, w) as one 16-byte vector;
//   `BodyState.lanesLayoutHolds` (asserted there in debug builds) and
//   `WideContactSolver.layoutMatches` (asserted before the kernels run, and tested) check the
//   layouts the engine and the C kernels share;
// - `View.prefetch(_:)` / `MutableView.prefetch(_:)`: hand an element's address (its index
//   checked in debug builds) to the processor's prefetch instruction (`prefetchLines`,
//   Prefetch.swift), which never faults and changes no memory;
// - `Prefault.pages` (Prefault.swift): hands a new buffer's address range to `madvise` (no
//   element is read or written), for `Column.reserveCapacity(_:prefaultingWithin:)`.
//
// Outside this folder, raw pointers remain only at the C hand-offs above
// (`WideContactSolver.source`, `SolverViews.batches`, `IslandUnion.run`) and in the parallel infrastructure's
// bookkeeping, where there are no elements to check: `WorkerPool` hands its threads the
// address of the caller's task value (type-erased as an `UnsafeRawPointer`, valid while `run`
// waits for them), and `PoolTask.invoke` turns it back into the task. (`ChunkBuffers` and
// `StagePipeline` hold views.)

/// Growable storage for the world's records (bodies, shapes, joints, contacts): one buffer,
/// owned by one `World` and never shared, so it is never copied on write.
///
/// Why not `Array`: every `withUnsafe…BufferPointer` on a stored array checks that its buffer
/// is uniquely referenced, and a read-only view of a class property retains and releases it.
/// A step opens its buffers a few dozen times, a noticeable part of a small world's step. A
/// column hands out its buffer as it is.
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
    // objects: at 40 bytes (48 with the allocator's rounding) they would take half as many
    // cache lines again, a noticeable part of what a small world's frame touches.
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
    /// without these, `sort()` on a column would copy it into a new array first (an allocation
    /// in every static-grid rebuild).
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
    /// the capacity and `needed`. Doubling would leave up to half of a large buffer unused —
    /// tens of megabytes of each contact-record buffer of a million-body pile, all counted by
    /// the allocator as resident; an eighth keeps the growth amortised with at most a ninth of
    /// the buffer unused, and the eighth on top of `needed` keeps a big jump (a pile's contacts
    /// appearing within a few steps) from being followed at once by another growth — a copy of
    /// the whole buffer while both old and new are mapped, when the world is at its largest.
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

    /// Appends an array's elements in one copy (the pair finder's chunk lists: one `append`
    /// an element, each checking the room and storing the count, took 40 µs a step for
    /// compounds' 24 000 pairs, on one thread while the others waited).
    func append(contentsOf a: [Element]) {
        guard !a.isEmpty else { return }
        makeRoom(for: a.count)
        a.withUnsafeBufferPointer { (base + count).initialize(from: $0.baseAddress!, count: $0.count) }
        count += a.count
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

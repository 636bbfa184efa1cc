import DynamicsSolverKernels

/// A list of the memory a piece of work will touch (a world's step, an animator's tick), kept
/// so that the memory can be brought toward the processor's cache *before* the work starts:
/// while something else still computes.
///
/// Why: a thousand small animators stepped in turn are bound by memory, not arithmetic. Each
/// small world is cold when its turn comes, and its step waits for some forty cache lines
/// spread over its objects and buffers, one after the other as pointers lead to them. A loop
/// over many independent pieces of work (`AnimationClock.advance(_:by:workers:)`) asks for
/// the next piece's lines while it computes the current one, so they arrive together and
/// meanwhile.
///
/// The plan holds addresses only, rounded down to their 64-byte line, and never reads or
/// writes through them: a prefetch is a hint that cannot fault, so an address that went stale
/// (a buffer that grew and moved since the plan was made) costs a wasted request, never a
/// wrong result. Make the plan again now and then (the owner decides when) so it stays useful.
/// A plan has a fixed capacity; what does not fit is left out.
public struct PrefetchPlan: ~Copyable {
    /// The most lines the plan holds.
    public let capacity: Int
    /// Line addresses, `count` of them, no two neighbours equal.
    private let lines: UnsafeMutablePointer<UInt>
    /// Lines in the plan.
    public private(set) var count = 0

    /// Bytes in a cache line (64 on the processors this package targets).
    public static let lineBytes = 64

    /// An empty plan of at most `capacity` lines.
    public init(capacity: Int = 256) {
        precondition(capacity >= 1, "PrefetchPlan(capacity:): the capacity must be at least 1")
        self.capacity = capacity
        lines = .allocate(capacity: capacity)
    }

    deinit { lines.deallocate() }

    /// Empties the plan (its storage is kept).
    public mutating func removeAll() { count = 0 }

    /// Adds the lines of `bytes` bytes from `start`, at most `maxLines` of them (the first).
    public mutating func add(_ start: UnsafeRawPointer, bytes: Int, maxLines: Int = 4) {
        guard bytes > 0, maxLines > 0 else { return }
        let mask = ~UInt(Self.lineBytes - 1)
        let first = UInt(bitPattern: start) & mask
        let last = (UInt(bitPattern: start) + UInt(bytes) - 1) & mask
        var line = first
        var n = 0
        while line <= last && n < maxLines && count < capacity {
            if count == 0 || lines[count - 1] != line {
                lines[count] = line
                count += 1
            }
            line += UInt(Self.lineBytes)
            n += 1
        }
    }

    /// Adds the first `lines` lines of a class instance (its header and first stored
    /// properties), without retaining it.
    public mutating func add(object: AnyObject, lines n: Int = 1) {
        add(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), bytes: n * Self.lineBytes, maxLines: n)
    }

    /// Adds the storage of `array` (its header and up to `maxLines` lines of elements); an
    /// empty array adds nothing.
    public mutating func add<T>(array: [T], maxLines: Int = 2) {
        guard array.capacity > 0 else { return }
        array.withUnsafeBufferPointer { b in
            guard let p = b.baseAddress else { return }
            // The array's header (count, capacity) sits just before its elements.
            let header = 32
            add(UnsafeRawPointer(p) - header, bytes: header + Swift.max(1, b.count) * MemoryLayout<T>.stride, maxLines: maxLines)
        }
    }

    /// Asks for every line of the plan.
    @inline(__always)
    public func prefetch() {
        if count > 0 { dk_prefetch_lines(lines, count) }
    }

    /// Asks for the lines that hold the plan's own list of addresses (the step before
    /// `prefetch()` when the plan itself is cold).
    @inline(__always)
    public func prefetchList() {
        var a = UInt(bitPattern: lines) & ~UInt(Self.lineBytes - 1)
        let end = UInt(bitPattern: lines + count)
        while a < end { dk_prefetch_line(a); a += UInt(Self.lineBytes) }
    }

    /// Asks for the line holding `object`'s header and first stored properties (not retained,
    /// not read).
    @inline(__always)
    public static func prefetch(object: AnyObject) {
        let a = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        dk_prefetch_line(a)
        dk_prefetch_line(a + UInt(lineBytes))
    }

    /// The plan's lines, for tests.
    var addresses: [UInt] { (0..<count).map { lines[$0] } }
}

/// Storage a world's step may touch: the first lines of a column's buffer.
protocol PrefetchableStorage: AnyObject {
    func addBufferLines(to plan: inout PrefetchPlan)
}

extension Column: PrefetchableStorage {
    func addBufferLines(to plan: inout PrefetchPlan) {
        if count > 0 { plan.add(UnsafeRawPointer(base), bytes: count * MemoryLayout<Element>.stride, maxLines: 4) }
    }
}

/// A world's parts that its step touches besides the world object: found once by reflection
/// (every column and every engine object the world holds, through its structures), then
/// listed without allocating. Found again after a restore, which replaces some of them.
struct WorldHotParts {
    var objects: [AnyObject] = []
    var columns: [any PrefetchableStorage] = []
    /// Lines of the world object itself.
    var worldLines = 1

    init() {}

    init(of world: World) {
        var seen = Set<ObjectIdentifier>([ObjectIdentifier(world)])
        // (Not StagePipeline's: a small world steps on one worker.)
        seen.insert(ObjectIdentifier(world.pipeline))
        Self.collect(world, depth: 0, seen: &seen, into: &self)
        #if os(Linux)
        worldLines = Swift.max(1, Swift.min(32, (mallocUsableSize(Unmanaged.passUnretained(world).toOpaque()) + 63) / 64))
        #else
        worldLines = 16
        #endif
    }

    private static func collect(_ value: Any, depth: Int, seen: inout Set<ObjectIdentifier>, into parts: inout WorldHotParts) {
        for child in Mirror(reflecting: value).children {
            let v = child.value
            if let c = v as? any PrefetchableStorage {
                if seen.insert(ObjectIdentifier(c)).inserted { parts.columns.append(c) }
                continue
            }
            let m = Mirror(reflecting: v)
            switch m.displayStyle {
            case .class?:
                guard String(reflecting: type(of: v)).hasPrefix("DynamicsEngine.") else { continue }
                let o = v as AnyObject
                guard seen.insert(ObjectIdentifier(o)).inserted else { continue }
                if !(o is StepContext || o is ContactSet || o is RestSnapshot) { parts.objects.append(o) }
                if depth < 4 { collect(v, depth: depth + 1, seen: &seen, into: &parts) }
            case .struct?, .optional?, .tuple?:
                if depth < 4 { collect(v, depth: depth + 1, seen: &seen, into: &parts) }
            default:
                continue
            }
        }
    }
}

extension World {
    /// Adds to `plan` the memory this world's next step will touch: the world object, its
    /// step context, contacts and other parts, and the first lines of every buffer that
    /// holds something. The first call finds those parts (it allocates); later calls only
    /// list them. Used by `AnimationClock.advance(_:by:workers:)` to prefetch one animator's
    /// world while the one before it steps; any owner of many small worlds can do the same.
    public func addHotLines(to plan: inout PrefetchPlan) {
        if hotPartsStale {
            hotParts = WorldHotParts(of: self)
            hotPartsStale = false
        }
        plan.add(object: self, lines: hotParts.worldLines)
        // The objects a step reads beyond their first line.
        plan.add(object: stepContext, lines: 4)
        plan.add(object: contacts, lines: 3)
        plan.add(object: rest, lines: 2)
        plan.add(array: contacts.beginEvents, maxLines: 1)
        plan.add(array: contacts.endEvents, maxLines: 1)
        for o in hotParts.objects { plan.add(object: o) }
        // The column objects a step still reads (most are reached through the step
        // context's kept views, which need only the buffers).
        plan.add(object: sims); plan.add(object: metas); plan.add(object: joints); plan.add(object: shapeIsLarge)
        plan.add(object: contacts.data); plan.add(object: contacts.links)
        plan.add(object: broadPhase.enlarged); plan.add(object: broadPhase.moving); plan.add(object: broadPhase.pairs)
        plan.add(object: broadPhase.grid.bandTotals)
        plan.add(object: islands.bodies); plan.add(object: islands.bodyStart); plan.add(object: islands.groupBodyStart)
        plan.add(object: islands.jointList); plan.add(object: islands.canSleep)
        for c in hotParts.columns { c.addBufferLines(to: &plan) }
    }
}

import DynamicsSolverKernels

/// A list of the memory a piece of work will touch (a world's step, an animator's tick), kept
/// so that the memory can be brought toward the processor's cache *before* the work starts:
/// while something else still computes.
///
/// Why: a thousand small animators stepped in turn are bound by memory, not arithmetic. Each
/// small world is cold when its turn comes, and its frame waits for over a hundred cache
/// lines spread over its objects and buffers, many one after the other as pointers lead to
/// them. A loop
/// over many independent pieces of work (`AnimationClock.advance(_:by:workers:)`) asks for
/// the next piece's lines while it computes the current one, so they arrive together and
/// meanwhile.
///
/// The plan holds addresses only, rounded down to their 64-byte line (kept compactly, as
/// 32-bit distances from its first line), and never reads or writes through them: a prefetch
/// is a hint that cannot fault, so an address that went stale (a buffer that grew and moved
/// since the plan was made) costs a wasted request, never a wrong result. Make the plan again now and then (the owner decides when) so it stays useful.
/// A plan has a fixed capacity; what does not fit is left out, and so is a line 16 GiB or more
/// from the plan's first.
public struct PrefetchPlan: ~Copyable {
    /// The most lines the plan holds.
    public let capacity: Int
    /// The plan's lines, `count` of them, no two neighbours equal, each as its distance from
    /// `anchor` in 8-byte words: 4 bytes an entry instead of 8, so that reading a menu's list
    /// (a hundred-odd lines, read once a frame) takes half the cache lines it took, and the
    /// prefetch loop still forms each address in one instruction (a scaled index). A line
    /// 16 GiB or more from the anchor is left out — a plan is only a hint.
    private let lines: UnsafeMutablePointer<Int32>
    /// The first line added since the plan was emptied: the origin of `lines`.
    private var anchor: UInt = 0
    /// The last line added (for leaving out a neighbour repeated).
    private var lastLine: UInt = 0
    /// Lines in the plan.
    public private(set) var count = 0
    /// The plan's first lines that an idle pass of the work still touches (`markIdlePrefix()`;
    /// 0 until marked): what `prefetch(.idle)` asks for.
    public private(set) var idleCount = 0
    /// The plan's first lines that every busy pass touches, a pass at rest among them
    /// (`markSharedPrefix()`; 0 until marked).
    public private(set) var sharedCount = 0
    /// The plan's first lines that a pass at rest touches (`markRestPrefix()`; 0 until
    /// marked): what `prefetch(.rest)` asks for. The lines between the shared and the rest
    /// marks only a pass at rest (or with contacts) touches.
    public private(set) var restCount = 0
    /// The plan's first lines that a pass without contacts touches, less those between the
    /// shared and the rest marks (`markMotionPrefix()`; 0 until marked): what
    /// `prefetch(.motion)` asks for.
    public private(set) var motionCount = 0

    /// How much of a plan to ask for: the part a pass of the work is expected to touch.
    /// The plan is listed in this order: idle lines, shared lines, rest lines, motion lines,
    /// the rest (contacts), each part marked at its end.
    public enum Part: UInt8, Sendable {
        /// Every line.
        case all
        /// The lines before `markIdlePrefix()`.
        case idle
        /// The lines before `markMotionPrefix()`, less those between `markSharedPrefix()` and
        /// `markRestPrefix()`.
        case motion
        /// The lines before `markRestPrefix()`.
        case rest
    }

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
    public mutating func removeAll() { count = 0; idleCount = 0; sharedCount = 0; restCount = 0; motionCount = 0; anchor = 0; lastLine = 0 }

    /// Marks the lines added so far as the ones an idle pass touches (a paused animator's
    /// check, say); the lines added after them only a busy pass does.
    public mutating func markIdlePrefix() { idleCount = count }

    /// Marks the lines added so far as the ones every busy pass touches; the lines added
    /// after them, up to `markRestPrefix()`, only a pass at rest or with contacts does.
    public mutating func markSharedPrefix() { sharedCount = count }

    /// Marks the lines added so far as the ones a pass at rest touches (a small world at a
    /// rest point, say: it compares its state with its copy and advances its sleep timers).
    public mutating func markRestPrefix() { restCount = count }

    /// Marks the lines added so far — less those between the shared and the rest marks — as
    /// the ones a pass without contacts touches (a world of bodies in flight, say); the lines
    /// added after them only a pass with contacts does.
    public mutating func markMotionPrefix() { motionCount = count }

    /// The number of lines in `part`.
    @inline(__always)
    public func lineCount(_ part: Part) -> Int {
        let (a, b) = ranges(part)
        return a.count + b.count
    }

    /// Where `part`'s lines are: one range of the list, or two for `.motion` (the rest lines
    /// left out).
    @inline(__always)
    func ranges(_ part: Part) -> (Range<Int>, Range<Int>) {
        switch part {
        case .all: (0..<count, 0..<0)
        case .idle: (0..<idleCount, 0..<0)
        case .motion: (0..<sharedCount, restCount..<Swift.max(restCount, motionCount))
        case .rest: (0..<restCount, 0..<0)
        }
    }

    /// Adds the lines of `bytes` bytes from `start`, at most `maxLines` of them (the first).
    public mutating func add(_ start: UnsafeRawPointer, bytes: Int, maxLines: Int = 4) {
        guard bytes > 0, maxLines > 0 else { return }
        let mask = ~UInt(Self.lineBytes - 1)
        let first = UInt(bitPattern: start) & mask
        let last = (UInt(bitPattern: start) + UInt(bytes) - 1) & mask
        var line = first
        var n = 0
        while line <= last && n < maxLines && count < capacity {
            if count == 0 {
                anchor = line
                lines[0] = 0
                lastLine = line
                count = 1
            } else if lastLine != line {
                let distance = (Int(bitPattern: line) &- Int(bitPattern: anchor)) >> 3
                if let entry = Int32(exactly: distance) {
                    lines[count] = entry
                    lastLine = line
                    count += 1
                }
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

    /// Adds the line of `object`'s weak-reference side table, when it has one (an object
    /// something holds weakly — an animator its clock and its behaviors do). Each retain and
    /// release of such an object, and each load through a weak reference to it, updates the
    /// counts in that table, a small block of its own elsewhere in the heap: for a menu's
    /// animator, a line its frame otherwise waits for on the clock's first read of it.
    ///
    /// Where the table is comes from the Swift runtime's reference-count word (the object's
    /// second word): with its two top bits set it holds the table's address shifted right by
    /// three. That layout is the runtime's, not a published interface; the word is read once,
    /// here, and never written, and the address is only asked for, never read — so if a
    /// runtime laid the word out otherwise, the plan would ask for a useless line, nothing
    /// more. (Tests check the layout against this toolchain's runtime:
    /// `PrefetchPlanTests.sideTableLine`.)
    public mutating func add(sideTableOf object: AnyObject) {
        if let table = Self.sideTable(of: object) { add(table, bytes: Self.sideTableBytes, maxLines: 2) }
    }

    /// Bytes of a side table entry this plan asks for (the object pointer and the counts).
    static let sideTableBytes = 32

    /// Where `object`'s side table is, if its reference-count word says it has one (see
    /// `add(sideTableOf:)`).
    static func sideTable(of object: AnyObject) -> UnsafeRawPointer? {
        let header = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        let bits = header.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt64.self)
        // Bit 63: counts kept out of line; bit 62: the rest of the word is a side table.
        guard bits >> 62 == 0b11 else { return nil }
        return UnsafeRawPointer(bitPattern: UInt((bits & (1 << 62 - 1)) << 3))
    }

    /// Adds the storage of `array` (its header and up to `maxLines` lines of elements); an
    /// empty array adds nothing.
    public mutating func add<T>(array: [T], maxLines: Int = 2) {
        guard array.capacity > 0 else { return }
        array.withUnsafeBufferPointer { b in
            guard let p = b.baseAddress else { return }
            // The array's count and capacity sit in the 16 bytes before its elements (after
            // its object header, which reading the array in place does not touch: asking from
            // there took a line no frame read whenever the two fell on different lines).
            let header = 16
            add(UnsafeRawPointer(p) - header, bytes: header + Swift.max(1, b.count) * MemoryLayout<T>.stride, maxLines: maxLines)
        }
    }

    /// Asks for the lines of `part` of the plan (default: every line).
    @inline(__always)
    public func prefetch(_ part: Part = .all) {
        let (a, b) = ranges(part)
        if !a.isEmpty { dk_prefetch_line_offsets(anchor, lines + a.lowerBound, a.count) }
        if !b.isEmpty { dk_prefetch_line_offsets(anchor, lines + b.lowerBound, b.count) }
    }

    /// Asks for the lines that hold the plan's own list of addresses for `part`: ask well
    /// before `prefetch(_:)` when the plan itself is cold (its list is read by `prefetch(_:)`;
    /// a list asked for just before it is waited for).
    @inline(__always)
    public func prefetchList(_ part: Part = .all) {
        let (r, s) = ranges(part)
        var a = UInt(bitPattern: lines) & ~UInt(Self.lineBytes - 1)
        let end = UInt(bitPattern: lines + Swift.max(r.upperBound, s.upperBound))
        while a < end { dk_prefetch_line(a); a += UInt(Self.lineBytes) }
    }

    /// Asks for the line holding `object`'s header and first stored properties (not retained,
    /// not read).
    @inline(__always)
    public static func prefetch(object: AnyObject) {
        prefetch(address: Unmanaged.passUnretained(object).toOpaque())
    }

    /// Asks for the lines holding the first 128 bytes at `address` (an object's, say: two
    /// lines, three when it does not start on a line), as `prefetch(object:)`.
    @inline(__always)
    public static func prefetch(address: UnsafeMutableRawPointer) {
        let a = UInt(bitPattern: address)
        dk_prefetch_line(a)
        dk_prefetch_line(a + UInt(lineBytes))
        dk_prefetch_line(a + UInt(2 * lineBytes - 1))
    }

    /// The plan's lines, for tests.
    var addresses: [UInt] { (0..<count).map { UInt(bitPattern: Int(bitPattern: anchor) &+ Int(lines[$0]) << 3) } }
}

extension PrefetchPlan {
    /// Adds the first `maxLines` lines of `column`'s elements, or the first line of its buffer
    /// when it is empty but has one: a buffer empty when the plan is made (a flying body's
    /// contacts, islands and colour batches) may fill before the next plan (up to 120 advances).
    @inline(__always)
    mutating func add<T>(buffer column: Column<T>, maxLines: Int = 4) {
        if column.count > 0 {
            add(UnsafeRawPointer(column.view.base), bytes: column.count * MemoryLayout<T>.stride, maxLines: maxLines)
        } else if column.capacity > 0 {
            add(UnsafeRawPointer(column.view.base), bytes: 1, maxLines: 1)
        }
    }

    /// Adds a pair-finder grid's buffers.
    mutating func add(grid g: UniformGrid) {
        add(buffer: g.cellStart); add(buffer: g.entries); add(buffer: g.entryMasks); add(buffer: g.entryRunEnds)
        add(buffer: g.ranges); add(buffer: g.bandTotals)
    }
}

extension World {
    /// Adds to `plan` the memory this world's next step will touch: the world object, its
    /// step context, contact set and rest snapshot, the column objects the step still reads,
    /// and the first lines of each buffer a small world's step reads that has storage
    /// (bodies, shapes, contacts, the pair finder's lists and grids, islands,
    /// the solver's and the colour batches'). Allocates nothing. Used by
    /// `AnimationClock.advance(_:by:workers:)` to prefetch one animator's world while the one
    /// before it steps; any owner of many small worlds can do the same.
    public func addHotLines(to plan: inout PrefetchPlan) {
        addIdleLines(to: &plan)
        addSharedLines(to: &plan)
        addRestLines(to: &plan)
        addMotionLines(to: &plan)
        addContactLines(to: &plan)
    }

    /// Adds to `plan` what asking whether this world has awake bodies (`hasAwakeBodies`)
    /// touches: the world object's first lines and its body records. The first part of
    /// `addHotLines(to:)`; a paused animator's tick reads no more of its world.
    public func addIdleLines(to plan: inout PrefetchPlan) {
        plan.add(object: self, lines: Swift.min(Self.idleWorldLines, worldLines))
        plan.add(object: metas)
        plan.add(buffer: metas)
    }

    /// The world object's first lines, which hold its body columns and slot counts (its
    /// stored properties are laid out in order, the body columns among the first).
    static let idleWorldLines = 4

    /// Cache lines of this object (found once).
    var worldLines: Int {
        if hotWorldLines == 0 {
            #if os(Linux)
            hotWorldLines = Swift.max(1, Swift.min(32, (mallocUsableSize(Unmanaged.passUnretained(self).toOpaque()) + 63) / 64))
            #else
            hotWorldLines = 16
            #endif
        }
        return hotWorldLines
    }

    /// Adds to `plan` what every step of this world reads beyond `addIdleLines(to:)`, a step
    /// at rest (`Rest.swift`) included: the rest of the world object (less its pair finder's
    /// and solver's lines), its contact set object, the rest copy's flags, the bodies'
    /// placements and states and their
    /// column objects, the islands' body lists (a step at rest lets islands fall asleep), the
    /// contact records' object. (A trace of a thousand menus' frames — every load and store —
    /// found a step at rest reading no fat box, manifold or behavior object: those are listed
    /// with the parts that read them.)
    public func addSharedLines(to plan: inout PrefetchPlan) {
        // The object's lines after the idle ones, less those that hold only the pair
        // finder's state or only the solver's (the full step's and the contacts' parts).
        addObjectLines(to: &plan, from: Self.idleWorldLines, except: pairFinderLines, contactSolverLines)
        plan.add(object: contacts, lines: 3)
        plan.add(object: rest)  // (its flags: a step at rest reads no more of it)
        plan.add(object: sims); plan.add(object: states)
        plan.add(object: contacts.records)
        plan.add(buffer: sims); plan.add(buffer: states)
        plan.add(object: islands.bodies); plan.add(object: islands.bodyStart); plan.add(object: islands.canSleep)
        plan.add(buffer: islands.bodyStart); plan.add(buffer: islands.bodies); plan.add(buffer: islands.canSleep)
    }

    /// The cache lines wholly inside this object's pair-finder state (`broadPhase`), as an
    /// address range: only a full step reads them. (Found from the field's address, so the
    /// split follows the stored properties wherever they move.)
    private var pairFinderLines: Range<UInt> {
        withUnsafeMutablePointer(to: &broadPhase) { Self.linesInside(UnsafeRawPointer($0), MemoryLayout<BroadPhase>.size) }
    }

    /// The cache lines wholly inside the solver's scratch and the colour batches (`solver` and
    /// `batches`, declared one after the other): only a step with contacts reads them.
    private var contactSolverLines: Range<UInt> {
        withUnsafeMutablePointer(to: &solver) { a in
            withUnsafeMutablePointer(to: &batches) { b in
                let end = UnsafeRawPointer(a) + MemoryLayout<SolverScratch>.size
                // (Not adjacent, the two are left to the shared lines: a hint, never a result.)
                guard end <= UnsafeRawPointer(b) && UnsafeRawPointer(b) - end < 8 else { return 0..<0 }
                return Self.linesInside(UnsafeRawPointer(a), UnsafeRawPointer(b) - UnsafeRawPointer(a) + MemoryLayout<ColoredBatches>.size)
            }
        }
    }

    /// The whole cache lines inside `bytes` bytes at `start`, as an address range.
    private static func linesInside(_ start: UnsafeRawPointer, _ bytes: Int) -> Range<UInt> {
        let line = UInt(PrefetchPlan.lineBytes)
        let lo = (UInt(bitPattern: start) + line - 1) & ~(line - 1)
        let hi = (UInt(bitPattern: start) + UInt(bytes)) & ~(line - 1)
        return lo < hi ? lo..<hi : 0..<0
    }

    /// Adds the cache lines of the address range `r` (line-aligned).
    private static func add(lines r: Range<UInt>, to plan: inout PrefetchPlan) {
        guard let p = UnsafeRawPointer(bitPattern: r.lowerBound), !r.isEmpty else { return }
        plan.add(p, bytes: r.count, maxLines: r.count / PrefetchPlan.lineBytes)
    }

    /// Adds this object's lines from its line `first` on (counting from its start), less
    /// the lines in `a` and in `b` (line-aligned address ranges).
    private func addObjectLines(to plan: inout PrefetchPlan, from first: Int, except a: Range<UInt>, _ b: Range<UInt>) {
        let start = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        let line = UInt(PrefetchPlan.lineBytes)
        var from = (start + UInt(first) * line) & ~(line - 1)
        let end = start + UInt(worldLines) * line
        // The lines before each cut, in address order (no array: making a plan allocates nothing).
        func upTo(_ cut: Range<UInt>) {
            guard !cut.isEmpty, cut.upperBound > from else { return }
            Self.add(lines: from..<Swift.max(from, cut.lowerBound), to: &plan)
            from = cut.upperBound
        }
        if a.lowerBound <= b.lowerBound { upTo(a); upTo(b) } else { upTo(b); upTo(a) }
        if from < end { Self.add(lines: from..<((end + line - 1) & ~(line - 1)), to: &plan) }
    }

    /// Adds to `plan` what only a step at rest (or one with contacts) reads beyond
    /// `addSharedLines(to:)`: the contacts' records. (Not the rest copy: a step at rest that
    /// no call preceded does not compare the world with it — `World.stateGeneration` — and
    /// after a call the comparison is one step's, as is the copy a full step makes.)
    public func addRestLines(to plan: inout PrefetchPlan) {
        plan.add(buffer: contacts.records)
    }

    /// Adds to `plan` what a full step of this world reads whether or not it has contacts,
    /// beyond `addSharedLines(to:)` (a step at rest reads none of it): its step context and
    /// flags, the fat boxes, the shapes' first lines, the pair finder's lists and grids, the
    /// islands' other lists, the joints when there are any. A step of bodies in flight (no
    /// contact) reads the shared lines and these.
    public func addMotionLines(to plan: inout PrefetchPlan) {
        // The world object's lines that hold only the pair finder's state.
        Self.add(lines: pairFinderLines, to: &plan)
        // Objects (beyond their first line for the larger ones).
        plan.add(object: stepContext, lines: 4)
        plan.add(object: boxEscaped); plan.add(object: linksChanged)
        plan.add(object: fastCounter)
        // The column objects a step still reads (the others are reached through the step
        // context's kept views, which need only the buffers).
        plan.add(object: shapeIsLarge); plan.add(object: fatBoxes); plan.add(object: contacts.data)
        plan.add(object: contacts.links)
        plan.add(object: broadPhase.enlarged); plan.add(object: broadPhase.moving); plan.add(object: broadPhase.pairs)
        plan.add(object: broadPhase.grid.bandTotals)
        plan.add(object: islands.groupBodyStart)
        // (and those a body in flight reads: a trace of a menu's frames found them missing;
        // the objects were allocated together, so neighbours share lines.)
        plan.add(object: shapes)
        plan.add(object: broadPhase.freshPairs); plan.add(object: broadPhase.workerPairs)
        // Small arrays: the free-slot lists (their counts), the pair finder's first chunk
        // buffer.
        plan.add(array: shapeSlots.freeSlots, maxLines: 1); plan.add(array: groupSlots.freeSlots, maxLines: 1)
        plan.add(buffer: broadPhase.workerPairs)
        if broadPhase.workerPairs.count > 0 { plan.add(array: broadPhase.workerPairs[0], maxLines: 1) }
        // Buffers: the bodies' fat boxes and shapes (a shape's first line: its box and
        // its place in the pool; the rest, and the pool's normals, a contact reads),
        plan.add(buffer: fatBoxes)
        plan.add(buffer: shapes, maxLines: 1); plan.add(buffer: shapeNext); plan.add(buffer: aabbs)
        plan.add(buffer: shapeIsLarge)
        plan.add(buffer: pool.vertices, maxLines: 1)
        // the pair finder,
        plan.add(buffer: broadPhase.moving); plan.add(buffer: broadPhase.movingSmall); plan.add(buffer: broadPhase.movingLarge)
        plan.add(buffer: broadPhase.staticLarge); plan.add(buffer: broadPhase.staticIDs)
        plan.add(buffer: broadPhase.enlarged); plan.add(buffer: broadPhase.enlargedList)
        plan.add(grid: broadPhase.grid); plan.add(grid: broadPhase.staticGrid)
        // the islands' other lists,
        plan.add(buffer: islands.islandOf); plan.add(buffer: islands.groupBodyStart)
        plan.add(buffer: islands.jointStart)
        // and the joints, when the world has had any (a snap, an attachment: an alert's
        // comes and goes with each showing, and the plan is made only now and then).
        if joints.capacity > 0 {
            plan.add(object: joints); plan.add(object: islands.jointList); plan.add(object: islands.groupJointStart)
            plan.add(buffer: joints); plan.add(buffer: islands.jointList); plan.add(buffer: islands.groupJointStart)
        }
    }

    /// Adds to `plan` what only a step with contacts reads (after `addMotionLines(to:)`): the
    /// manifolds, the shapes' other lines, the narrow phase's lists, the contact event lists
    /// and the contacts' links, the islands' contact lists, the solver's constraints and
    /// colour batches and the world object's solver lines.
    public func addContactLines(to plan: inout PrefetchPlan) {
        // The world object's lines that hold only the solver's scratch and colour batches.
        Self.add(lines: contactSolverLines, to: &plan)
        // What a contact reads beyond a body in flight: its manifold, the shapes' other
        // lines and the pool's normals, the merge's buffer, the bodies' group lists.
        plan.add(buffer: contacts.data)
        plan.add(buffer: shapes); plan.add(buffer: pool.vertices); plan.add(buffer: pool.normals, maxLines: 1)
        plan.add(buffer: contacts.mergeBuffer); plan.add(buffer: broadPhase.pairs)
        plan.add(object: groupsOfBody.head); plan.add(object: bounceFlag)
        plan.add(object: joints); plan.add(object: continuousChunkHits)
        plan.add(object: contactChanges); plan.add(object: staticTouches)
        // (The event lists: a step reads them only when it has events, a contact's.)
        plan.add(array: contacts.beginEvents, maxLines: 1); plan.add(array: contacts.endEvents, maxLines: 1)
        plan.add(array: contacts.pendingEndEvents, maxLines: 1)
        plan.add(object: islands.contactStart); plan.add(object: islands.contactList)
        plan.add(object: islands.groupContactStart)
        plan.add(object: solver.constraints)
        plan.add(object: batches.order); plan.add(object: batches.wide); plan.add(object: batches.wideExtra)
        plan.add(object: batches.wideStart); plan.add(object: batches.overflow); plan.add(object: batches.overflowStart)
        plan.add(object: batches.colorStart); plan.add(object: batches.batchSource); plan.add(object: batches.batchLanes)
        plan.add(buffer: contactChanges); plan.add(buffer: staticTouches)
        if contactChanges.count > 0 { plan.add(array: contactChanges[0], maxLines: 1) }
        if staticTouches.count > 0 { plan.add(array: staticTouches[0], maxLines: 1) }
        // the contacts' links (their records are in the rest lines),
        plan.add(buffer: contacts.links)
        // the islands' contacts, the solver and the colour batches.
        plan.add(buffer: islands.contactStart); plan.add(buffer: islands.contactList); plan.add(buffer: islands.groupContactStart)
        plan.add(buffer: solver.constraints); plan.add(buffer: solver.cursor); plan.add(buffer: solver.smallIslands)
        // (A batch is ten lines; a small world's island uses the first.)
        plan.add(buffer: batches.wide, maxLines: 10); plan.add(buffer: batches.wideExtra); plan.add(buffer: batches.wideStart)
        plan.add(buffer: batches.colorStart); plan.add(buffer: batches.order); plan.add(buffer: batches.bodyColors)
        plan.add(buffer: batches.colorOf); plan.add(buffer: batches.batchSource); plan.add(buffer: batches.batchLanes)
        plan.add(buffer: batches.islandCounts)
    }
}

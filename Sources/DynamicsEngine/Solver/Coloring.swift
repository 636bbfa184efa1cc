/// Graph colouring of each island's contact constraints, and packing of every colour into
/// 4-wide batches (`WideContact`).
///
/// A constraint takes the first of `colorCount` colours in which neither of its dynamic bodies
/// appears yet (static and kinematic bodies are only read, so they never block a colour);
/// constraints that fit no colour go to the island's overflow list and are solved one by one
/// after the colours. Colouring runs serially in constraint order, so the result — and the
/// solve order it implies — does not depend on the number of worker threads.
struct ColoredBatches {
    static let colorCount = 24

    /// Per body slot: bit k set when the body already has a constraint of colour k.
    var bodyColors: [UInt32] = []
    var colorOf: [UInt8] = []
    var order: [Int32] = []
    var wide: [WideContact] = []
    /// `wide[wideStart[i] ..< wideStart[i + 1]]` are island i's batches, colour by colour.
    var wideStart: [Int32] = []
    var overflow: [Int32] = []
    var overflowStart: [Int32] = []
    /// Per island: `colorStart` offsets into `wide` for each colour (colorCount + 1 entries
    /// per island), so a colour's batches can be split across workers.
    var colorStart: [Int32] = []
    /// Per island: the constraint count of each colour (colorCount + 1 entries per island, the
    /// last one the overflow), written by the colouring pass and read by the offsets and packing.
    var islandCounts: [Int32] = []
    /// Per batch: where its constraints start in `order` and how many lanes they fill (1–4),
    /// written by the offsets pass so that packing can be split by batch, not by island.
    var batchSource: [Int32] = []
    var batchLanes: [UInt8] = []

    /// Colours every island's constraints and packs them into batches, on up to `workers`
    /// threads. Three passes: (1) islands are coloured and their constraints counting-sorted by
    /// colour in parallel (an island touches only its own bodies, constraints and counts);
    /// (2) every island's offsets into `wide` and `overflow`, and every batch's source range,
    /// are laid out serially in island order; (3) batches are packed in parallel, in chunks of
    /// batches, so one giant island is split too. What each island and batch holds is the same
    /// whoever computes it, so the batches never depend on the worker count.
    mutating func build(islands ib: IslandBuilder, constraints: UnsafeMutablePointer<ContactConstraint>,
                        bodyCount: Int, padBody: Int32, workers: Int = 1, counter: WorkCounter? = nil) {
        let n = ib.count
        let total = n > 0 ? Int(ib.contactStart[n]) : 0
        let k = Self.colorCount
        let stride = k + 1
        if bodyColors.count < bodyCount { bodyColors.append(contentsOf: repeatElement(0, count: bodyCount - bodyColors.count)) }
        if colorOf.count < total { colorOf.append(contentsOf: repeatElement(0, count: total - colorOf.count)) }
        if order.count < total { order.append(contentsOf: repeatElement(0, count: total - order.count)) }
        if islandCounts.count < n * stride { islandCounts.append(contentsOf: repeatElement(0, count: n * stride - islandCounts.count)) }
        let chunk = 8
        let claim = counter ?? WorkCounter()
        let all: UInt32 = (1 << UInt32(k)) - 1

        // Pass 1: colour and sort each island.
        bodyColors.withUnsafeMutableBufferPointer { bcB in
        colorOf.withUnsafeMutableBufferPointer { coB in
        order.withUnsafeMutableBufferPointer { orB in
        islandCounts.withUnsafeMutableBufferPointer { icB in
            let v = IslandColoring(bodyColors: orDummy(bcB.baseAddress), colorOf: orDummy(coB.baseAddress),
                                   order: orDummy(orB.baseAddress), counts: orDummy(icB.baseAddress),
                                   bodies: ib.bodies.baseOrDummy, bodyStart: ib.bodyStart.baseOrDummy,
                                   contactStart: ib.contactStart.baseOrDummy, constraints: constraints, all: all)
            Parallel.forChunks(workers: workers, count: n, chunkSize: chunk, counter: claim) { r, _ in
                for isl in r { v.color(island: isl) }
            }
        }}}}

        // Pass 2: offsets, in island order; each batch's source range in `order`; the
        // overflow lists (short) are copied here.
        wideStart.removeAll(keepingCapacity: true)
        overflowStart.removeAll(keepingCapacity: true)
        colorStart.removeAll(keepingCapacity: true)
        batchSource.removeAll(keepingCapacity: true)
        batchLanes.removeAll(keepingCapacity: true)
        var w: Int32 = 0, o: Int32 = 0
        var spills = 0
        for isl in 0..<n { spills += Int(islandCounts[isl * stride + k]) }
        if overflow.count < spills { overflow.append(contentsOf: repeatElement(0, count: spills - overflow.count)) }
        for isl in 0..<n {
            wideStart.append(w)
            overflowStart.append(o)
            var cursor = ib.contactStart[isl]
            for q in 0..<k {
                colorStart.append(w)
                let count = islandCounts[isl * stride + q]
                var first: Int32 = 0
                while first < count {
                    batchSource.append(cursor + first)
                    batchLanes.append(UInt8(min(4, count - first)))
                    first += 4
                }
                cursor += count
                w += (count + 3) / 4
            }
            colorStart.append(w)
            let spill = islandCounts[isl * stride + k]
            for j in 0..<spill { overflow[Int(o + j)] = order[Int(cursor + j)] }
            o += spill
        }
        wideStart.append(w)
        overflowStart.append(o)
        // Pass 3 clears and fills every slot below `w`, so the array is only ever grown.
        if wide.count < Int(w) { wide.append(contentsOf: repeatElement(WideContact(), count: Int(w) - wide.count)) }

        // Pass 3: pack the batches, in chunks of batches (a giant island is split too).
        let pad = WideContact.padding(body: padBody)
        wide.withUnsafeMutableBufferPointer { wB in
        order.withUnsafeBufferPointer { orB in
        batchSource.withUnsafeBufferPointer { srcB in
        batchLanes.withUnsafeBufferPointer { lanesB in
            let v = BatchPacking(wide: orDummy(wB.baseAddress), order: orDummy(orB.baseAddress),
                                 source: orDummy(srcB.baseAddress), lanes: orDummy(lanesB.baseAddress),
                                 constraints: constraints, pad: pad)
            Parallel.forChunks(workers: workers, count: Int(w), chunkSize: 128, counter: claim) { r, _ in v.pack(r) }
        }}}}
    }
}

/// Pass 1 of `ColoredBatches.build` for one island, through raw pointers (shared read-only by
/// the workers; each island writes only its own bodies' colour masks, its own constraint range
/// of `colorOf` / `order` and its own row of `counts`).
private struct IslandColoring: @unchecked Sendable {
    let bodyColors: UnsafeMutablePointer<UInt32>
    let colorOf: UnsafeMutablePointer<UInt8>
    let order: UnsafeMutablePointer<Int32>
    let counts: UnsafeMutablePointer<Int32>
    let bodies: UnsafePointer<Int32>
    let bodyStart: UnsafePointer<Int32>
    let contactStart: UnsafePointer<Int32>
    let constraints: UnsafeMutablePointer<ContactConstraint>
    let all: UInt32

    func color(island isl: Int) {
        let k = ColoredBatches.colorCount
        let row = counts + isl * (k + 1)
        for q in 0...k { row[q] = 0 }
        for q in Int(bodyStart[isl])..<Int(bodyStart[isl + 1]) { bodyColors[Int(bodies[q])] = 0 }
        let c0 = Int(contactStart[isl]), c1 = Int(contactStart[isl + 1])
        for i in c0..<c1 {
            let writeA = constraints[i].writeA, writeB = constraints[i].writeB
            let a = Int(constraints[i].bodyA), b = Int(constraints[i].bodyB)
            let ma = writeA ? bodyColors[a] : 0
            let mb = writeB ? bodyColors[b] : 0
            let free = ~(ma | mb) & all
            var color = k
            if free != 0 {
                color = free.trailingZeroBitCount
                let bit: UInt32 = 1 << UInt32(color)
                if writeA { bodyColors[a] |= bit }
                if writeB { bodyColors[b] |= bit }
            }
            colorOf[i] = UInt8(color)
            row[color] += 1
        }
        // Counting sort by colour, stable in constraint order, into order[c0 ..< c1].
        withUnsafeTemporaryAllocation(of: Int.self, capacity: k + 1) { starts in
            var at = c0
            for q in 0...k { starts[q] = at; at += Int(row[q]) }
            for i in c0..<c1 {
                let q = Int(colorOf[i])
                order[starts[q]] = Int32(i)
                starts[q] += 1
            }
        }
    }
}

/// Pass 3 of `ColoredBatches.build`: each batch is written only by the worker that packs it.
private struct BatchPacking: @unchecked Sendable {
    let wide: UnsafeMutablePointer<WideContact>
    let order: UnsafePointer<Int32>
    let source: UnsafePointer<Int32>
    let lanes: UnsafePointer<UInt8>
    let constraints: UnsafeMutablePointer<ContactConstraint>
    let pad: ContactConstraint

    func pack(_ batches: Range<Int>) {
        var padding = pad
        for b in batches {
            // A batch's slot may hold last step's batch: start it clean (a one-point lane
            // leaves its second point's fields untouched).
            wide[b] = WideContact()
            let src = Int(source[b]), count = Int(lanes[b])
            for lane in 0..<count {
                let i = order[src + lane]
                wide[b].load(lane: lane, from: &constraints[Int(i)], index: i)
            }
            for lane in count..<4 { wide[b].load(lane: lane, from: &padding, index: -1) }
        }
    }
}

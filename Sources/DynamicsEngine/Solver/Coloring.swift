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
    /// Reused per-island counters (no allocation per step).
    var counts = [Int](repeating: 0, count: ColoredBatches.colorCount + 1)
    var starts = [Int](repeating: 0, count: ColoredBatches.colorCount + 2)

    mutating func build(islands ib: IslandBuilder, constraints: UnsafeMutablePointer<ContactConstraint>,
                        bodyCount: Int, padBody: Int32) {
        let n = ib.count
        let total = n > 0 ? Int(ib.contactStart[n]) : 0
        if bodyColors.count < bodyCount { bodyColors.append(contentsOf: repeatElement(0, count: bodyCount - bodyColors.count)) }
        if colorOf.count < total { colorOf.append(contentsOf: repeatElement(0, count: total - colorOf.count)) }
        if order.count < total { order.append(contentsOf: repeatElement(0, count: total - order.count)) }
        wide.removeAll(keepingCapacity: true)
        overflow.removeAll(keepingCapacity: true)
        wideStart.removeAll(keepingCapacity: true)
        overflowStart.removeAll(keepingCapacity: true)
        colorStart.removeAll(keepingCapacity: true)
        let k = Self.colorCount
        let all: UInt32 = (1 << UInt32(k)) - 1
        let pad = WideContact.padding(body: padBody)
        for isl in 0..<n {
            wideStart.append(Int32(wide.count))
            overflowStart.append(Int32(overflow.count))
            for q in Int(ib.bodyStart[isl])..<Int(ib.bodyStart[isl + 1]) { bodyColors[Int(ib.bodies[q])] = 0 }
            let c0 = Int(ib.contactStart[isl]), c1 = Int(ib.contactStart[isl + 1])
            for q in 0...k { counts[q] = 0 }
            bodyColors.withUnsafeMutableBufferPointer { bc in
                for i in c0..<c1 {
                    let writeA = constraints[i].writeA, writeB = constraints[i].writeB
                    let a = Int(constraints[i].bodyA), b = Int(constraints[i].bodyB)
                    let ma = writeA ? bc[a] : 0
                    let mb = writeB ? bc[b] : 0
                    let free = ~(ma | mb) & all
                    var color = k
                    if free != 0 {
                        color = free.trailingZeroBitCount
                        let bit: UInt32 = 1 << UInt32(color)
                        if writeA { bc[a] |= bit }
                        if writeB { bc[b] |= bit }
                    }
                    colorOf[i] = UInt8(color)
                    counts[color] += 1
                }
            }
            // Counting sort by colour, stable in constraint order.
            starts[0] = c0
            for q in 0...k { starts[q + 1] = starts[q] + counts[q] }
            for i in c0..<c1 {
                let q = Int(colorOf[i])
                order[starts[q]] = Int32(i)
                starts[q] += 1
            }
            // Pack each colour into batches of four: size the array once, fill through one view.
            var batchCount = 0
            for q in 0..<k { batchCount += (counts[q] + 3) / 4 }
            let first = wide.count
            wide.append(contentsOf: repeatElement(WideContact(), count: batchCount))
            var cursor = c0
            wide.withUnsafeMutableBufferPointer { wb in
                var w = first
                var padding = pad
                for q in 0..<k {
                    colorStart.append(Int32(w))
                    var lane = 0
                    for _ in 0..<counts[q] {
                        let i = order[cursor]; cursor += 1
                        wb[w].load(lane: lane, from: &constraints[Int(i)], index: i)
                        lane += 1
                        if lane == 4 { lane = 0; w += 1 }
                    }
                    if lane > 0 {
                        while lane < 4 { wb[w].load(lane: lane, from: &padding, index: -1); lane += 1 }
                        w += 1
                    }
                }
            }
            colorStart.append(Int32(wide.count))
            for _ in 0..<counts[k] { overflow.append(order[cursor]); cursor += 1 }
        }
        wideStart.append(Int32(wide.count))
        overflowStart.append(Int32(overflow.count))
    }
}

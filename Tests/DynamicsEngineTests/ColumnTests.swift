import Testing
@testable import DynamicsEngine

/// The world's storage (`Column`) and the views its passes read through (`View`,
/// `MutableView`): growth keeps the elements, and debug builds stop on an index outside.
@Suite("Columns and views")
struct ColumnTests {
    @Test("a column grows, truncates, swaps and hands out views of what it holds")
    func growAndView() {
        let c = Column<Int32>()
        #expect(c.isEmpty && c.capacity == 0)
        for i in 0..<100 { c.append(Int32(i)) }
        #expect(c.count == 100 && c.capacity >= 100 && c.elementsEqual((0..<100).map(Int32.init)))
        c.grow(to: 103, with: -1)
        #expect(c.count == 103 && c[102] == -1)
        c.truncate(to: 10)
        #expect(Array(c) == (0..<10).map(Int32.init))
        c[3] += 40
        let v = c.view, m = c.mutableView
        #expect(v.count == 10 && v[3] == 43)
        m[4] = 7
        #expect(c[4] == 7 && m.readOnly[4] == 7)
        let part = v.subview(2..<5), mpart = m.subview(4..<6)
        #expect(part.count == 3 && part[0] == 2 && part[1] == 43 && Array(part) == [2, 43, 7])
        mpart[1] = 9
        #expect(c[5] == 9 && mpart.count == 2)
        let other = Column<Int32>([1, 2])
        c.swapStorage(with: other)
        #expect(Array(c) == [1, 2] && other.count == 10 && other[4] == 7)
        #expect(c.popLast() == 2 && c.count == 1)
        c.removeAll(keepingCapacity: false)
        #expect(c.isEmpty && c.capacity == 0)
    }

    @Test("a column's counts are 32-bit: it holds up to Int32.max elements and refuses more with a message")
    func countsAre32Bit() async {
        #expect(Column<UInt8>.maxCount == Int(Int32.max))
        // Counts round-trip through their 32-bit storage (grown past 2^16, swapped, truncated).
        let c = Column<UInt8>(), d = Column<UInt8>()
        c.append(contentsOf: repeatElement(7, count: 70_000))
        #expect(c.count == 70_000 && c.capacity >= 70_000 && c[69_999] == 7)
        c.swapStorage(with: d)
        #expect(c.count == 0 && c.capacity == 0 && d.count == 70_000 && d.capacity >= 70_000)
        d.truncate(to: 65_537)
        #expect(d.count == 65_537 && d.view.count == 65_537)
        let refused = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Column<UInt8>().reserveCapacity(Int(Int32.max) + 1)
        }
        let message = String(decoding: refused?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("more than a column holds"), "\(message)")
    }

#if DEBUG
    @Test("the standard library's algorithms work on a column in place (sort() copied it into a new array before)")
    func inPlaceAlgorithms() {
        let c = Column<Float>([3, -1, 2, 8, 0])
        var sorted = c  // a reference: sorted in place
        sorted.sort()
        #expect(Array(c) == [-1, 0, 2, 3, 8])
        // In place: the storage seen through the standard library is the column's own.
        let same = c.withContiguousMutableStorageIfAvailable { $0.baseAddress == c.mutableView.pointer(at: 0, count: 5) }
        #expect(same == true)
        #expect(c.withContiguousStorageIfAvailable { $0.reduce(0, +) } == 12)
        let empty = Column<Float>()
        #expect(empty.withContiguousMutableStorageIfAvailable { $0.count } == 0)
    }

    @Test("debug builds stop with a message on an index or a range outside a column or a view")
    func boundsChecked() async {
        let column = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let c = Column<Int32>([5])
            _ = c[1]
        }
        let columnMessage = String(decoding: column?.standardErrorContent ?? [], as: UTF8.self)
        #expect(columnMessage.contains("Column: index 1 outside 0..<1"), "\(columnMessage)")
        let view = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let c = Column<Int32>([5, 6])
            c.mutableView[-1] = 0
        }
        let viewMessage = String(decoding: view?.standardErrorContent ?? [], as: UTF8.self)
        #expect(viewMessage.contains("MutableView: index -1 outside 0..<2"), "\(viewMessage)")
        let run = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let c = Column<Int32>([5, 6])
            _ = c.view.pointer(at: 1, count: 2)
        }
        let runMessage = String(decoding: run?.standardErrorContent ?? [], as: UTF8.self)
        #expect(runMessage.contains("View: elements 1..<3 outside 0..<2"), "\(runMessage)")
        let part = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let c = Column<Int32>([5, 6, 7])
            _ = c.view.subview(2..<4)
        }
        let partMessage = String(decoding: part?.standardErrorContent ?? [], as: UTF8.self)
        #expect(partMessage.contains("View: elements 2..<4 outside 0..<3"), "\(partMessage)")
    }
#endif

    @Test("an element's prefetch reaches every line it spans, and no other, whatever its size and alignment")
    func elementLines() {
        for size in [0, 1, 8, 32, 60, 64, 65, 88, 120, 128, 129, 200, 448] {
            for offset in stride(from: UInt(0), to: 128, by: 4) {
                let address = 0x7F00_0000_1000 + offset
                var asked = Set<UInt>()
                forEachPrefetchAddress(address, size) { asked.insert($0 & ~63) }
                let spanned = Set(stride(from: address & ~63, through: (address + UInt(max(size, 1)) - 1) & ~63, by: 64))
                #expect(asked == spanned, "size \(size) at offset \(offset): asked for lines \(asked.sorted()), spans \(spanned.sorted())")
            }
        }
        // Asking for every element of a view and of a mutable view changes none of them.
        let column = Column<ContactData>()
        for k in 0..<37 { var d = ContactData(); d.cachedOffset = Vec2(Float(k), -Float(k)); column.append(d) }
        let view = column.view, mutable = column.mutableView
        for k in view.indices { view.prefetch(k); mutable.prefetch(k) }
        #expect(column.indices.allSatisfy { column[$0].cachedOffset == Vec2(Float($0), -Float($0)) })
    }
}

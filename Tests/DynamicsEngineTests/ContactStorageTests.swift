import Testing
@testable import DynamicsEngine

/// The memory layout the large-world figures depend on (Results/large-worlds.md): a
/// field added to these records costs every contact of a 100 000-body pile.
@Suite("Contact storage")
struct ContactStorageTests {
    @Test("the merged contact record is 40 bytes, its manifold slot 128 and list links 24, a batch of four solver contacts 592")
    func contactRecordSlotLinkAndBatchSizes() {
        #expect(MemoryLayout<Contact>.stride == 40)
        #expect(MemoryLayout<ContactData>.stride == 128)
        #expect(MemoryLayout<ContactEdges>.stride == 24)
        #expect(MemoryLayout<WideContact>.stride == 592)
    }

    @Test("contacts that end free their manifold slot and new contacts reuse it: churn does not grow the slots")
    func slotsAreReused() throws {
        let w = TestWorld.make()
        try TestWorld.ground(w, top: 0)
        // A row of boxes resting on the ground (one contact each), destroyed and made again.
        var peak = 0
        for round in 0..<5 {
            let boxes = try (0..<20).map { k in try TestWorld.box(w, at: Vec2(Float(k) * 150 - 1425, -50), size: Vec2(100, 100)) }
            TestWorld.run(w, seconds: 0.25)
            #expect(w.touchingContactCount == 20, "round \(round)")
            peak = max(peak, w.contacts.data.count)
            for b in boxes { w.destroyBody(b) }
            TestWorld.run(w, seconds: 0.05)
            #expect(w.contactCount == 0)
        }
        #expect(peak == 20, "slots in use at most: \(peak)")
        #expect(w.contacts.freeSlots.count == w.contacts.data.count)
    }
}

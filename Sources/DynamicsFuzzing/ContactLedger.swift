import DynamicsKit
import Foundation

/// The collision delegate of one fuzzed `CollisionBehavior`: it keeps, per item pair and per
/// (item, boundary identifier), whether the pair is touching, and reports a violation for a
/// `began` while touching (a duplicate), an `ended` while not touching (no `began` before it),
/// and calls about items or boundaries the behavior does not have.
final class ContactLedger: CollisionBehaviorDelegate {
    /// An unordered item pair.
    struct PairKey: Hashable {
        let a: ObjectIdentifier, b: ObjectIdentifier
        init(_ x: ObjectIdentifier, _ y: ObjectIdentifier) { if x < y { a = x; b = y } else { a = y; b = x } }
    }
    /// An item and a boundary identifier (nil: the reference-bounds boundary).
    struct BoundaryKey: Hashable {
        let item: ObjectIdentifier
        let identifier: String?
    }

    weak var sequence: AppLifeSequence?
    unowned let record: BehaviorRecord
    /// Touching pairs, with the call index of their `began`.
    var pairs: [PairKey: Int] = [:]
    var boundaries: [BoundaryKey: Int] = [:]
    var beganCount = 0, endedCount = 0

    init(sequence: AppLifeSequence, record: BehaviorRecord) {
        self.sequence = sequence
        self.record = record
    }

    var isTouchingAnything: Bool { !pairs.isEmpty || !boundaries.isEmpty }

    private var collision: CollisionBehavior { record.behavior as! CollisionBehavior }

    private func holds(_ item: any DynamicItem) -> Bool { collision.items.contains { $0 === item } }

    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem, with item2: any DynamicItem, at p: CGPoint) {
        guard let seq = sequence else { return }
        beganCount += 1
        let what = "\(record.name) began \(seq.name(item1))–\(seq.name(item2))"
        seq.logCallback(what)
        checkBehavior(behavior, seq, what)
        if item1 === item2 { seq.fail("item touching itself", "\(what): both items are the same") }
        if !holds(item1) || !holds(item2) {
            seq.fail("began for an item not in the behavior", "\(what): \(holds(item1) ? seq.name(item2) : seq.name(item1)) is not one of its items")
        }
        if !collision.collisionMode.contains(.items) {
            seq.fail("item contact while mode excludes items", "\(what) while collisionMode excludes .items")
        }
        guard p.x.isFinite && p.y.isFinite else { seq.fail("non-finite contact point", "\(what) at \(p)"); return }
        let key = PairKey(ObjectIdentifier(item1), ObjectIdentifier(item2))
        if let since = pairs[key] {
            seq.fail("duplicate began (item–item)", "\(what): already touching since call #\(since), no ended in between")
        } else {
            pairs[key] = seq.callIndex
        }
        seq.callbackHook(from: record)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem, with item2: any DynamicItem) {
        guard let seq = sequence else { return }
        endedCount += 1
        let what = "\(record.name) ended \(seq.name(item1))–\(seq.name(item2))"
        seq.logCallback(what)
        checkBehavior(behavior, seq, what)
        for item in [item1, item2] where !record.everItems.contains(ObjectIdentifier(item)) {
            seq.fail("ended for an item never in the behavior", "\(what): \(seq.name(item)) was never one of its items")
        }
        let key = PairKey(ObjectIdentifier(item1), ObjectIdentifier(item2))
        if pairs.removeValue(forKey: key) == nil {
            seq.fail("ended without began (item–item)", "\(what): the pair was not touching (no began before, or a second ended)")
        }
        seq.callbackHook(from: record)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?, at p: CGPoint) {
        guard let seq = sequence else { return }
        beganCount += 1
        let what = "\(record.name) began \(seq.name(item))–boundary \(identifier.map { "\"\($0)\"" } ?? "nil")"
        seq.logCallback(what)
        checkBehavior(behavior, seq, what)
        if !holds(item) { seq.fail("began for an item not in the behavior", "\(what): \(seq.name(item)) is not one of its items") }
        if !record.everBoundaryIDs.contains(identifier) {
            seq.fail("unknown boundary identifier", "\(what): the behavior never had that boundary")
        } else if identifier == nil ? !collision.translatesReferenceBoundsIntoBoundary
                                    : !(collision.boundaryIdentifiers ?? []).contains(identifier!) {
            seq.fail("began for a removed boundary", "\(what): the behavior no longer has that boundary")
        }
        if !collision.collisionMode.contains(.boundaries) {
            seq.fail("boundary contact while mode excludes boundaries", "\(what) while collisionMode excludes .boundaries")
        }
        guard p.x.isFinite && p.y.isFinite else { seq.fail("non-finite contact point", "\(what) at \(p)"); return }
        let key = BoundaryKey(item: ObjectIdentifier(item), identifier: identifier)
        if let since = boundaries[key] {
            seq.fail("duplicate began (boundary)", "\(what): already touching since call #\(since), no ended in between")
        } else {
            boundaries[key] = seq.callIndex
        }
        seq.callbackHook(from: record)
    }

    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem, withBoundaryIdentifier identifier: String?) {
        guard let seq = sequence else { return }
        endedCount += 1
        let what = "\(record.name) ended \(seq.name(item))–boundary \(identifier.map { "\"\($0)\"" } ?? "nil")"
        seq.logCallback(what)
        checkBehavior(behavior, seq, what)
        if !record.everItems.contains(ObjectIdentifier(item)) {
            seq.fail("ended for an item never in the behavior", "\(what): \(seq.name(item)) was never one of its items")
        }
        if !record.everBoundaryIDs.contains(identifier) {
            seq.fail("unknown boundary identifier", "\(what): the behavior never had that boundary")
        }
        let key = BoundaryKey(item: ObjectIdentifier(item), identifier: identifier)
        if boundaries.removeValue(forKey: key) == nil {
            seq.fail("ended without began (boundary)", "\(what): the pair was not touching (no began before, or a second ended)")
        }
        seq.callbackHook(from: record)
    }

    private func checkBehavior(_ behavior: CollisionBehavior, _ seq: AppLifeSequence, _ what: String) {
        if behavior !== record.behavior { seq.fail("delegate told about another behavior", "\(what): the call names another behavior") }
    }
}

/// The animator delegate: `willResume` and `didPause` must alternate, in step with `isRunning`.
final class PauseLedger: DynamicAnimatorDelegate {
    weak var sequence: AppLifeSequence?
    let index: Int
    var resumes = 0, pauses = 0

    init(sequence: AppLifeSequence, index: Int) {
        self.sequence = sequence
        self.index = index
    }

    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {
        resumes += 1
        if resumes - pauses != 1 { sequence?.fail("willResume twice", "animator \(index): dynamicAnimatorWillResume without a didPause since the last one") }
        if !animator.isRunning { sequence?.fail("willResume while not running", "animator \(index): dynamicAnimatorWillResume but isRunning is false") }
    }

    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
        pauses += 1
        if resumes != pauses { sequence?.fail("didPause without willResume", "animator \(index): dynamicAnimatorDidPause without a willResume before it") }
        if animator.isRunning { sequence?.fail("didPause while running", "animator \(index): dynamicAnimatorDidPause but isRunning is true") }
    }
}

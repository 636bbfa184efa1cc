import Synchronization

/// A flag any worker may raise during a parallel pass (set at most once per chunk of work).
final class WorkFlag: @unchecked Sendable {
    private let value = Atomic<Bool>(false)
    func clear() { value.store(false, ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
    /// Read after the pass (the pass's join orders it after every `set`).
    var isSet: Bool { value.load(ordering: .relaxed) }
}

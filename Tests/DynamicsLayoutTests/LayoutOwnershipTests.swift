import DynamicsKit
import Foundation
import Testing
@testable import DynamicsLayout

/// Where layout's state lives: pending passes with the thread that made them pending (run by
/// that thread's clock advances), conflict handlers with the view hierarchy they are set on.
@Suite struct LayoutOwnershipTests {
    func box(_ root: DynamicView, _ name: String) -> DynamicView {
        let v = DynamicView(frame: .zero)
        v.name = name
        v.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(v)
        return v
    }

    /// Runs `body` on a new thread and waits for it.
    func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let t = Thread { body(); done.signal() }
        t.start()
        done.wait()
    }

    @Test func aPendingPassRunsWhenAClockAdvancesOnItsThreadNotOnAnother() {
        let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        let v = box(root, "v")
        LayoutConstraint.activate([v.leftAnchor.constraint(equalTo: root.leftAnchor, constant: 5), v.topAnchor.constraint(equalTo: root.topAnchor),
                                   v.widthAnchor.constraint(equalToConstant: 30), v.heightAnchor.constraint(equalToConstant: 20)])
        // Another thread's clock runs that thread's passes, not this one's.
        let other = AnimationClock()
        onAnotherThread { other.advance(by: 1.0 / 60) }
        #expect(v.frame == .zero)
        let clock = AnimationClock()
        clock.advance(by: 1.0 / 60)
        #expect(v.frame == CGRect(x: 5, y: 0, width: 30, height: 20))
        // Nothing pending: an advance leaves the frame as it is.
        v.frame = CGRect(x: 1, y: 1, width: 1, height: 1)
        clock.advance(by: 1.0 / 60)
        #expect(v.frame == CGRect(x: 1, y: 1, width: 1, height: 1))
    }

    @Test func aViewLeavingASuperviewWithoutLayoutTakesNothingWithIt() {
        let root = DynamicView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        let plain = DynamicView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        root.addSubview(plain)
        let inner = box(plain, "inner")
        let w = inner.widthAnchor.constraint(equalToConstant: 10)
        w.isActive = true
        plain.removeFromSuperview()
        #expect(w.isActive && inner.superview === plain)
    }

    /// Two hierarchies, each with a handler: a conflict in one reaches its own handler only,
    /// and neither the other's nor the program-wide one.
    @Test func aConflictHandlerSetOnOneHierarchyIsNotCalledForAnother() {
        final class Log: @unchecked Sendable { var names: [String] = [] }
        let log = Log()
        let first = DynamicView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        let second = DynamicView(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        first.layoutConflictHandler = { _ in log.names.append("first") }
        second.layoutConflictHandler = { c in log.names.append("second:\(c.brokenConstraint.identifier ?? "")") }
        #expect(first.layoutConflictHandler != nil)
        let a = box(first, "a"), b = box(second, "b")
        LayoutConstraint.activate([a.widthAnchor.constraint(equalToConstant: 10), b.widthAnchor.constraint(equalToConstant: 10)])
        let clash = b.widthAnchor.constraint(equalToConstant: 20)
        clash.identifier = "clash"
        clash.isActive = true
        first.layoutIfNeeded()
        #expect(log.names == ["second:clash"])
        #expect(clash.isBroken)
        // A nearer view's handler wins over its ancestors'.
        let inner = box(b, "inner")
        b.layoutConflictHandler = { _ in log.names.append("b") }
        inner.widthAnchor.constraint(equalToConstant: 5).isActive = true
        inner.widthAnchor.constraint(equalToConstant: 6).isActive = true
        #expect(log.names == ["second:clash", "b"])
        // Cleared, the conflicts go up to the next handler.
        b.layoutConflictHandler = nil
        inner.widthAnchor.constraint(equalToConstant: 7).isActive = true
        #expect(log.names == ["second:clash", "b", "second:"])
    }
}

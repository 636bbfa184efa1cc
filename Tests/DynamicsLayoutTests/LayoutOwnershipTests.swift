import DynamicsKit
import Foundation
import Testing
@testable import DynamicsLayout

/// Where layout's state lives: pending passes with the thread that made them pending (run by
/// that thread's clock advances).
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
}

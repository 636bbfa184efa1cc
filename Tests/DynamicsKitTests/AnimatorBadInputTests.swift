import DynamicsKit
import Foundation
import Testing

/// Programmer errors in the API stop with a clear message (checked in child processes); data
/// can be checked first with `DynamicAnimator.validate(_:)`, which throws.
@Suite("DynamicsKit bad input", .serialized)
struct AnimatorBadInputTests {
    @Test("validate(_:) throws for zero, negative, NaN or infinite sizes and for bad paths")
    func validation() {
        for size in [CGSize(width: 0, height: 10), CGSize(width: -5, height: 10), CGSize(width: CGFloat.nan, height: 10), CGSize(width: CGFloat.infinity, height: 1)] {
            let v = DynamicView(frame: CGRect(origin: .zero, size: size))
            // (NaN never equals itself, so match the case rather than the value.)
            #expect { try DynamicAnimator.validate(v) } throws: { error in
                if case DynamicsError.invalidItemSize = error { return true } else { return false }
            }
        }
        let path = DynamicView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        path.collisionBoundsType = .path
        path.collisionBoundingPath = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0)]
        #expect(throws: DynamicsError.self) { try DynamicAnimator.validate(path) }
        // A dart: not convex.
        path.collisionBoundingPath = [CGPoint(x: -10, y: -10), CGPoint(x: 10, y: -10), CGPoint(x: 0, y: -3), CGPoint(x: -10, y: 10)]
        #expect(throws: DynamicsError.self) { try DynamicAnimator.validate(path) }
        // Either winding of a convex path is accepted.
        path.collisionBoundingPath = [CGPoint(x: -10, y: -10), CGPoint(x: 10, y: -10), CGPoint(x: 10, y: 10), CGPoint(x: -10, y: 10)]
        #expect(throws: Never.self) { try DynamicAnimator.validate(path) }
        path.collisionBoundingPath.reverse()
        #expect(throws: Never.self) { try DynamicAnimator.validate(path) }
    }

    @Test("adding an item of zero size stops with a message")
    func zeroSizeItem() async {
        await #expect(processExitsWith: .failure) {
            let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 100, height: 100))
            animator.addBehavior(GravityBehavior(items: [DynamicView(frame: .zero)]))
        }
    }

    @Test("a negative or non-finite time step stops with a message")
    func badStep() async {
        await #expect(processExitsWith: .failure) {
            DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 100, height: 100)).step(by: -1)
        }
        await #expect(processExitsWith: .failure) {
            DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 100, height: 100)).step(by: Double.nan)
        }
    }

    @Test("a behavior in two animators stops with a message")
    func behaviorInTwoAnimators() async {
        await #expect(processExitsWith: .failure) {
            let gravity = GravityBehavior()
            let first = DynamicAnimator(referenceBounds: .zero), second = DynamicAnimator(referenceBounds: .zero)
            first.addBehavior(gravity)
            second.addBehavior(gravity)
            withExtendedLifetime(first) {}
        }
    }

    @Test("an item in two animators stops with a message")
    func itemInTwoAnimators() async {
        await #expect(processExitsWith: .failure) {
            let item = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let first = DynamicAnimator(referenceBounds: .zero), second = DynamicAnimator(referenceBounds: .zero)
            first.addBehavior(GravityBehavior(items: [item]))
            second.addBehavior(GravityBehavior(items: [item]))
            withExtendedLifetime(first) {}
        }
    }

    @Test("an item attached to itself stops with a message")
    func attachmentToItself() async {
        await #expect(processExitsWith: .failure) {
            let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            _ = AttachmentBehavior(item: v, attachedTo: v)
        }
    }

    @Test("an item may move to another animator once the first lets it go")
    func itemMovesBetweenAnimators() {
        let item = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let first = DynamicAnimator(referenceBounds: .zero), second = DynamicAnimator(referenceBounds: .zero)
        let g1 = GravityBehavior(items: [item])
        first.addBehavior(g1)
        first.removeBehavior(g1)
        second.addBehavior(GravityBehavior(items: [item]))
        #expect(second.isRunning)
    }

    @Test("an attachment range without 0 is reset to infinite; an unknown boundary identifier is ignored")
    func attachmentRangeWithoutZeroResetsAndUnknownBoundaryIsIgnored() {
        let v = DynamicView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let w = DynamicView(frame: CGRect(x: 50, y: 0, width: 10, height: 10))
        let pin = AttachmentBehavior.pinAttachment(with: v, attachedTo: w, attachmentAnchor: CGPoint(x: 30, y: 5))
        pin.attachmentRange = FloatRange(minimum: 0.2, maximum: 1)
        #expect(pin.attachmentRange == .infinite)
        pin.attachmentRange = FloatRange(minimum: -0.5, maximum: 0.5)
        #expect(pin.attachmentRange == FloatRange(minimum: -0.5, maximum: 0.5))
        let collision = CollisionBehavior(items: [v])
        collision.addBoundary(withIdentifier: "floor", from: CGPoint(x: 0, y: 100), to: CGPoint(x: 100, y: 100))
        collision.removeBoundary(withIdentifier: "no such boundary")
        #expect(collision.boundaryIdentifiers == ["floor"])
        #expect(collision.boundary(withIdentifier: "no such boundary") == nil)
    }
}

import Foundation
/// Told when a begin/commit animation starts (after its delay) and when it stops (UIKit's
/// `setAnimationWillStart(_:)` / `setAnimationDidStop(_:)` selectors). Both are optional.
public protocol ViewAnimationDelegate: AnyObject {
    /// The animation committed with `animationID` and `context` starts (after its delay).
    func animationWillStart(_ animationID: String?, context: UnsafeMutableRawPointer?)
    /// `finished` is false when the animation was interrupted (replaced or removed).
    func animationDidStop(_ animationID: String?, finished: Bool, context: UnsafeMutableRawPointer?)
}

extension ViewAnimationDelegate {
    public func animationWillStart(_ animationID: String?, context: UnsafeMutableRawPointer?) {}
    public func animationDidStop(_ animationID: String?, finished: Bool, context: UnsafeMutableRawPointer?) {}
}

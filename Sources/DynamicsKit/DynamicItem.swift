import DynamicsEngine
import Foundation

/// The shape an item collides with (UIKit's `UIDynamicItemCollisionBoundsType`).
public enum DynamicItemCollisionBoundsType: Sendable, Equatable {
    /// The item's bounds rectangle.
    case rectangle
    /// A circle when width == height, otherwise an ellipse (approximated by a convex polygon).
    case ellipse
    /// `collisionBoundingPath`: a convex polygon around the item's centre.
    case path
}

/// Anything a dynamic animator can move (UIKit's `UIDynamicItem`): the animator reads its
/// centre, bounds and rotation when the item joins, and writes centre and rotation back after
/// every step. Items are classes: the animator tracks them by identity.
///
/// An item may be in one live animator at a time: adding it to a behavior of a second one
/// stops the program with a message (once the first lets it go, or is freed, it may join
/// another). Views and item groups carry the animator that holds them, so this is checked
/// whatever clock the animators run on; an item of another class is checked against the
/// animators on the same clock.
public protocol DynamicItem: AnyObject {
    /// The item's centre in the reference coordinate space (pt); the animator writes it after
    /// every step.
    var center: CGPoint { get set }
    /// Only the size is used.
    var bounds: CGRect { get }
    /// The rotation is read from and written to this transform (y down: positive = clockwise).
    var transform: CGAffineTransform { get set }
    /// Default `.rectangle`.
    var collisionBoundsType: DynamicItemCollisionBoundsType { get }
    /// Default `[]`; used with `.path`: a convex polygon, (0, 0) = the item's centre.
    var collisionBoundingPath: [CGPoint] { get }
}

extension DynamicItem {
    public var collisionBoundsType: DynamicItemCollisionBoundsType { .rectangle }
    public var collisionBoundingPath: [CGPoint] { [] }
}

/// Errors for items and paths the animator cannot simulate (UIKit crashes on these).
public enum DynamicsError: Error, Equatable, CustomStringConvertible {
    /// The item's size is zero, negative, NaN or infinite.
    case invalidItemSize(CGSize)
    /// The item's centre or rotation is not finite.
    case invalidItemPlacement(CGPoint)
    /// The collision bounding path is not a convex polygon of at least 3 points.
    case invalidBoundingPath(String)
    /// A boundary path or segment is degenerate or not finite.
    case invalidBoundary(String)

    /// A sentence saying what is wrong, with the offending value.
    public var description: String {
        switch self {
        case .invalidItemSize(let s): return "a dynamic item needs a finite, positive size (got \(s))"
        case .invalidItemPlacement(let p): return "a dynamic item needs a finite centre and rotation (got \(p))"
        case .invalidBoundingPath(let why): return "invalid collisionBoundingPath: \(why)"
        case .invalidBoundary(let why): return "invalid boundary: \(why)"
        }
    }
}

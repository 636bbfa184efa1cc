import DynamicsKit
import Foundation

/// One attribute of a view, to make constraints with (UIKit's `NSLayoutAnchor`). `AnchorType`
/// keeps anchors of different axes apart: an x-axis anchor relates only to x-axis anchors.
public class LayoutAnchor<AnchorType: AnyObject> {
    /// The view (held weakly, like a constraint's items).
    public private(set) weak var item: DynamicView?
    let attribute: LayoutConstraint.Attribute

    init(_ item: DynamicView, _ attribute: LayoutConstraint.Attribute) { self.item = item; self.attribute = attribute }

    func make(_ relation: LayoutConstraint.Relation, _ other: LayoutAnchor<AnchorType>?, multiplier: CGFloat, constant: CGFloat) -> LayoutConstraint {
        guard let a = item else { preconditionFailure("LayoutAnchor: the anchor's view no longer exists") }
        if let other {
            guard let b = other.item else { preconditionFailure("LayoutAnchor: the other anchor's view no longer exists") }
            return LayoutConstraint(item: a, attribute: attribute, relatedBy: relation, toItem: b, attribute: other.attribute, multiplier: multiplier, constant: constant)
        }
        return LayoutConstraint(item: a, attribute: attribute, relatedBy: relation, toItem: nil, attribute: .notAnAttribute, multiplier: multiplier, constant: constant)
    }

    /// `self == anchor + constant` (inactive until activated).
    public func constraint(equalTo anchor: LayoutAnchor<AnchorType>, constant: CGFloat = 0) -> LayoutConstraint {
        make(.equal, anchor, multiplier: 1, constant: constant)
    }
    /// `self >= anchor + constant`.
    public func constraint(greaterThanOrEqualTo anchor: LayoutAnchor<AnchorType>, constant: CGFloat = 0) -> LayoutConstraint {
        make(.greaterThanOrEqual, anchor, multiplier: 1, constant: constant)
    }
    /// `self <= anchor + constant`.
    public func constraint(lessThanOrEqualTo anchor: LayoutAnchor<AnchorType>, constant: CGFloat = 0) -> LayoutConstraint {
        make(.lessThanOrEqual, anchor, multiplier: 1, constant: constant)
    }
}

/// A horizontal location anchor (left, right, leading, trailing, centerX).
public final class LayoutXAxisAnchor: LayoutAnchor<LayoutXAxisAnchor> {}
/// A vertical location anchor (top, bottom, centerY).
public final class LayoutYAxisAnchor: LayoutAnchor<LayoutYAxisAnchor> {}

/// A width or height anchor: also relates to constants and, with a multiplier, to other sizes.
public final class LayoutDimension: LayoutAnchor<LayoutDimension> {
    /// `self == constant`.
    public func constraint(equalToConstant c: CGFloat) -> LayoutConstraint { make(.equal, nil, multiplier: 1, constant: c) }
    /// `self >= constant`.
    public func constraint(greaterThanOrEqualToConstant c: CGFloat) -> LayoutConstraint { make(.greaterThanOrEqual, nil, multiplier: 1, constant: c) }
    /// `self <= constant`.
    public func constraint(lessThanOrEqualToConstant c: CGFloat) -> LayoutConstraint { make(.lessThanOrEqual, nil, multiplier: 1, constant: c) }

    /// `self == multiplier × anchor`.
    public func constraint(equalTo anchor: LayoutDimension, multiplier m: CGFloat) -> LayoutConstraint { make(.equal, anchor, multiplier: m, constant: 0) }
    /// `self >= multiplier × anchor`.
    public func constraint(greaterThanOrEqualTo anchor: LayoutDimension, multiplier m: CGFloat) -> LayoutConstraint { make(.greaterThanOrEqual, anchor, multiplier: m, constant: 0) }
    /// `self <= multiplier × anchor`.
    public func constraint(lessThanOrEqualTo anchor: LayoutDimension, multiplier m: CGFloat) -> LayoutConstraint { make(.lessThanOrEqual, anchor, multiplier: m, constant: 0) }
    /// `self == multiplier × anchor + constant`.
    public func constraint(equalTo anchor: LayoutDimension, multiplier m: CGFloat, constant c: CGFloat) -> LayoutConstraint { make(.equal, anchor, multiplier: m, constant: c) }
    /// `self >= multiplier × anchor + constant`.
    public func constraint(greaterThanOrEqualTo anchor: LayoutDimension, multiplier m: CGFloat, constant c: CGFloat) -> LayoutConstraint { make(.greaterThanOrEqual, anchor, multiplier: m, constant: c) }
    /// `self <= multiplier × anchor + constant`.
    public func constraint(lessThanOrEqualTo anchor: LayoutDimension, multiplier m: CGFloat, constant c: CGFloat) -> LayoutConstraint { make(.lessThanOrEqual, anchor, multiplier: m, constant: c) }
}

extension DynamicView {
    /// The view's leading edge (left here), to make constraints with.
    public var leadingAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(self, .leading) }
    /// The view's trailing edge (right here), to make constraints with.
    public var trailingAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(self, .trailing) }
    /// The view's left edge, to make constraints with.
    public var leftAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(self, .left) }
    /// The view's right edge, to make constraints with.
    public var rightAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(self, .right) }
    /// The view's horizontal centre, to make constraints with.
    public var centerXAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(self, .centerX) }
    /// The view's top edge, to make constraints with.
    public var topAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(self, .top) }
    /// The view's bottom edge, to make constraints with.
    public var bottomAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(self, .bottom) }
    /// The view's vertical centre, to make constraints with.
    public var centerYAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(self, .centerY) }
    /// The view's width, to make constraints with.
    public var widthAnchor: LayoutDimension { LayoutDimension(self, .width) }
    /// The view's height, to make constraints with.
    public var heightAnchor: LayoutDimension { LayoutDimension(self, .height) }
}

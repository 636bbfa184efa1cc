import DynamicsKit
import Foundation
import Synchronization

/// A linear relation between two views' layout attributes (UIKit's `NSLayoutConstraint`):
/// `item.attribute  (= | ≤ | ≥)  multiplier × toItem.attribute + constant`.
///
/// Attributes are in the coordinate space of the items' nearest common ancestor (a view's own
/// attributes, when it is that ancestor, are those of its bounds: left and top 0). `leading`
/// and `trailing` are `left` and `right` (left-to-right layout). A constraint is active while
/// it is installed on a view (`isActive`, `activate`, `DynamicView.addConstraint`); the
/// constraint holds its items weakly.
public final class LayoutConstraint: CustomStringConvertible {
    /// A layout attribute of a view.
    public enum Attribute: Sendable, Hashable {
        /// The edges (`leading` and `trailing` are `left` and `right`), the size and the centre of a
        /// view's frame; `notAnAttribute` stands for the missing second item of a constant size.
        case left, right, top, bottom, leading, trailing, width, height, centerX, centerY, notAnAttribute

        var isSize: Bool { self == .width || self == .height }
        var isHorizontal: Bool { [.left, .right, .leading, .trailing, .centerX, .width].contains(self) }
        var name: String {
            switch self {
            case .left: "left"; case .right: "right"; case .top: "top"; case .bottom: "bottom"
            case .leading: "leading"; case .trailing: "trailing"; case .width: "width"; case .height: "height"
            case .centerX: "centerX"; case .centerY: "centerY"; case .notAnAttribute: "notAnAttribute"
            }
        }
    }

    /// How the two sides compare.
    public enum Relation: Sendable, Hashable {
        /// The first side is at most, exactly, or at least the second.
        case lessThanOrEqual, equal, greaterThanOrEqual
        var symbol: String { switch self { case .lessThanOrEqual: "<="; case .equal: "=="; case .greaterThanOrEqual: ">=" } }
    }

    /// The first item (held weakly).
    public private(set) weak var firstItem: DynamicView?
    /// The first item's attribute.
    public let firstAttribute: Attribute
    /// How the first side compares with the second.
    public let relation: Relation
    /// The second item (held weakly; nil for a constant size).
    public private(set) weak var secondItem: DynamicView?
    /// The second item's attribute (`.notAnAttribute` without a second item).
    public let secondAttribute: Attribute
    /// The factor of the second item's attribute.
    public let multiplier: CGFloat
    let hasSecondItem: Bool
    /// Made for a view's frame (`translatesAutoresizingMaskIntoConstraints`) or its intrinsic size.
    var kind: Kind = .user
    enum Kind { case user, autoresizing, contentSize }
    /// For a frame constraint: which part of the frame (left = x, top = y, width, height).
    var autoresizingAttribute: Attribute = .notAnAttribute

    /// The added term. Changing it on an active constraint re-solves incrementally.
    public var constant: CGFloat {
        didSet {
            precondition(constant.isFinite, "LayoutConstraint.constant must be finite (got \(constant))")
            if constant != oldValue { engine?.constantChanged(self) }
        }
    }

    /// The priority (default `.required`). An active constraint may change priority (it is
    /// re-added to its engine).
    public var priority: LayoutPriority = .required {
        didSet {
            precondition(priority.rawValue >= 1 && priority.rawValue <= 1000, "LayoutConstraint.priority must be in 1 … 1000 (got \(priority.rawValue))")
            if priority != oldValue, let e = engine { e.remove(self); e.add(self) }
        }
    }

    /// A name shown in descriptions and conflict reports.
    public var identifier: String?

    /// The view the constraint is installed on (nil while inactive).
    weak var installedOn: DynamicView?
    /// The engine solving it while active.
    var engine: LayoutEngine?
    /// The solver's handle while the constraint is in the solver.
    var handle: LayoutSolver.Constraint?
    /// Its terms in the solver (kept for conflict explanations), and the constant its
    /// expressions contribute besides `constant`.
    var terms: [(LayoutSolver.Variable, Double)] = []
    var baseConstant: Double = 0
    /// Position in its engine's list.
    var engineIndex = -1
    /// Broken to resolve a conflict between required constraints (not in the solver).
    public internal(set) var isBroken = false {
        didSet { if isBroken != oldValue { engine?.brokenCount += isBroken ? 1 : -1 } }
    }

    /// `item.attribute (relation) multiplier × toItem.attribute + constant` (UIKit's
    /// `init(item:attribute:relatedBy:toItem:attribute:multiplier:constant:)`). Preconditions:
    /// a location attribute (left, centerX, top, …) relates to a location attribute of the
    /// same axis of another view; a size attribute relates to a size attribute or, with
    /// `toItem` nil and `.notAnAttribute`, to a constant; left/right do not mix with
    /// leading/trailing; the multiplier and constant are finite.
    public init(item: DynamicView, attribute attr1: Attribute, relatedBy relation: Relation,
                toItem: DynamicView?, attribute attr2: Attribute, multiplier: CGFloat, constant: CGFloat) {
        precondition(attr1 != .notAnAttribute, "LayoutConstraint: the first attribute cannot be .notAnAttribute")
        precondition(multiplier.isFinite && constant.isFinite, "LayoutConstraint: the multiplier and constant must be finite (got \(multiplier), \(constant))")
        if let _ = toItem {
            precondition(attr2 != .notAnAttribute, "LayoutConstraint: a second item needs an attribute")
            if attr1.isSize != attr2.isSize || (!attr1.isSize && attr1.isHorizontal != attr2.isHorizontal) {
                preconditionFailure("LayoutConstraint: cannot relate \(attr1.name) to \(attr2.name) (a location relates to a location of the same axis, a size to a size)")
            }
            let lr: Set<Attribute> = [.left, .right], lt: Set<Attribute> = [.leading, .trailing]
            precondition(!((lr.contains(attr1) && lt.contains(attr2)) || (lt.contains(attr1) && lr.contains(attr2))),
                         "LayoutConstraint: cannot relate a left/right attribute to a leading/trailing one")
            precondition(attr1.isSize || multiplier != 0, "LayoutConstraint: a location attribute cannot have a multiplier of 0")
        } else {
            precondition(attr1.isSize && attr2 == .notAnAttribute,
                         "LayoutConstraint: only a width or height may equal a constant (toItem nil, .notAnAttribute); \(attr1.name) needs a second item")
        }
        firstItem = item; firstAttribute = attr1; self.relation = relation
        secondItem = toItem; secondAttribute = toItem == nil ? .notAnAttribute : attr2
        hasSecondItem = toItem != nil
        self.multiplier = multiplier; self.constant = constant
    }

    /// Whether the constraint takes part in layout. Setting it true installs it on the items'
    /// nearest common ancestor (a precondition: they have one); false removes it.
    public var isActive: Bool {
        get { installedOn != nil }
        set {
            if newValue == isActive { return }
            if newValue {
                guard let host = commonAncestor() else {
                    preconditionFailure("LayoutConstraint.isActive: the items \(itemName(firstItem)) and \(itemName(secondItem)) have no common ancestor")
                }
                host.addConstraint(self)
            } else {
                installedOn?.removeConstraint(self)
            }
        }
    }

    /// Activates each constraint (UIKit's `NSLayoutConstraint.activate`).
    public static func activate(_ constraints: [LayoutConstraint]) { for c in constraints { c.isActive = true } }
    /// Deactivates each constraint.
    public static func deactivate(_ constraints: [LayoutConstraint]) { for c in constraints { c.isActive = false } }

    /// The items' nearest common ancestor (the first item alone when there is no second).
    func commonAncestor() -> DynamicView? {
        guard let a = firstItem else { return nil }
        guard hasSecondItem else { return a }
        guard let b = secondItem else { return nil }
        return LayoutConstraint.commonAncestor(a, b)
    }

    /// Removes the constraints installed on `superview` and its ancestors that involve `view`
    /// or one of its subviews (`view` is about to leave `superview`).
    static func removeConstraints(involving view: DynamicView, from superview: DynamicView) {
        var subtree = Set<ObjectIdentifier>()
        var stack = [view]
        while let v = stack.popLast() { subtree.insert(ObjectIdentifier(v)); stack.append(contentsOf: v.subviews) }
        func involves(_ c: LayoutConstraint) -> Bool {
            if let a = c.firstItem, subtree.contains(ObjectIdentifier(a)) { return true }
            if let b = c.secondItem, subtree.contains(ObjectIdentifier(b)) { return true }
            return false
        }
        var host: DynamicView? = superview
        while let h = host {
            if let st = h.existingLayoutState {
                let gone = st.constraints.filter(involves)
                if !gone.isEmpty { h.removeConstraints(gone) }
            }
            host = h.superview
        }
    }

    static func commonAncestor(_ a: DynamicView, _ b: DynamicView) -> DynamicView? {
        var chain: [ObjectIdentifier] = []
        var p: DynamicView? = a
        while let v = p { chain.append(ObjectIdentifier(v)); p = v.superview }
        p = b
        while let v = p { if chain.contains(ObjectIdentifier(v)) { return v }; p = v.superview }
        return nil
    }

    func itemName(_ v: DynamicView?) -> String {
        guard let v else { return "nil" }
        return v.name.isEmpty ? "DynamicView:0x\(String(UInt(bitPattern: ObjectIdentifier(v).hashValue), radix: 16))" : v.name
    }

    /// `<LayoutConstraint 'id' a.left == b.right + 8 @750>`, like UIKit's descriptions.
    public var description: String {
        var s = "<"
        s += kind == .autoresizing ? "AutoresizingMaskLayoutConstraint" : kind == .contentSize ? "ContentSizeLayoutConstraint" : "LayoutConstraint"
        if let identifier { s += " '\(identifier)'" }
        s += " \(itemName(firstItem)).\((kind == .autoresizing ? autoresizingAttribute : firstAttribute).name) \(relation.symbol) "
        var rhs = ""
        if hasSecondItem {
            if multiplier != 1 { rhs += "\(fmt(multiplier))*" }
            rhs += "\(itemName(secondItem)).\(secondAttribute.name)"
            if constant != 0 { rhs += constant < 0 ? " - \(fmt(-constant))" : " + \(fmt(constant))" }
        } else {
            rhs = fmt(constant)
        }
        s += rhs
        if !priority.isRequired { s += " @\(priority)" }
        return s + ">"
    }

    private func fmt(_ x: CGFloat) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(format: "%g", Double(x))
    }
}

/// What is reported when required constraints contradict: the constraints that conflict and
/// the one broken (not satisfied) so that layout can complete.
public struct LayoutConflict {
    /// A minimal set of required constraints that cannot hold together (the broken one last).
    public let constraints: [LayoutConstraint]
    /// The constraint left unsatisfied: the lowest priority of the set; among equals (all
    /// required), the one added or changed last.
    public let brokenConstraint: LayoutConstraint
    /// UIKit-style text: "Unable to simultaneously satisfy constraints." and the list.
    public var message: String {
        var s = "Unable to simultaneously satisfy constraints.\n"
        s += "\tProbably at least one of the constraints in the following list is one you don't want.\n"
        s += "\tTry this: (1) look at each constraint and try to figure out which you don't expect; (2) find the code that added the unwanted constraint or constraints and fix it.\n"
        s += "(\n" + constraints.map { "    \"\($0)\"" }.joined(separator: ",\n") + "\n)\n\n"
        s += "Will attempt to recover by breaking constraint\n\(brokenConstraint)\n"
        return s
    }
}

extension LayoutConstraint {
    /// The handler of conflicts that no view's `layoutConflictHandler` takes, for the whole
    /// program: called once for each such conflict between required constraints, on the thread
    /// laying out, with the conflict (its `message` reads like UIKit's log). Nil (the default)
    /// writes the message to standard error. Setting and reading it are thread-safe; a handler
    /// set on a view hierarchy (`DynamicView.layoutConflictHandler`) keeps that hierarchy's
    /// conflicts to itself.
    public static var conflictHandler: ((LayoutConflict) -> Void)? {
        get { fallbackConflictHandler.withLock { $0 }.call }
        set { fallbackConflictHandler.withLock { $0 = ConflictHandlerBox(call: newValue) } }
    }

    /// `conflictHandler`'s value. (The box carries a closure that need not be `Sendable`: the
    /// property's public type takes any closure, not only `Sendable` ones. The mutex makes
    /// setting and reading it safe; the closure is called on the thread laying out.)
    private struct ConflictHandlerBox: @unchecked Sendable { var call: ((LayoutConflict) -> Void)? }
    private static let fallbackConflictHandler = Mutex(ConflictHandlerBox(call: nil))

    /// Reports `conflict` to the nearest `layoutConflictHandler` of `view` and its ancestors,
    /// else to `conflictHandler`, else to standard error.
    static func report(_ conflict: LayoutConflict, near view: DynamicView?) {
        var p = view
        while let v = p {
            if let h = v.existingLayoutState?.conflictHandler { h(conflict); return }
            p = v.superview
        }
        if let h = conflictHandler { h(conflict) } else {
            FileHandle.standardError.write(Data(conflict.message.utf8))
        }
    }
}

extension DynamicView {
    /// Called once for each conflict between required constraints of this view's hierarchy:
    /// those whose broken constraint is installed on this view or on a view inside it (a
    /// frame or content-size constraint counts as installed on its view), unless a view
    /// nearer to it has a handler. Called on the thread laying out, with the conflict (its
    /// `message` reads like UIKit's log). Nil (the default) leaves the conflict to the
    /// superview's handler, then to `LayoutConstraint.conflictHandler`, then to standard error.
    /// Not in UIKit (which only logs): a way to collect one window's or one component's
    /// conflicts without seeing another's.
    public var layoutConflictHandler: ((LayoutConflict) -> Void)? {
        get { existingLayoutState?.conflictHandler }
        set {
            if newValue == nil && existingLayoutState == nil { return }
            layoutState.conflictHandler = newValue
        }
    }
}

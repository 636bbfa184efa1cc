import Foundation

/// How much a constraint matters (UIKit's `UILayoutPriority`): 1 … 1000. A `required` (1000)
/// constraint holds exactly; a lower one is optional and is satisfied as far as the required
/// ones and higher priorities allow. In the solver an optional constraint of priority `p`
/// weighs `2^(p/50)` per point of violation: each 50 points doubles the weight, so
/// `.defaultHigh` (750) outweighs 1 024 violated points at `.defaultLow` (250).
public struct LayoutPriority: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The priority, 1 … 1000.
    public var rawValue: Float
    /// A priority of `rawValue`.
    public init(rawValue: Float) { self.rawValue = rawValue }
    /// A priority of `rawValue`.
    public init(_ rawValue: Float) { self.rawValue = rawValue }

    /// 1000: the constraint must hold.
    public static let required = LayoutPriority(1000)
    /// 750: the priority of a view's compression resistance.
    public static let defaultHigh = LayoutPriority(750)
    /// 250: the priority of a view's content hugging.
    public static let defaultLow = LayoutPriority(250)
    /// 50: the level at which a view fits its content as closely as possible.
    public static let fittingSizeLevel = LayoutPriority(50)

    /// Whether `a` is a lower priority than `b`.
    public static func < (a: LayoutPriority, b: LayoutPriority) -> Bool { a.rawValue < b.rawValue }
    /// A priority `b` points higher.
    public static func + (a: LayoutPriority, b: Float) -> LayoutPriority { LayoutPriority(a.rawValue + b) }
    /// A priority `b` points lower.
    public static func - (a: LayoutPriority, b: Float) -> LayoutPriority { LayoutPriority(a.rawValue - b) }
    /// The number, without a fraction when it is whole (`750`, `750.5`).
    public var description: String { rawValue == rawValue.rounded() ? String(Int(rawValue)) : String(rawValue) }

    var isRequired: Bool { rawValue >= 1000 }
    /// The solver weight of an optional priority.
    var weight: Double { Double(pow(2, Double(max(1, min(rawValue, 999))) / 50)) }
}

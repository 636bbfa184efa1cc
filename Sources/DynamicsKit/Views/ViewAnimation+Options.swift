/// Options of block-style view animations (UIKit's `UIView.AnimationOptions`; the raw values
/// match UIKit's).
public struct AnimationOptions: OptionSet, Sendable, Hashable {
    /// The option bits, as UIKit's.
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Start from the presented value of a property that is already animating (default: the
    /// old animation is removed and the new one starts from the model value — UIKit's jump
    /// to the old target).
    public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
    /// Repeat forever (the completion runs only when interrupted, with `false`).
    public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
    /// Run forward, then backward; at the end the view shows the model (final) value, as UIKit.
    public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
    /// Ease in and out: slow at both ends (the default).
    public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
    /// Ease in: slow at the start.
    public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
    /// Ease out: slow at the end.
    public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
    /// Even speed throughout.
    public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

    /// The curve the options select (ease-in-out when none is given).
    public var curve: AnimationCurve { AnimationCurve(rawValue: Int((rawValue >> 16) & 3)) ?? .easeInOut }
}

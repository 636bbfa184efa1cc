import Foundation

/// An RGBA colour (UIKit's `UIColor`, reduced to what a headless view needs). Components are
/// 0 … 1 in sRGB.
public struct Color: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The red component, 0 … 1.
    public var red: CGFloat
    /// The green component, 0 … 1.
    public var green: CGFloat
    /// The blue component, 0 … 1.
    public var blue: CGFloat
    /// Opacity, 0 (transparent) … 1 (opaque).
    public var alpha: CGFloat

    /// A colour from its components (0 … 1), opaque unless `alpha` says otherwise.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A grey: `white` 0 = black, 1 = white.
    public init(white: CGFloat, alpha: CGFloat = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }

    /// The same colour with another alpha (UIKit's `withAlphaComponent(_:)`).
    public func withAlphaComponent(_ alpha: CGFloat) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

    /// Fully transparent.
    public static let clear = Color(white: 0, alpha: 0)
    /// Black.
    public static let black = Color(white: 0)
    /// White.
    public static let white = Color(white: 1)
    /// Grey of 0.5.
    public static let gray = Color(white: 0.5)
    /// Grey of 1/3.
    public static let darkGray = Color(white: 1.0 / 3.0)
    /// Grey of 2/3.
    public static let lightGray = Color(white: 2.0 / 3.0)
    /// Red (1, 0, 0).
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Green (0, 1, 0).
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Blue (0, 0, 1).
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Orange (1, 0.5, 0).
    public static let orange = Color(red: 1, green: 0.5, blue: 0)
    /// iOS's system blue (the tint of buttons).
    public static let systemBlue = Color(red: 0, green: 122.0 / 255.0, blue: 1)

    /// `#rrggbb` (alpha is not included).
    public var hexString: String {
        func byte(_ c: CGFloat) -> Int { Int((min(max(c, 0), 1) * 255).rounded()) }
        let digits = Array("0123456789abcdef")
        var s = "#"
        for v in [byte(red), byte(green), byte(blue)] { s.append(digits[v >> 4]); s.append(digits[v & 15]) }
        return s
    }

    /// The colour as `Color(red, green, blue, alpha)`.
    public var description: String { "Color(\(red), \(green), \(blue), \(alpha))" }
}

/// Horizontal alignment of a view's text (UIKit's `NSTextAlignment`).
public enum TextAlignment: Sendable, Equatable {
    /// Text flush left, centred, or flush right.
    case left, center, right
}

/// A font by name and point size (UIKit's `UIFont`, headless: only what a renderer needs).
public struct Font: Sendable, Equatable, Hashable {
    /// The font's name (e.g. "Helvetica").
    public var name: String
    /// The point size.
    public var size: CGFloat
    /// The font called `name` at `size` points.
    public init(name: String, size: CGFloat) { self.name = name; self.size = size }
    /// The system font of this size ("Helvetica" when rendered).
    public static func systemFont(ofSize size: CGFloat) -> Font { Font(name: "Helvetica", size: size) }
    /// The bold system font of this size ("Helvetica-Bold" when rendered).
    public static func boldSystemFont(ofSize size: CGFloat) -> Font { Font(name: "Helvetica-Bold", size: size) }
}

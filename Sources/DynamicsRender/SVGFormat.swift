import Foundation

/// Number and text formatting shared by every SVG and HTML writer of this module.
///
/// Output is deterministic: numbers have at most `decimals` decimals (2 unless told), trailing
/// zeros dropped, never `-0`, never exponent notation; a NaN or infinity is written as `0` (a
/// renderer hides such objects before it gets here). The same input gives the same bytes on
/// every platform, so rendered files diff cleanly.
public enum SVGFormat {
    private static let powers: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// `value` rounded to at most `decimals` (0 … 6) decimals, e.g. `12.5`, `-3`, `0.25`.
    public static func number(_ value: Double, decimals: Int = 2) -> String {
        var s = ""
        appendNumber(value, decimals: decimals, to: &s)
        return s
    }

    /// Appends `number(value, decimals:)` to `out` without an intermediate string.
    public static func appendNumber(_ value: Double, decimals: Int = 2, to out: inout String) {
        let d = min(max(decimals, 0), 6)
        let scale = powers[d]
        guard value.isFinite, abs(value) < 1.0e13 else { out += value.isFinite ? (value < 0 ? "-1e13" : "1e13") : "0"; return }
        let n = Int64((value * scale).rounded())
        if n == 0 { out += "0"; return }
        let scaleInt = Int64(scale)
        var m = n
        if m < 0 { out += "-"; m = -m }
        out += String(m / scaleInt)
        var frac = m % scaleInt
        guard frac != 0 else { return }
        var digits = d
        while frac % 10 == 0 { frac /= 10; digits -= 1 }
        out += "."
        let f = String(frac)
        for _ in 0..<(digits - f.count) { out += "0" }
        out += f
    }

    /// `value` with exactly `decimals` (0 … 6) decimals, e.g. `10.00` (for captions; never `-0.00`).
    public static func fixed(_ value: Double, decimals: Int = 2) -> String {
        let d = min(max(decimals, 0), 6)
        var s = number(value, decimals: d)
        guard d > 0 else { return s }
        if let dot = s.firstIndex(of: ".") {
            let have = s.distance(from: dot, to: s.endIndex) - 1
            s += String(repeating: "0", count: d - have)
        } else if !s.contains("e") {
            s += "." + String(repeating: "0", count: d)
        }
        return s
    }

    /// Appends a `Float` (see `appendNumber(_:decimals:to:)`).
    @inline(__always)
    public static func appendNumber(_ value: Float, decimals: Int = 2, to out: inout String) {
        appendNumber(Double(value), decimals: decimals, to: &out)
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities (for XML text and attributes).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        // Control characters other than tab / newline are not allowed in XML 1.0: dropped.
        appendEscaped(text, to: &out, replacing: xmlEntities) { ch in ch == "\t" || ch == "\n" || ch == "\r" ? nil : "" }
        return out
    }

    private static let xmlEntities: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;"]

    /// Appends `text` to `out` scalar by scalar: a scalar in `table` as its entry there, any
    /// other control character (below U+0020) as `control` gives it ("" drops it, nil keeps
    /// it), everything else as it is. The loop of every escaper of this module (`escape`, the
    /// HTML player's JSON strings).
    static func appendEscaped(_ text: String, to out: inout String, replacing table: [Unicode.Scalar: String],
                              control: (Unicode.Scalar) -> String?) {
        for ch in text.unicodeScalars {
            if let replacement = table[ch] ?? (ch.value < 0x20 ? control(ch) : nil) {
                out += replacement
            } else {
                out.unicodeScalars.append(ch)
            }
        }
    }

    /// A list of points as an SVG `points` attribute value: `x,y x,y …`.
    public static func points(_ points: [CGPoint], decimals: Int = 2) -> String {
        var s = ""
        s.reserveCapacity(points.count * 12)
        for (i, p) in points.enumerated() {
            if i > 0 { s += " " }
            appendNumber(Double(p.x), decimals: decimals, to: &s)
            s += ","
            appendNumber(Double(p.y), decimals: decimals, to: &s)
        }
        return s
    }
}

/// An sRGB colour with an opacity, as SVG writes it (`#rrggbb` plus a separate opacity).
public struct SVGColor: Sendable, Hashable, CustomStringConvertible {
    /// Channels, 0 … 255.
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 0 (transparent) … 1 (opaque).
    public var opacity: Double

    /// A colour from 0 … 255 channels; `opacity` is clamped to 0 … 1.
    public init(red: UInt8, green: UInt8, blue: UInt8, opacity: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.opacity = min(max(opacity, 0), 1)
    }

    /// From `#rrggbb` or `rrggbb`; nil when the text is not six hex digits.
    public init?(hex: String, opacity: Double = 1) {
        var h = Substring(hex)
        if h.hasPrefix("#") { h = h.dropFirst() }
        guard h.count == 6, let v = UInt32(h, radix: 16) else { return nil }
        self.init(red: UInt8(v >> 16), green: UInt8((v >> 8) & 0xff), blue: UInt8(v & 0xff), opacity: opacity)
    }

    /// `#rrggbb` (lower case; the opacity is written separately).
    public var hex: String {
        let digits: [Character] = Array("0123456789abcdef")
        var s = "#"
        for v in [red, green, blue] { s.append(digits[Int(v >> 4)]); s.append(digits[Int(v & 15)]) }
        return s
    }

    /// Red, green, blue and opacity (0 … 255) packed as `0xRRGGBBAA`.
    public var packed: UInt32 {
        UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32((opacity * 255).rounded())
    }

    /// The colour of `packed` (`0xRRGGBBAA`).
    public init(packed: UInt32) {
        self.init(red: UInt8(packed >> 24), green: UInt8((packed >> 16) & 0xff), blue: UInt8((packed >> 8) & 0xff),
                  opacity: Double(packed & 0xff) / 255)
    }

    public var description: String { opacity < 1 ? "\(hex)@\(SVGFormat.number(opacity))" : hex }

    public static let black = SVGColor(red: 0, green: 0, blue: 0)
    public static let white = SVGColor(red: 255, green: 255, blue: 255)
}

import DynamicsKit
import Foundation

extension SVGColor {
    /// The colour of a DynamicsKit `Color` (components clamped to 0 … 1).
    public init(_ color: Color) {
        func byte(_ c: CGFloat) -> UInt8 { UInt8((min(max(Double(c), 0), 1) * 255).rounded()) }
        self.init(red: byte(color.red), green: byte(color.green), blue: byte(color.blue),
                  opacity: min(max(Double(color.alpha), 0), 1))
    }
}

/// How a view's text is laid out: wrapped to its width, limited to `numberOfLines` and to the
/// lines its height holds, the last line truncated with "…", centred vertically (as `UILabel`).
///
/// Without font metrics the widths are estimates (Helvetica-like per-character advances), so
/// a line may end a few points early or late; it never runs far past the view.
public enum TextLayout {
    /// Line height as a multiple of the font size.
    public static let lineHeight = 1.2

    /// The estimated width of `text` in `font` (points).
    public static func width(of text: String, fontSize: Double, bold: Bool = false) -> Double {
        var em = 0.0
        for ch in text.unicodeScalars { em += advance(ch) }
        return em * fontSize * (bold ? 1.06 : 1)
    }

    /// Approximate Helvetica advance widths in em.
    static func advance(_ ch: Unicode.Scalar) -> Double {
        switch ch {
        case " ", "i", "j", "l", "I", "!", "|", ".", ",", ":", ";", "'": return 0.26
        case "f", "t", "r", "(", ")", "[", "]", "-", "/": return 0.34
        case "m", "M", "W": return 0.85
        case "w": return 0.73
        case "A"..."Z": return 0.68
        case "0"..."9": return 0.56
        case "a"..."z": return 0.53
        default: return ch.value < 0x2E80 ? 0.6 : 1.0
        }
    }

    /// The lines `text` takes in a box `width` wide and `height` high.
    ///
    /// - Parameters:
    ///   - numberOfLines: the most lines (0: as many as the height holds). With 1 the text is not
    ///     wrapped, only truncated.
    public static func lines(_ text: String, width: Double, height: Double, fontSize: Double,
                             bold: Bool = false, numberOfLines: Int) -> [String] {
        guard !text.isEmpty, fontSize > 0 else { return [] }
        let byHeight = max(1, Int((height + 0.5) / (fontSize * lineHeight)))
        let limit = numberOfLines <= 0 ? byHeight : (numberOfLines == 1 ? 1 : min(numberOfLines, byHeight))
        // 4 % slack: real fonts run a little wider than the estimate.
        let w = max(width * 0.96, fontSize)
        func fits(_ t: String) -> Bool { Self.width(of: t, fontSize: fontSize, bold: bold) <= w }
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if limit == 1 {
            let one = paragraphs.joined(separator: " ")
            return [fits(one) ? one : ellipsized(one, fits: fits)]
        }
        var out: [String] = []
        for p in paragraphs {
            var line = ""
            for word in p.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
                let candidate = line.isEmpty ? word : line + " " + word
                if fits(candidate) { line = candidate; continue }
                if !line.isEmpty { out.append(line) }
                // A word wider than the box is broken by characters.
                var rest = word
                while !fits(rest) {
                    var piece = ""
                    for ch in rest {
                        if !piece.isEmpty && !fits(piece + String(ch)) { break }
                        piece.append(ch)
                    }
                    out.append(piece)
                    rest.removeFirst(piece.count)
                }
                line = rest
            }
            out.append(line)
            if out.count > limit { break }
        }
        if out.count > limit {
            out.removeLast(out.count - limit)
            out[limit - 1] = ellipsized(out[limit - 1], fits: fits, always: true)
        }
        return out
    }

    /// `text` shortened so that it and a trailing "…" fit (`always`: add "…" even when the text
    /// fits, to mark text cut after it).
    static func ellipsized(_ text: String, fits: (String) -> Bool, always: Bool = false) -> String {
        var t = text
        if !always && fits(t) { return t }
        while !t.isEmpty && !fits(t + "…") { t.removeLast() }
        while t.hasSuffix(" ") { t.removeLast() }
        return t + "…"
    }
}

/// A `Font` as SVG text attributes.
struct FontSpec {
    var family: String
    var bold: Bool
    var italic: Bool

    /// "Helvetica-Bold" → Helvetica, bold; "HelveticaNeue-LightItalic" → "Helvetica Neue", italic.
    init(_ font: Font) {
        let parts = font.name.split(separator: "-", maxSplits: 1).map(String.init)
        let base = parts.first ?? "Helvetica"
        let styleName = parts.count > 1 ? parts[1].lowercased() : ""
        bold = ["bold", "heavy", "black", "semibold"].contains { styleName.contains($0) }
            || base.lowercased().hasSuffix("bold")
        italic = styleName.contains("italic") || styleName.contains("oblique")
        // CamelCase → words ("HelveticaNeue" → "Helvetica Neue").
        var spaced = ""
        for (i, ch) in base.enumerated() {
            if i > 0, ch.isUppercase, let prev = spaced.last, prev.isLowercase { spaced.append(" ") }
            spaced.append(ch)
        }
        let quoted = spaced.contains(" ") ? "'\(spaced)'" : spaced
        var families = [quoted]
        if spaced.lowercased() != "helvetica" { families.append("Helvetica") }
        families += ["Arial", "sans-serif"]
        family = families.joined(separator: ", ")
    }
}

/// What a view draws inside its own bounds besides its background: an image placeholder and
/// its text.
enum ViewContent {
    /// Inset of the image placeholder and the text next to it.
    static let imageInset: Double = 10

    /// The image placeholder's rectangle in a view of `size`, or nil without an image.
    static func imageRect(for view: DynamicView, size: CGSize) -> CGRect? {
        guard view.imageName != nil, size.width > 0, size.height > 0 else { return nil }
        let side = max(4, min(Double(size.height) * 0.6, 32, Double(size.width) / 3))
        return CGRect(x: imageInset, y: (Double(size.height) - side) / 2, width: side, height: side)
    }

    /// The image placeholder and the text, in the view's own coordinates (origin top-left).
    static func elements(for view: DynamicView, size: CGSize) -> [Drawing.Element] {
        var out: [Drawing.Element] = []
        let w = Double(size.width), h = Double(size.height)
        var textLeft = 0.0
        if let r = imageRect(for: view, size: size) {
            let frameStyle = ShapeStyle(fill: .color(SVGColor(red: 226, green: 228, blue: 232)),
                                        stroke: .color(SVGColor(red: 150, green: 155, blue: 165)), strokeWidth: 1)
            let lineStyle = ShapeStyle.stroked(SVGColor(red: 150, green: 155, blue: 165), width: 1)
            let corners = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.maxY),
                           CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.minX, y: r.maxY)]
            out.append(.group([
                .title("image: \(view.imageName ?? "")"),
                .rect(r, cornerRadius: 3, style: frameStyle),
                .line(corners[0], corners[1], style: lineStyle),
                .line(corners[2], corners[3], style: lineStyle),
            ], placement: .identity, opacity: 1, name: "image:\(view.imageName ?? "")"))
            textLeft = Double(r.maxX) + imageInset
        }
        guard let text = view.text, !text.isEmpty, view.font.size > 0 else { return out }
        let font = FontSpec(view.font)
        let fontSize = Double(view.font.size)
        let available = max(0, w - textLeft)
        let lines = TextLayout.lines(text, width: available, height: h, fontSize: fontSize, bold: font.bold,
                                     numberOfLines: view.numberOfLines)
        let lh = fontSize * TextLayout.lineHeight
        let top = (h - Double(lines.count) * lh) / 2
        let x: Double, anchor: TextAnchor
        switch view.textAlignment {
        case .left: x = textLeft; anchor = .start
        case .center: x = textLeft + available / 2; anchor = .middle
        case .right: x = w; anchor = .end
        }
        for (i, line) in lines.enumerated() {
            // The baseline of a line box centred on its middle: cap height ≈ 0.7 em.
            let baseline = top + (Double(i) + 0.5) * lh + 0.35 * fontSize
            out.append(.text(TextRun(line, at: CGPoint(x: x, y: baseline), fontFamily: font.family, fontSize: fontSize,
                                     bold: font.bold, italic: font.italic, anchor: anchor,
                                     color: SVGColor(view.textColor))))
        }
        return out
    }
}

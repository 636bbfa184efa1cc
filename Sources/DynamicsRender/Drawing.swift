import Foundation

/// How an SVG shape is filled or stroked.
public enum Paint: Sendable, Hashable {
    /// Nothing (`none`).
    case none
    /// No attribute: the value comes from the enclosing group (or the SVG default).
    case inherit
    /// A colour; its opacity becomes `fill-opacity` / `stroke-opacity`.
    case color(SVGColor)
}

/// Paint and line settings of one shape.
public struct ShapeStyle: Sendable, Hashable {
    /// Interior paint (`.inherit`: from the enclosing group; SVG's default is black).
    public var fill: Paint
    /// Outline paint (`.inherit`: from the enclosing group; SVG's default is none).
    public var stroke: Paint
    /// Stroke width in user units; nil inherits.
    public var strokeWidth: Double?
    /// Dash pattern in user units (empty: solid).
    public var dash: [Double]
    /// Opacity of the whole shape (1: attribute omitted).
    public var opacity: Double

    /// A style; every attribute left at its default is not written.
    public init(fill: Paint = .inherit, stroke: Paint = .inherit, strokeWidth: Double? = nil,
                dash: [Double] = [], opacity: Double = 1) {
        self.fill = fill; self.stroke = stroke; self.strokeWidth = strokeWidth; self.dash = dash; self.opacity = opacity
    }

    /// Filled with `color`, no outline.
    public static func filled(_ color: SVGColor) -> ShapeStyle { ShapeStyle(fill: .color(color), stroke: .none) }
    /// An outline of `color` and `width`, not filled.
    public static func stroked(_ color: SVGColor, width: Double) -> ShapeStyle {
        ShapeStyle(fill: .none, stroke: .color(color), strokeWidth: width)
    }

    /// Appends ` name="…"` (and ` name-opacity="…"` below 1) for `paint`; nothing to inherit.
    private static func write(_ paint: Paint, as name: String, into s: inout String) {
        switch paint {
        case .none: s += " "; s += name; s += "=\"none\""
        case .inherit: break
        case .color(let c):
            s += " "; s += name; s += "=\""; s += c.hex; s += "\""
            if c.opacity < 1 { s += " "; s += name; s += "-opacity=\""; SVGFormat.appendNumber(c.opacity, decimals: 3, to: &s); s += "\"" }
        }
    }

    /// Appends the presentation attributes (each with a leading space).
    func write(into s: inout String) {
        Self.write(fill, as: "fill", into: &s)
        Self.write(stroke, as: "stroke", into: &s)
        if let w = strokeWidth { s += " stroke-width=\""; SVGFormat.appendNumber(w, decimals: 3, to: &s); s += "\"" }
        if !dash.isEmpty {
            s += " stroke-dasharray=\""
            for (i, d) in dash.enumerated() { if i > 0 { s += " " }; SVGFormat.appendNumber(d, to: &s) }
            s += "\""
        }
        if opacity < 1 { s += " opacity=\""; SVGFormat.appendNumber(opacity, decimals: 3, to: &s); s += "\"" }
    }
}

/// Horizontal placement of text relative to its anchor point (`text-anchor`).
public enum TextAnchor: String, Sendable, Hashable {
    case start, middle, end
}

/// One line of text.
public struct TextRun: Sendable, Hashable {
    /// The characters (escaped when written; one line — `TextLayout` splits longer text).
    public var text: String
    /// The anchor point on the baseline.
    public var position: CGPoint
    /// CSS font family list, e.g. `Helvetica, Arial, sans-serif`.
    public var fontFamily: String
    /// Font size in user units.
    public var fontSize: Double
    public var bold: Bool
    public var italic: Bool
    /// Which point of the text `position` is: its start, middle or end.
    public var anchor: TextAnchor
    /// Fill colour of the glyphs.
    public var color: SVGColor

    /// One line of `text` with its baseline anchored at `position`.
    public init(_ text: String, at position: CGPoint, fontFamily: String = "Helvetica, Arial, sans-serif",
                fontSize: Double = 12, bold: Bool = false, italic: Bool = false, anchor: TextAnchor = .start,
                color: SVGColor = .black) {
        self.text = text; self.position = position; self.fontFamily = fontFamily; self.fontSize = fontSize
        self.bold = bold; self.italic = italic; self.anchor = anchor; self.color = color
    }
}

/// A placement of a group: translate, then rotate (degrees, clockwise on a y-down canvas, as
/// SVG's `rotate`), then scale — SVG's `translate(x y) rotate(a) scale(sx sy)`.
public struct Placement: Sendable, Hashable {
    /// Where the group's origin goes.
    public var translation: CGPoint
    /// Degrees; positive turns clockwise on screen (SVG and UIKit, both y down).
    public var rotation: Double
    /// Scale factors along the group's own axes.
    public var scaleX: Double
    public var scaleY: Double

    /// A placement (the default is the identity).
    public init(translation: CGPoint = .zero, rotation: Double = 0, scaleX: Double = 1, scaleY: Double = 1) {
        self.translation = translation; self.rotation = rotation; self.scaleX = scaleX; self.scaleY = scaleY
    }

    /// No translation, rotation or scale.
    public static let identity = Placement()
    /// True for `identity` (no `transform` attribute is written).
    public var isIdentity: Bool { self == .identity }

    /// The `transform` attribute value (empty for the identity).
    public var attribute: String {
        var s = ""
        write(into: &s)
        return s
    }

    func write(into s: inout String) {
        var parts = 0
        if translation != .zero {
            s += "translate("; SVGFormat.appendNumber(Double(translation.x), to: &s); s += " "
            SVGFormat.appendNumber(Double(translation.y), to: &s); s += ")"; parts += 1
        }
        if SVGFormat.number(rotation) != "0" {
            if parts > 0 { s += " " }
            s += "rotate("; SVGFormat.appendNumber(rotation, to: &s); s += ")"; parts += 1
        }
        if SVGFormat.number(scaleX, decimals: 4) != "1" || SVGFormat.number(scaleY, decimals: 4) != "1" {
            if parts > 0 { s += " " }
            s += "scale("; SVGFormat.appendNumber(scaleX, decimals: 4, to: &s); s += " "
            SVGFormat.appendNumber(scaleY, decimals: 4, to: &s); s += ")"
        }
    }
}

/// A retained list of SVG primitives that becomes an SVG document or fragment.
///
/// Coordinates are user units of the drawing's `viewBox` (y down, as in SVG). Everything is
/// written with `SVGFormat`, so the same drawing always gives the same bytes.
///
/// ```swift
/// var d = Drawing(width: 200, height: 100)
/// d.append(.rect(CGRect(x: 10, y: 10, width: 80, height: 40), cornerRadius: 6, style: .filled(.black)))
/// d.append(.text(TextRun("Hello", at: CGPoint(x: 100, y: 60), anchor: .middle)))
/// let svg = d.svg()
/// ```
public struct Drawing: Sendable {
    /// One primitive.
    public indirect enum Element: Sendable, Hashable {
        /// A rectangle with rounded corners (radius 0: square corners).
        case rect(CGRect, cornerRadius: Double, style: ShapeStyle)
        case circle(center: CGPoint, radius: Double, style: ShapeStyle)
        case ellipse(center: CGPoint, radiusX: Double, radiusY: Double, style: ShapeStyle)
        /// A closed polygon.
        case polygon([CGPoint], style: ShapeStyle)
        /// An open polyline.
        case polyline([CGPoint], style: ShapeStyle)
        case line(CGPoint, CGPoint, style: ShapeStyle)
        case text(TextRun)
        /// Elements drawn together with one placement and one opacity (an SVG `<g>`); opacity
        /// multiplies with enclosing groups'. `name` becomes a `data-name` attribute.
        case group([Element], placement: Placement, opacity: Double, name: String?)
        /// A hover title (`<title>`) for the enclosing element.
        case title(String)
    }

    /// Width and height of the image (pixels; the `width` / `height` attributes).
    public var width: Double
    public var height: Double
    /// The user-coordinate rectangle shown; nil means `0 0 width height`.
    public var viewBox: CGRect?
    /// Fill of the whole image; nil leaves it transparent.
    public var background: SVGColor?
    /// The primitives, back to front.
    public private(set) var elements: [Element] = []

    /// An empty drawing of `width` × `height` pixels showing `viewBox` (default: the same
    /// rectangle in user units), on `background`.
    public init(width: Double, height: Double, viewBox: CGRect? = nil, background: SVGColor? = .white) {
        self.width = width; self.height = height; self.viewBox = viewBox; self.background = background
    }

    /// Adds `element` in front of everything drawn so far.
    public mutating func append(_ element: Element) { elements.append(element) }
    /// Adds several elements in order.
    public mutating func append(contentsOf elements: [Element]) { self.elements.append(contentsOf: elements) }

    /// The complete SVG document (with an XML declaration-free `<svg>` root).
    public func svg() -> String {
        var s = ""
        s.reserveCapacity(256 + elements.count * 80)
        let vb = viewBox ?? CGRect(x: 0, y: 0, width: width, height: height)
        SVGDocument.open(&s, width: width, height: height, viewBox: vb)
        if let bg = background {
            Element.rect(vb, cornerRadius: 0, style: .filled(bg)).write(into: &s)
            s += "\n"
        }
        for e in elements { e.write(into: &s); s += "\n" }
        s += "</svg>\n"
        return s
    }

    /// The elements alone, one per line, for embedding in another document.
    public func fragment() -> String {
        var s = ""
        for e in elements { e.write(into: &s); s += "\n" }
        return s
    }
}

extension Drawing.Element {
    /// Appends this element's SVG markup to `s`.
    public func write(into s: inout String) {
        switch self {
        case let .rect(r, radius, style):
            s += "<rect x=\""; SVGFormat.appendNumber(Double(r.minX), to: &s)
            s += "\" y=\""; SVGFormat.appendNumber(Double(r.minY), to: &s)
            s += "\" width=\""; SVGFormat.appendNumber(Double(r.width), to: &s)
            s += "\" height=\""; SVGFormat.appendNumber(Double(r.height), to: &s); s += "\""
            if radius > 0 {
                let rr = min(radius, Double(min(r.width, r.height)) / 2)
                s += " rx=\""; SVGFormat.appendNumber(rr, to: &s); s += "\""
            }
            style.write(into: &s); s += "/>"
        case let .circle(c, r, style):
            s += "<circle cx=\""; SVGFormat.appendNumber(Double(c.x), to: &s)
            s += "\" cy=\""; SVGFormat.appendNumber(Double(c.y), to: &s)
            s += "\" r=\""; SVGFormat.appendNumber(r, to: &s); s += "\""
            style.write(into: &s); s += "/>"
        case let .ellipse(c, rx, ry, style):
            s += "<ellipse cx=\""; SVGFormat.appendNumber(Double(c.x), to: &s)
            s += "\" cy=\""; SVGFormat.appendNumber(Double(c.y), to: &s)
            s += "\" rx=\""; SVGFormat.appendNumber(rx, to: &s)
            s += "\" ry=\""; SVGFormat.appendNumber(ry, to: &s); s += "\""
            style.write(into: &s); s += "/>"
        case let .polygon(pts, style):
            s += "<polygon points=\""; s += SVGFormat.points(pts); s += "\""
            style.write(into: &s); s += "/>"
        case let .polyline(pts, style):
            s += "<polyline points=\""; s += SVGFormat.points(pts); s += "\""
            style.write(into: &s); s += "/>"
        case let .line(a, b, style):
            s += "<line x1=\""; SVGFormat.appendNumber(Double(a.x), to: &s)
            s += "\" y1=\""; SVGFormat.appendNumber(Double(a.y), to: &s)
            s += "\" x2=\""; SVGFormat.appendNumber(Double(b.x), to: &s)
            s += "\" y2=\""; SVGFormat.appendNumber(Double(b.y), to: &s); s += "\""
            style.write(into: &s); s += "/>"
        case let .text(run):
            s += "<text x=\""; SVGFormat.appendNumber(Double(run.position.x), to: &s)
            s += "\" y=\""; SVGFormat.appendNumber(Double(run.position.y), to: &s)
            s += "\" font-family=\""; s += SVGFormat.escape(run.fontFamily)
            s += "\" font-size=\""; SVGFormat.appendNumber(run.fontSize, to: &s); s += "\""
            if run.bold { s += " font-weight=\"bold\"" }
            if run.italic { s += " font-style=\"italic\"" }
            if run.anchor != .start { s += " text-anchor=\""; s += run.anchor.rawValue; s += "\"" }
            ShapeStyle(fill: .color(run.color), stroke: .inherit).write(into: &s)
            s += " xml:space=\"preserve\">"
            s += SVGFormat.escape(run.text)
            s += "</text>"
        case let .group(elements, placement, opacity, name):
            s += "<g"
            if let name, !name.isEmpty { s += " data-name=\""; s += SVGFormat.escape(name); s += "\"" }
            if !placement.isIdentity { s += " transform=\""; placement.write(into: &s); s += "\"" }
            if opacity < 1 { s += " opacity=\""; SVGFormat.appendNumber(max(0, opacity), decimals: 3, to: &s); s += "\"" }
            s += ">"
            for e in elements { e.write(into: &s) }
            s += "</g>"
        case let .title(text):
            s += "<title>"; s += SVGFormat.escape(text); s += "</title>"
        }
    }
}

/// Writing the root element shared by every document of this module.
enum SVGDocument {
    static func open(_ s: inout String, width: Double, height: Double, viewBox vb: CGRect) {
        s += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\""
        SVGFormat.appendNumber(width, to: &s); s += "\" height=\""; SVGFormat.appendNumber(height, to: &s)
        s += "\" viewBox=\""; writeViewBox(vb, into: &s); s += "\">\n"
    }

    static func writeViewBox(_ vb: CGRect, into s: inout String) {
        SVGFormat.appendNumber(Double(vb.minX), to: &s); s += " "
        SVGFormat.appendNumber(Double(vb.minY), to: &s); s += " "
        SVGFormat.appendNumber(Double(vb.width), to: &s); s += " "
        SVGFormat.appendNumber(Double(vb.height), to: &s)
    }
}

import DynamicsKit
import Foundation

extension LayoutConstraint {
    /// Options of `constraints(withVisualFormat:options:metrics:views:)` (UIKit's
    /// `NSLayoutConstraint.FormatOptions`): an alignment of every view in the format (an
    /// attribute across the format's orientation: top, bottom or centerY for `H:`; left, right,
    /// leading, trailing or centerX for `V:`), and the direction of `H:` formats.
    public struct FormatOptions: OptionSet, Sendable, Hashable {
        /// The option bits (UIKit's values).
        public let rawValue: UInt
        /// Options from their bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Every view of the format shares its left edges.
        public static let alignAllLeft = FormatOptions(rawValue: 1 << 1)
        /// Every view of the format shares its right edges.
        public static let alignAllRight = FormatOptions(rawValue: 1 << 2)
        /// Every view of the format shares its top edges.
        public static let alignAllTop = FormatOptions(rawValue: 1 << 3)
        /// Every view of the format shares its bottom edges.
        public static let alignAllBottom = FormatOptions(rawValue: 1 << 4)
        /// Every view of the format shares its leading edges.
        public static let alignAllLeading = FormatOptions(rawValue: 1 << 5)
        /// Every view of the format shares its trailing edges.
        public static let alignAllTrailing = FormatOptions(rawValue: 1 << 6)
        /// Every view of the format shares its horizontal centres.
        public static let alignAllCenterX = FormatOptions(rawValue: 1 << 9)
        /// Every view of the format shares its vertical centres.
        public static let alignAllCenterY = FormatOptions(rawValue: 1 << 10)
        /// Leading to trailing (the default; left to right here).
        public static let directionLeadingToTrailing = FormatOptions([])
        /// `H:` formats run left to right with left/right attributes.
        public static let directionLeftToRight = FormatOptions(rawValue: 1 << 16)
        /// `H:` formats run right to left: the first view is the rightmost.
        public static let directionRightToLeft = FormatOptions(rawValue: 2 << 16)
    }

    /// A visual format string that does not parse or names an unknown view or metric.
    public struct VisualFormatError: Error, CustomStringConvertible, Equatable {
        /// The format string.
        public let format: String
        /// The character offset (0-based) where parsing stopped.
        public let position: Int
        /// What was expected there (or what was wrong).
        public let expected: String

        /// UIKit's message: what was expected where, then the format with a caret under the
        /// position.
        public var description: String {
            "Unable to parse constraint format: expected \(expected) at position \(position)\n\(format)\n\(String(repeating: " ", count: position))^"
        }
    }

    /// Space between two sibling views for the standard spacing `-` (as UIKit: 8 points).
    public static let standardSiblingSpacing: CGFloat = 8
    /// Space between a view and its superview's edge for the standard spacing `|-` (20 points).
    public static let standardSuperviewSpacing: CGFloat = 20

    /// The constraints a visual format string describes (UIKit's
    /// `constraints(withVisualFormat:options:metrics:views:)`), not yet active:
    ///
    ///     H:|-[a]-[b(==a)]-|      V:[top]-10-[bottom(>=50@750)]      H:[button1]-100-[button2]
    ///
    /// `H:` (default) or `V:`; `|` the superview of the views; `[name(predicates)]` a view from
    /// `views` with optional size predicates; between items `-N-` (a number or a metric name),
    /// `-(predicates)-`, the standard spacing `-` (8 between views, 20 to the superview's
    /// edge) or nothing (adjacent). A predicate is `(== | <= | >=)? (number | metric | view)
    /// (@ priority)?`, several separated by commas. `options` aligns every view of the format
    /// on an attribute across its orientation. Throws `VisualFormatError` (naming the position
    /// and what was expected) for a malformed format, an unknown view or metric, a metric that
    /// is not finite, a `|` whose views have no superview, or an alignment along the format's
    /// own orientation.
    public static func constraints(withVisualFormat format: String, options: FormatOptions,
                                   metrics: [String: CGFloat]?, views: [String: DynamicView]) throws -> [LayoutConstraint] {
        var p = VisualFormatParser(format: format, metrics: metrics ?? [:], views: views, options: options)
        return try p.parse()
    }
}

struct VisualFormatParser {
    typealias Error = LayoutConstraint.VisualFormatError
    let chars: [Character]
    let format: String
    let metrics: [String: CGFloat]
    let views: [String: DynamicView]
    let options: LayoutConstraint.FormatOptions
    var i = 0

    init(format: String, metrics: [String: CGFloat], views: [String: DynamicView], options: LayoutConstraint.FormatOptions) {
        self.format = format; chars = Array(format); self.metrics = metrics; self.views = views; self.options = options
    }

    struct Predicate {
        var relation: LayoutConstraint.Relation = .equal
        var constant: CGFloat = 0
        var view: DynamicView?
        var priority: LayoutPriority = .required
    }
    /// Between two items: nil = standard spacing, [] = adjacent, or predicates.
    enum Connection { case standard, adjacent, predicates([Predicate]) }
    enum Item { case superview(at: Int), view(DynamicView, name: String, at: Int, predicates: [Predicate]) }

    func fail(_ expected: String, at position: Int? = nil) -> Error {
        Error(format: format, position: position ?? i, expected: expected)
    }

    var peek: Character? { i < chars.count ? chars[i] : nil }
    mutating func skipSpaces() { while let c = peek, c == " " { i += 1 } }

    mutating func expect(_ c: Character, _ what: String) throws {
        skipSpaces()
        guard peek == c else { throw fail(what) }
        i += 1
    }

    mutating func identifier() -> String? {
        skipSpaces()
        guard let c = peek, c == "_" || (c.isASCII && c.isLetter) else { return nil }
        var s = ""
        while let c = peek, c == "_" || (c.isASCII && (c.isLetter || c.isNumber)) { s.append(c); i += 1 }
        return s
    }

    mutating func number(allowSign: Bool) -> CGFloat? {
        skipSpaces()
        let start = i
        var s = ""
        if allowSign, let c = peek, c == "-" || c == "+" { s.append(c); i += 1 }
        var digits = false
        while let c = peek, c.isASCII, c.isNumber || c == "." { s.append(c); i += 1; if c.isNumber { digits = true } }
        guard digits, let v = Double(s) else { i = start; return nil }
        return CGFloat(v)
    }

    /// A number or a metric name.
    mutating func constant(_ what: String) throws -> CGFloat {
        skipSpaces()
        let at = i
        if let n = number(allowSign: true) { return n }
        if let name = identifier() {
            guard let m = metrics[name] else { throw fail("a metric named '\(name)' in the metrics dictionary", at: at) }
            guard m.isFinite else { throw fail("a finite value for the metric '\(name)'", at: at) }
            return m
        }
        throw fail(what)
    }

    mutating func predicate(allowViews: Bool) throws -> Predicate {
        var p = Predicate()
        skipSpaces()
        if i + 1 < chars.count {
            let two = String(chars[i...i + 1])
            switch two {
            case "==": p.relation = .equal; i += 2
            case "<=": p.relation = .lessThanOrEqual; i += 2
            case ">=": p.relation = .greaterThanOrEqual; i += 2
            default: break
            }
        }
        skipSpaces()
        let at = i
        if let n = number(allowSign: true) {
            p.constant = n
        } else if let name = identifier() {
            if let m = metrics[name] {
                guard m.isFinite else { throw fail("a finite value for the metric '\(name)'", at: at) }
                p.constant = m
            }
            else if allowViews, let v = views[name] { p.view = v }
            else { throw fail(allowViews ? "a metric or a view named '\(name)'" : "a metric named '\(name)' in the metrics dictionary", at: at) }
        } else {
            throw fail(allowViews ? "a number, a metric name or a view name" : "a number or a metric name")
        }
        skipSpaces()
        if peek == "@" {
            i += 1
            let pa = i
            let value = try constant("a priority (a number or a metric name)")
            guard value >= 1 && value <= 1000 else { throw fail("a priority between 1 and 1000", at: pa) }
            p.priority = LayoutPriority(Float(value))
        }
        return p
    }

    /// `(predicate, predicate, …)` after the opening parenthesis.
    mutating func predicateList(allowViews: Bool) throws -> [Predicate] {
        var list: [Predicate] = [try predicate(allowViews: allowViews)]
        while true {
            skipSpaces()
            if peek == "," { i += 1; list.append(try predicate(allowViews: allowViews)); continue }
            try expect(")", "',' or ')'")
            return list
        }
    }

    mutating func view() throws -> Item {
        let at = i
        try expect("[", "'[' (a view)")
        let nameAt = i
        guard let name = identifier() else { throw fail("a view name") }
        guard let v = views[name] else { throw fail("a view named '\(name)' in the views dictionary", at: nameAt) }
        var preds: [Predicate] = []
        skipSpaces()
        if peek == "(" { i += 1; preds = try predicateList(allowViews: true) }
        try expect("]", "']'")
        return .view(v, name: name, at: at, predicates: preds)
    }

    /// A connection before `[` or `|`; `-` already seen or not.
    mutating func connection() throws -> Connection {
        skipSpaces()
        guard peek == "-" else { return .adjacent }
        i += 1
        skipSpaces()
        if peek == "[" || peek == "|" { return .standard }
        var preds: [Predicate]
        if peek == "(" {
            i += 1
            preds = try predicateList(allowViews: false)
        } else {
            let at = i
            let n: CGFloat
            if let x = number(allowSign: false) { n = x } else if identifier() != nil {
                i = at
                n = try constant("a number or a metric name")
            } else {
                throw fail("a number, a metric name, '(' or a view after '-'")
            }
            preds = [Predicate(relation: .equal, constant: n)]
        }
        try expect("-", "'-' after the spacing")
        return .predicates(preds)
    }

    mutating func parse() throws -> [LayoutConstraint] {
        var vertical = false
        skipSpaces()
        if i + 1 < chars.count, chars[i + 1] == ":" {
            switch chars[i] {
            case "H": vertical = false
            case "V": vertical = true
            default: throw fail("'H:' or 'V:'")
            }
            i += 2
        }
        var items: [Item] = []
        var connections: [Connection] = []
        skipSpaces()
        if peek == "|" {
            items.append(.superview(at: i)); i += 1
            connections.append(try connection())
        }
        skipSpaces()
        guard peek == "[" else { throw fail(items.isEmpty ? "'|' or '[' (a view)" : "'[' (a view) after the spacing") }
        items.append(try view())
        while true {
            skipSpaces()
            guard let c = peek else { break }
            guard c == "-" || c == "[" else {
                if c == "|" { items.append(.superview(at: i)); connections.append(.adjacent); i += 1; break }
                throw fail("'-', '[' or '|'")
            }
            let conn = try connection()
            skipSpaces()
            if peek == "|" {
                connections.append(conn); items.append(.superview(at: i)); i += 1
                break
            }
            guard peek == "[" else { throw fail("'[' (a view) or '|'") }
            connections.append(conn)
            items.append(try view())
        }
        skipSpaces()
        guard peek == nil else { throw fail("the end of the format") }
        return try build(items, connections, vertical: vertical)
    }

    func build(_ items: [Item], _ connections: [Connection], vertical: Bool) throws -> [LayoutConstraint] {
        typealias A = LayoutConstraint.Attribute
        let rtl = options.contains(.directionRightToLeft)
        let ltr = options.contains(.directionLeftToRight)
        let start: A = vertical ? .top : (rtl ? .right : (ltr ? .left : .leading))
        let end: A = vertical ? .bottom : (rtl ? .left : (ltr ? .right : .trailing))
        let size: A = vertical ? .height : .width
        let sign: CGFloat = (!vertical && rtl) ? -1 : 1
        var out: [LayoutConstraint] = []

        var viewList: [DynamicView] = []
        for case .view(let v, _, _, _) in items { viewList.append(v) }
        var superview: DynamicView?
        for item in items {
            if case .superview(let at) = item {
                guard let s = viewList.first?.superview else { throw fail("views with a superview for '|'", at: at) }
                superview = s
            }
        }

        // Size predicates.
        for case .view(let v, _, _, let preds) in items {
            for p in preds {
                let c: LayoutConstraint
                if let other = p.view {
                    c = LayoutConstraint(item: v, attribute: size, relatedBy: p.relation, toItem: other, attribute: size, multiplier: 1, constant: p.constant)
                } else {
                    c = LayoutConstraint(item: v, attribute: size, relatedBy: p.relation, toItem: nil, attribute: .notAnAttribute, multiplier: 1, constant: p.constant)
                }
                c.priority = p.priority
                out.append(c)
            }
        }

        // Spacings: next.start (rel) previous.end + spacing (the superview's own edges at the ends).
        for (k, conn) in connections.enumerated() {
            let a = items[k], b = items[k + 1]
            let toSuperview: Bool = { if case .superview = a { return true }; if case .superview = b { return true }; return false }()
            let preds: [Predicate]
            switch conn {
            case .adjacent: preds = [Predicate()]
            case .standard: preds = [Predicate(constant: toSuperview ? LayoutConstraint.standardSuperviewSpacing : LayoutConstraint.standardSiblingSpacing)]
            case .predicates(let list): preds = list
            }
            for p in preds {
                let c: LayoutConstraint
                switch (a, b) {
                case (.superview, .view(let v, _, _, _)):
                    c = LayoutConstraint(item: v, attribute: start, relatedBy: p.relation, toItem: superview!, attribute: start, multiplier: 1, constant: sign * p.constant)
                case (.view(let v, _, _, _), .superview):
                    c = LayoutConstraint(item: superview!, attribute: end, relatedBy: p.relation, toItem: v, attribute: end, multiplier: 1, constant: sign * p.constant)
                case (.view(let v1, _, _, _), .view(let v2, _, _, _)):
                    c = LayoutConstraint(item: v2, attribute: start, relatedBy: p.relation, toItem: v1, attribute: end, multiplier: 1, constant: sign * p.constant)
                default:
                    throw fail("a view between two '|'")
                }
                if sign < 0 && p.relation != .equal {
                    // Right to left: "at least N apart" means the left edge is at most … .
                    out.append(LayoutConstraint(item: c.firstItem!, attribute: c.firstAttribute, relatedBy: p.relation == .lessThanOrEqual ? .greaterThanOrEqual : .lessThanOrEqual,
                                                toItem: c.secondItem, attribute: c.secondAttribute, multiplier: 1, constant: c.constant))
                    out.last!.priority = p.priority
                    continue
                }
                c.priority = p.priority
                out.append(c)
            }
        }

        // Alignment across the orientation.
        let alignments: [(LayoutConstraint.FormatOptions, A)] = [
            (.alignAllLeft, .left), (.alignAllRight, .right), (.alignAllTop, .top), (.alignAllBottom, .bottom),
            (.alignAllLeading, .leading), (.alignAllTrailing, .trailing), (.alignAllCenterX, .centerX), (.alignAllCenterY, .centerY),
        ]
        for (option, attr) in alignments where options.contains(option) {
            guard attr.isHorizontal == vertical else {
                throw fail("an alignment across the format (\(vertical ? "left, right, leading, trailing or centerX for V:" : "top, bottom or centerY for H:"))", at: 0)
            }
            for k in viewList.indices.dropFirst() {
                out.append(LayoutConstraint(item: viewList[k - 1], attribute: attr, relatedBy: .equal, toItem: viewList[k], attribute: attr, multiplier: 1, constant: 0))
            }
        }
        return out
    }
}

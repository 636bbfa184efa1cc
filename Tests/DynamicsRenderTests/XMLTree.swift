import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A minimal DOM built with Foundation's `XMLParser`, to check that output is well-formed XML
/// and to read it back.
final class XMLNode {
    let name: String
    let attributes: [String: String]
    weak var parent: XMLNode?
    var children: [XMLNode] = []
    var text = ""

    init(name: String, attributes: [String: String], parent: XMLNode?) {
        self.name = name; self.attributes = attributes; self.parent = parent
    }

    subscript(_ attribute: String) -> String? { attributes[attribute] }

    /// This node and every descendant, depth first.
    var all: [XMLNode] { [self] + children.flatMap(\.all) }

    func descendants(named n: String) -> [XMLNode] { all.filter { $0.name == n } }

    func first(id: String) -> XMLNode? { all.first { $0["id"] == id } }

    /// The product of `opacity` of this node and its ancestors.
    var effectiveOpacity: Double {
        var o = 1.0
        var n: XMLNode? = self
        while let x = n { o *= Double(x["opacity"] ?? "1") ?? .nan; n = x.parent }
        return o
    }

    /// Parses `text`; nil (with the parser's error) when it is not well-formed.
    static func parse(_ text: String) throws -> XMLNode {
        let delegate = Builder()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        guard parser.parse(), let root = delegate.root else {
            throw ParseError(description: parser.parserError.map { "\($0)" } ?? "no root element")
        }
        return root
    }

    struct ParseError: Error, CustomStringConvertible { var description: String }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLNode?
        var stack: [XMLNode] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            let node = XMLNode(name: elementName, attributes: attributeDict, parent: stack.last)
            if let p = stack.last { p.children.append(node) } else { root = node }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}

/// The numbers in an SVG transform such as `translate(1 -2) rotate(30)`: name → arguments.
func transformParts(_ attribute: String?) -> [String: [Double]] {
    guard let attribute else { return [:] }
    var out: [String: [Double]] = [:]
    for part in attribute.split(separator: ")") {
        let pieces = part.split(separator: "(")
        guard pieces.count == 2 else { continue }
        let name = pieces[0].trimmingCharacters(in: .whitespaces)
        out[name] = pieces[1].split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
    }
    return out
}

/// `x,y x,y …` → points.
func pointList(_ attribute: String?) -> [(Double, Double)] {
    (attribute ?? "").split(separator: " ").compactMap { pair in
        let c = pair.split(separator: ",").compactMap { Double($0) }
        return c.count == 2 ? (c[0], c[1]) : nil
    }
}

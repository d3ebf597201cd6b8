import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif
/// Counts the nodes of an SVG that Graphviz drew, and proves the SVG is well-formed XML.
public final class SVGNodeCounter: NSObject, XMLParserDelegate {
    /// The nodes counted so far.
    public var nodes = 0
    /// `XMLParserDelegate`.
    public func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if name == "g" && attributes["class"] == "node" { nodes += 1 }
    }
    /// The number of nodes the SVG draws, or `nil` when it is not well-formed XML.
    public static func count(_ svg: [UInt8]) -> Int? {
        let parser = XMLParser(data: Data(svg))
        let counter = SVGNodeCounter()
        parser.delegate = counter
        return parser.parse() ? counter.nodes : nil
    }
}


/// The text of an SVG's `<text>` elements and their `font-family` attributes.
public final class SVGTextCollector: NSObject, XMLParserDelegate {
    /// The text of each `<text>` element, in document order.
    public var texts: [String] = []
    /// Every `font-family` a `<text>` element names.
    public var families: Set<String> = []
    private var current: String?
    /// `XMLParserDelegate`.
    public func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard name == "text" else { return }
        current = ""
        if let family = attributes["font-family"] { families.insert(family) }
    }
    /// `XMLParserDelegate`.
    public func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }
    /// `XMLParserDelegate`.
    public func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let text = current { texts.append(text) }
        current = nil
    }
    /// The texts and fonts of the SVG, or `nil` when it is not well-formed XML.
    public static func collect(_ svg: [UInt8]) -> SVGTextCollector? {
        let parser = XMLParser(data: Data(svg))
        let collector = SVGTextCollector()
        parser.delegate = collector
        return parser.parse() ? collector : nil
    }
}

import Foundation

/// What an XMP packet gives: its capture dates, and the words and marks
/// people wrote (a title, a description, a rating, keywords), read from
/// its RDF/XML.
///
/// Why a scanner of our own rather than an XML parser: Foundation's
/// XMLParser is FoundationXML on Linux, which brings libxml2 into every
/// program that embeds the transfer module, to read three properties. The
/// scanner knows enough XML to find them honestly: namespaces are resolved
/// by URI (any prefix), simple properties are read in both RDF forms
/// (attribute and element), the items of a language alternative
/// (`rdf:Alt`, its `x-default` first) and of a bag or sequence are
/// collected, comments, processing instructions and CDATA are skipped, and
/// it makes one pass over the bytes, nesting capped.
struct XMPFields: Equatable {
    /// `exif:DateTimeOriginal`.
    var dateTimeOriginal: String?
    /// `xmp:CreateDate`.
    var createDate: String?
    /// `photoshop:DateCreated`.
    var dateCreated: String?
    /// `xmpNote:HasExtendedXMP`: the GUID of the rest of the packet, which
    /// JPEG carries in further segments when XMP outgrows one.
    var extendedXMPGUID: String?
    /// `xmp:Rating`, as written: -1 rejected, 0 none, 1–5 stars.
    var rating: String?
    /// `dc:title`'s alternatives, the default language's first.
    var title: [String] = []
    /// `dc:description`'s alternatives, the default language's first.
    var description: [String] = []
    /// `dc:subject`: the keywords.
    var subject: [String] = []
    /// `lr:hierarchicalSubject`: keywords with their parents (`Places|France|Paris`).
    var hierarchicalSubject: [String] = []

    private static let dublinCore = "http://purl.org/dc/elements/1.1/"

    /// The simple properties read, by namespace URI and local name.
    enum Property: NamedProperty {
        case dateTimeOriginal, createDate, dateCreated, extendedXMPGUID, rating

        var namespace: String {
            switch self {
            case .dateTimeOriginal: "http://ns.adobe.com/exif/1.0/"
            case .createDate, .rating: "http://ns.adobe.com/xap/1.0/"
            case .dateCreated: "http://ns.adobe.com/photoshop/1.0/"
            case .extendedXMPGUID: "http://ns.adobe.com/xmp/note/"
            }
        }

        var name: String {
            switch self {
            case .dateTimeOriginal: "DateTimeOriginal"
            case .createDate: "CreateDate"
            case .dateCreated: "DateCreated"
            case .extendedXMPGUID: "HasExtendedXMP"
            case .rating: "Rating"
            }
        }
    }

    /// A name's namespace URI and local name.
    struct ResolvedName {
        var uri: String
        var local: Substring
    }

    /// A property read, known by its namespace URI and local name.
    protocol NamedProperty: CaseIterable {
        var namespace: String { get }
        var name: String { get }
    }

    /// The properties whose value is a list (`rdf:Alt`, `rdf:Bag`, `rdf:Seq`).
    enum ListProperty: NamedProperty {
        case title, description, subject, hierarchicalSubject

        var namespace: String {
            self == .hierarchicalSubject ? "http://ns.adobe.com/lightroom/1.0/" : XMPFields.dublinCore
        }

        var name: String {
            switch self {
            case .title: "title"
            case .description: "description"
            case .subject: "subject"
            case .hierarchicalSubject: "hierarchicalSubject"
            }
        }
    }

    subscript(property: Property) -> String? {
        get {
            switch property {
            case .dateTimeOriginal: dateTimeOriginal
            case .createDate: createDate
            case .dateCreated: dateCreated
            case .extendedXMPGUID: extendedXMPGUID
            case .rating: rating
            }
        }
        set {
            switch property {
            case .dateTimeOriginal: dateTimeOriginal = newValue
            case .createDate: createDate = newValue
            case .dateCreated: dateCreated = newValue
            case .extendedXMPGUID: extendedXMPGUID = newValue
            case .rating: rating = newValue
            }
        }
    }

    subscript(property: ListProperty) -> [String] {
        get {
            switch property {
            case .title: title
            case .description: description
            case .subject: subject
            case .hierarchicalSubject: hierarchicalSubject
            }
        }
        set {
            switch property {
            case .title: title = newValue
            case .description: description = newValue
            case .subject: subject = newValue
            case .hierarchicalSubject: hierarchicalSubject = newValue
            }
        }
    }

    /// Fills what this packet lacks from another (the extended part of the
    /// same XMP, or a later packet of the same file).
    mutating func fillGaps(from other: XMPFields) {
        for property in Property.allCases where self[property] == nil {
            self[property] = other[property]
        }
        for property in ListProperty.allCases where self[property].isEmpty {
            self[property] = other[property]
        }
    }

    /// The words and marks the packet carries.
    var words: ImageWords {
        // A keyword with its parents is the keyword itself (digiKam and
        // Lightroom also write the leaf in dc:subject).
        let leaves = hierarchicalSubject.compactMap { path in
            path.split(separator: "|").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return ImageWords(
            title: title.first, caption: description.first, rating: rating.flatMap(ImageWords.rating(fromXMP:)),
            keywords: subject + leaves)
    }

    static func read(_ bytes: ByteView) -> XMPFields {
        var scanner = Scanner(bytes: bytes)
        return scanner.scan()
    }

    private struct Scanner {
        let bytes: ByteView
        var offset = 0
        /// Namespace declarations in scope, innermost last: (prefix, URI).
        var namespaces: [(prefix: String, uri: String)] = []
        /// How many declarations each open element added.
        var openElements: [Int] = []
        var fields = XMPFields()
        /// The list property being read and how deep its element opened.
        var list: (property: ListProperty, depth: Int)?

        init(bytes: ByteView) { self.bytes = bytes }

        mutating func scan() -> XMPFields {
            while let start = find(UInt8(ascii: "<"), from: offset) {
                offset = start + 1
                if starts(with: "!--") {
                    offset = end(of: "-->")
                } else if starts(with: "![CDATA[") {
                    offset = end(of: "]]>")
                } else if starts(with: "?") || starts(with: "!") {
                    offset = end(of: ">")
                } else if starts(with: "/") {
                    offset = end(of: ">")
                    closeElement()
                } else {
                    guard let tag = readStartTag() else { break }
                    let name = tag.isEmptyElement ? nil : resolved(tag.name)
                    if let name, let (property, depth) = list, name.uri == Self.rdf && name.local == "li" {
                        // An item cut off by the packet's end is no item.
                        guard let textEnd = find(UInt8(ascii: "<"), from: offset) else { break }
                        let text = XMLEntities.decoded(bytes.ascii(offset, count: textEnd - offset) ?? "")
                        if depth == openElements.count - 3, Self.holdsText(text), fields[property].count < 1024 {
                            // A language alternative's default goes first, as readers show it.
                            if tag.language == "x-default" { fields[property].insert(text, at: 0) } else { fields[property].append(text) }
                        }
                    } else if let name, list == nil, let property = ListProperty(name), fields[property].isEmpty {
                        list = (property, openElements.count - 1)
                    } else if let name, let field = Property(name), fields[field] == nil {
                        // The element form: the value is the text up to the next tag.
                        let textEnd = find(UInt8(ascii: "<"), from: offset) ?? bytes.count
                        let text = XMLEntities.decoded(bytes.ascii(offset, count: textEnd - offset) ?? "")
                        // Whitespace only: a structure, not a value.
                        if Self.holdsText(text) { fields[field] = text }
                    }
                    if tag.isEmptyElement { closeElement() }
                }
            }
            return fields
        }

        // MARK: Tags

        struct StartTag {
            var name: String
            var isEmptyElement: Bool
            /// Its `xml:lang`.
            var language: String?
        }

        static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

        /// Reads `name attr="value" … >` after a `<`, declaring its namespaces
        /// and taking its attribute-form properties.
        mutating func readStartTag() -> StartTag? {
            guard openElements.count < 256, let name = readName() else { return nil }
            var attributes: [(String, String)] = []
            var declared = 0
            while true {
                skipSpaces()
                guard let byte = bytes.u8(offset) else { return nil }
                if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") {
                    let isEmpty = byte == UInt8(ascii: "/")
                    offset = end(of: ">")
                    openElements.append(declared)
                    for (attribute, value) in attributes {
                        if let name = resolved(attribute), let field = Property(name), fields[field] == nil { fields[field] = value }
                    }
                    return StartTag(name: name, isEmptyElement: isEmpty, language: attributes.first { $0.0 == "xml:lang" }?.1)
                }
                guard let attribute = readName() else { return nil }
                skipSpaces()
                guard bytes.u8(offset) == UInt8(ascii: "=") else { return nil }
                offset += 1
                skipSpaces()
                guard let quote = bytes.u8(offset), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
                    let close = find(quote, from: offset + 1)
                else { return nil }
                let value = XMLEntities.decoded(bytes.ascii(offset + 1, count: close - offset - 1) ?? "")
                offset = close + 1
                if attribute == "xmlns" || attribute.hasPrefix("xmlns:") {
                    namespaces.append((attribute == "xmlns" ? "" : String(attribute.dropFirst(6)), value))
                    declared += 1
                } else {
                    attributes.append((attribute, value))
                }
            }
        }

        mutating func closeElement() {
            guard let declared = openElements.popLast() else { return }
            namespaces.removeLast(min(declared, namespaces.count))
            if let (_, depth) = list, openElements.count <= depth { list = nil }
        }

        /// A qualified name's namespace URI and local name, its prefix resolved in the current scope.
        func resolved(_ qualifiedName: String) -> ResolvedName? {
            let colon = qualifiedName.utf8.firstIndex(of: UInt8(ascii: ":"))
            let prefix = colon.map { qualifiedName[..<$0] } ?? ""
            guard let uri = namespaces.last(where: { $0.prefix == prefix })?.uri else { return nil }
            return ResolvedName(uri: uri, local: colon.map { qualifiedName[qualifiedName.index(after: $0)...] } ?? qualifiedName[...])
        }

        /// Whether a text holds anything but whitespace.
        static func holdsText(_ text: String) -> Bool {
            text.unicodeScalars.contains { !$0.properties.isWhitespace }
        }

        // MARK: Bytes

        mutating func readName() -> String? {
            let start = offset
            while let byte = bytes.u8(offset), !Self.isSpace(byte), byte != UInt8(ascii: "="), byte != UInt8(ascii: ">"),
                byte != UInt8(ascii: "/")
            {
                offset += 1
            }
            return offset > start ? bytes.ascii(start, count: offset - start) : nil
        }

        mutating func skipSpaces() {
            while let byte = bytes.u8(offset), Self.isSpace(byte) { offset += 1 }
        }

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        func starts(with text: StaticString) -> Bool {
            bytes.matches(text, at: offset)
        }

        func find(_ byte: UInt8, from start: Int) -> Int? {
            guard start >= 0, start < bytes.count, let base = bytes.bytes.baseAddress else { return nil }
            // memchr: a packet is mostly text between tags, scanned once.
            guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }

        /// The offset just past the next `terminator`, or the end.
        func end(of terminator: StaticString) -> Int {
            let first = terminator.withUTF8Buffer { $0.first } ?? UInt8(ascii: ">")
            var index = offset
            while let found = find(first, from: index) {
                if bytes.matches(terminator, at: found) { return found + terminator.utf8CodeUnitCount }
                index = found + 1
            }
            return bytes.count
        }
    }
}

extension XMPFields.NamedProperty {
    /// The property `name` stands for.
    init?(_ name: XMPFields.ResolvedName) {
        guard let found = Self.allCases.first(where: { $0.name == name.local && $0.namespace == name.uri }) else { return nil }
        self = found
    }
}

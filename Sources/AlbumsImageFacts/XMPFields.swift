/// The capture dates an XMP packet gives, read from its RDF/XML.
///
/// Why a scanner of our own rather than an XML parser: Foundation's
/// XMLParser is FoundationXML on Linux, which brings libxml2 into every
/// program that embeds the transfer module, to read three properties. The
/// scanner knows enough XML to find them honestly: namespaces are resolved
/// by URI (any prefix), properties are read in both RDF forms (attribute
/// and element), comments, processing instructions and CDATA are skipped,
/// and it makes one pass over the bytes, nesting capped.
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

    /// The properties read, by namespace URI and local name.
    enum Property: CaseIterable {
        case dateTimeOriginal, createDate, dateCreated, extendedXMPGUID

        var namespace: String {
            switch self {
            case .dateTimeOriginal: "http://ns.adobe.com/exif/1.0/"
            case .createDate: "http://ns.adobe.com/xap/1.0/"
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
            }
        }
        set {
            switch property {
            case .dateTimeOriginal: dateTimeOriginal = newValue
            case .createDate: createDate = newValue
            case .dateCreated: dateCreated = newValue
            case .extendedXMPGUID: extendedXMPGUID = newValue
            }
        }
    }

    /// Fills what this packet lacks from another (the extended part of the same XMP).
    mutating func fillGaps(from other: XMPFields) {
        for property in Property.allCases where self[property] == nil {
            self[property] = other[property]
        }
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
                    if !tag.isEmptyElement, let field = field(named: tag.name), fields[field] == nil {
                        // The element form: the value is the text up to the next tag.
                        let textEnd = find(UInt8(ascii: "<"), from: offset) ?? bytes.count
                        let text = XMLEntities.decoded(bytes.ascii(offset, count: textEnd - offset) ?? "")
                        // Whitespace only: a structure, not a value.
                        if text.contains(where: { !$0.isWhitespace }) { fields[field] = text }
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
        }

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
                        if let field = field(named: attribute), fields[field] == nil { fields[field] = value }
                    }
                    return StartTag(name: name, isEmptyElement: isEmpty)
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
        }

        /// The field a qualified name stands for, its prefix resolved in the current scope.
        func field(named qualifiedName: String) -> Property? {
            let parts = qualifiedName.split(separator: ":", maxSplits: 1)
            let (prefix, local) = parts.count == 2 ? (String(parts[0]), String(parts[1])) : ("", qualifiedName)
            guard let uri = namespaces.last(where: { $0.prefix == prefix })?.uri else { return nil }
            return Property.allCases.first { $0.namespace == uri && $0.name == local }
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

        func starts(with text: String) -> Bool {
            bytes.matches(Array(text.utf8), at: offset)
        }

        func find(_ byte: UInt8, from start: Int) -> Int? {
            var index = start
            while index < bytes.count {
                if bytes.u8(index) == byte { return index }
                index += 1
            }
            return nil
        }

        /// The offset just past the next `terminator`, or the end.
        func end(of terminator: String) -> Int {
            let pattern = Array(terminator.utf8)
            var index = offset
            while let found = find(pattern[0], from: index) {
                if bytes.matches(pattern, at: found) { return found + pattern.count }
                index = found + 1
            }
            return bytes.count
        }
    }
}

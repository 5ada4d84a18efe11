/// Text as XML writes it, read and written: what XMP packets and S3's
/// answers hold, what export's sidecars and S3's requests say.
package enum XMLEntities {
    /// `text` as XML character data or an attribute's value: the five
    /// characters XML reserves as entities, a carriage return as a
    /// reference (a parser would read it as a line break).
    package static func encoded(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\r": result += "&#13;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` with XML's five named entities and its numeric character
    /// references decoded; anything else (an unknown entity, a stray `&`)
    /// stays as written.
    package static func decoded(_ text: String) -> String {
        // Most text holds no entity; Foundation's contains(_:) would search it as Unicode.
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            guard let semicolon = rest.firstIndex(of: ";"), rest.distance(from: rest.startIndex, to: semicolon) <= 10 else { break }
            let entity = rest[rest.index(after: rest.startIndex)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                guard let scalar = number.flatMap(Unicode.Scalar.init) else {
                    result += rest[...semicolon]
                    rest = rest[rest.index(after: semicolon)...]
                    continue
                }
                result.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}

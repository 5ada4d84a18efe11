import AlbumsImageFacts
import Foundation

/// The few values albums reads from S3's XML answers (an error's code, a
/// listing's keys, a multipart upload's id), found by their elements' names:
/// the answers are flat, and a full XML parser would be a library (and, on
/// Linux, libxml2) for a handful of fields.
enum S3XML {
    /// The text of every element named `name` in `xml`, in order, its
    /// entities decoded. Elements of that name nested in each other are not
    /// expected in S3's answers and are not handled.
    static func values(of name: String, in xml: String) -> [String] {
        var values: [String] = []
        var rest = xml[...]
        let open = "<\(name)>", close = "</\(name)>"
        while let start = rest.range(of: open), let end = rest.range(of: close, range: start.upperBound..<rest.endIndex) {
            values.append(XMLEntities.decoded(String(rest[start.upperBound..<end.lowerBound])))
            rest = rest[end.upperBound...]
        }
        return values
    }

    /// The text of the first element named `name`, if any.
    static func value(of name: String, in xml: String) -> String? {
        values(of: name, in: xml).first
    }

    /// The blocks of every element named `name` (its inner XML), in order.
    static func blocks(of name: String, in xml: String) -> [String] {
        var blocks: [String] = []
        var rest = xml[...]
        let open = "<\(name)>", close = "</\(name)>"
        while let start = rest.range(of: open), let end = rest.range(of: close, range: start.upperBound..<rest.endIndex) {
            blocks.append(String(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return blocks
    }
}

import AlbumsPersistence

/// Reads item references as people type them: `ALBUM:N` (1-based position),
/// `ALBUM:N-M` (an inclusive range), `id:P` (a photo id).
///
/// The album part is everything before the last `:`, so album names may
/// themselves contain colons (`Trip: Rome:3`).
public enum ReferenceParser {
    /// Everything that can be wrong with a reference, said in one line.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The reference as typed.
        public let reference: String
        /// Why it cannot be read, in words.
        public let reason: String
        /// Whether the reference has one of the three forms but names what
        /// no reference may: a number past 2,147,483,647, or a range that
        /// runs backwards or covers more than a million items. The API answers
        /// these 422, as it does the library's other rules, and malformed
        /// text 400: its document's pattern says the forms, not the limits.
        public let isBeyondLimits: Bool

        /// A reference that cannot be read, and why.
        public init(reference: String, reason: String, isBeyondLimits: Bool = false) {
            self.reference = reference
            self.reason = reason
            self.isBeyondLimits = isBeyondLimits
        }

        public var description: String { "invalid reference \(LibraryError.quoted(reference)): \(reason)" }
    }

    /// Parses one reference into the references it stands for, in order.
    ///
    /// - Parameter photoAlbum: The album a photo id refers to, if known (`--from`).
    /// - Throws: ``ParseError`` for anything that is not one of the three forms.
    public static func parse(_ text: String, photoAlbum: AlbumReference? = nil) throws(ParseError) -> [ItemReference] {
        if text.hasPrefix("id:") {
            return [.photo(PhotoID(rawValue: try number(String(text.dropFirst(3)), in: text, naming: "a photo id")), in: photoAlbum)]
        }
        guard let colon = text.lastIndex(of: ":") else {
            throw ParseError(reference: text, reason: "expected ALBUM:N, ALBUM:N-M or id:P")
        }
        let album = String(text[..<colon])
        let position = String(text[text.index(after: colon)...])
        guard !album.isEmpty else { throw ParseError(reference: text, reason: "the album name before ':' is empty") }
        let albumReference = AlbumReference.named(album)
        if let dash = position.firstIndex(of: "-"), dash != position.startIndex {
            let first = try number(String(position[..<dash]), in: text, naming: "a position")
            let last = try number(String(position[position.index(after: dash)...]), in: text, naming: "a position")
            guard first <= last else {
                throw ParseError(reference: text, reason: "the range \(first)-\(last) runs backwards", isBeyondLimits: true)
            }
            guard last - first < 1_000_000 else {
                throw ParseError(reference: text, reason: "the range is too long (at most 1,000,000 items)", isBeyondLimits: true)
            }
            return (first...last).map { .position(Int($0) - 1, in: albumReference) }
        }
        return [.position(Int(try number(position, in: text, naming: "a position")) - 1, in: albumReference)]
    }

    /// A positive decimal number, as positions and ids are.
    private static func number(_ digits: String, in text: String, naming role: String) throws(ParseError) -> Int64 {
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
            throw ParseError(reference: text, reason: "\(LibraryError.quoted(digits)) is not \(role) (a whole number from 1)")
        }
        guard digits.contains(where: { $0 != "0" }) else {
            throw ParseError(reference: text, reason: "\(role == "a position" ? "positions" : "photo ids") start at 1")
        }
        guard let value = Int64(digits), value <= Int64(Int32.max) else {
            throw ParseError(reference: text, reason: "\(digits) is past the largest \(role.dropFirst(2)), \(Int32.max)", isBeyondLimits: true)
        }
        return value
    }
}

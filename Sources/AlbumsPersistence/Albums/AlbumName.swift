/// Validation of album names: the schema's CHECK (not empty, no control
/// characters), plus what only new names must meet.
enum AlbumName {
    /// The longest name, in characters: a title, not a text.
    static let maximumLength = 255

    /// Throws unless `name` is a usable new album name: not empty or blank,
    /// at most ``maximumLength`` characters, no control characters.
    static func validate(_ name: String) throws(LibraryError) {
        if name.isEmpty {
            throw .invalidAlbumName(name, reason: "a name cannot be empty")
        }
        if name.allSatisfy(\.isWhitespace) {
            throw .invalidAlbumName(name, reason: "a name cannot be only spaces")
        }
        if name.utf8.count > maximumLength * 4 || name.count > maximumLength {
            throw .invalidAlbumName(name, reason: "a name can have at most \(maximumLength) characters")
        }
        if name.unicodeScalars.contains(where: \.isControlCharacter) {
            throw .invalidAlbumName(name, reason: "a name cannot contain control characters")
        }
    }
}

extension Unicode.Scalar {
    /// C0 controls, DEL and C1 controls: Unicode's general category Cc.
    var isControlCharacter: Bool {
        properties.generalCategory == .control
    }
}

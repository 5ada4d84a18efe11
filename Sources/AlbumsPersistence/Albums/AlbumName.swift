/// Validation of album names, the same rule the schema's CHECK enforces.
enum AlbumName {
    /// Throws unless `name` is a usable album name: not empty, no control characters.
    static func validate(_ name: String) throws(LibraryError) {
        if name.isEmpty {
            throw .invalidAlbumName(name, reason: "a name cannot be empty")
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

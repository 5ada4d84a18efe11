import Foundation

/// Album names are what they look like (Documentation/Commands.md, "Names"): stored and looked up in
/// Unicode NFC, so two names that look the same are the same name; never
/// invisible, never with bidirectional controls that make a name display
/// as another; never `id`, which would shadow `id:P` references.
enum AlbumName {
    /// The longest name, in characters: a title, not a text.
    static let maximumLength = 255

    /// The form a name is stored and looked up in: Unicode NFC
    /// ("café" typed with a combining accent is "café").
    static func normalized(_ name: String) -> String {
        // ASCII is NFC already; Foundation's normalization bridges through
        // NSString, which costs each command's start a tenth of a millisecond.
        name.utf8.allSatisfy { $0 < 0x80 } ? name : name.precomposedStringWithCanonicalMapping
    }

    /// Throws unless `name` (normalized) is a usable new album name.
    static func validate(_ name: String) throws(LibraryError) {
        if let reason = problem(with: name) { throw .invalidAlbumName(name, reason: reason) }
        if name == "id" {
            throw .invalidAlbumName(name, reason: "'id' is reserved: id:N names a photo")
        }
    }

    /// Why `name` (normalized) cannot name an album or a folder, or nil if it can.
    static func problem(with name: String) -> String? {
        if name.isEmpty {
            return "a name cannot be empty"
        }
        if name.unicodeScalars.allSatisfy(\.isInvisible) {
            return "a name cannot be only spaces or invisible characters"
        }
        if name.utf8.count > maximumLength * 4 || name.count > maximumLength {
            return "a name can have at most \(maximumLength) characters"
        }
        if name.unicodeScalars.contains(where: \.isControlCharacter) {
            return "a name cannot contain control characters"
        }
        if let control = name.unicodeScalars.first(where: \.properties.isBidiControl) {
            return "a name cannot contain bidirectional controls (U+\(String(control.value, radix: 16, uppercase: true))): they make it display as another"
        }
        return nil
    }
}

/// Folder names follow the rules of album names (``AlbumName``) and never
/// hold a '/', which separates the folders of a path ("Travel/2026").
enum FolderName {
    /// Throws unless `name` (normalized) is a usable folder name.
    static func validate(_ name: String) throws(LibraryError) {
        if let reason = AlbumName.problem(with: name) { throw .invalidFolderName(name, reason: reason) }
        if name.contains("/") {
            throw .invalidFolderName(name, reason: "a folder's name cannot contain '/': it separates the folders of a path")
        }
    }
}

extension Unicode.Scalar {
    /// C0 controls, DEL and C1 controls: Unicode's general category Cc.
    var isControlCharacter: Bool {
        properties.generalCategory == .control
    }

    /// Shows nothing: white space, format characters (zero-width space and
    /// joiners, byte order mark) and what Unicode says renderers ignore
    /// (Hangul fillers, variation selectors).
    var isInvisible: Bool {
        properties.isWhitespace || properties.generalCategory == .format || properties.isDefaultIgnorableCodePoint
            || value == 0x2800  // Braille blank: looks like a space, is not one
    }
}

import Foundation

/// Everything that can go wrong with a library file or a request made of it.
///
/// Each case carries the facts a person needs; ``description`` says them in
/// one line, lowercase, with what to do next where there is something to do.
/// ``kind`` sorts the cases for callers that map errors to outcomes, such as
/// the CLI's exit statuses.
public enum LibraryError: Error, Hashable, Sendable {
    // MARK: The file is not a usable library

    /// The file is not an SQLite database at all.
    case notADatabase(path: String, reason: String)
    /// The file is shorter than its own header says: it was cut off.
    case truncated(path: String, expectedBytes: Int64, actualBytes: Int64)
    /// An SQLite file stamped with another application's id.
    case foreignApplication(path: String, applicationID: Int32)
    /// An SQLite file with tables of its own and no application id.
    case foreignDatabase(path: String, tables: [String])
    /// A library written by a newer `albums`, which this one must not touch.
    case newerSchema(path: String, fileVersion: Int, supportedVersion: Int)
    /// A migration recorded in the file differs from the one this build carries.
    case modifiedMigration(path: String, version: Int, name: String)
    /// SQLite found the file damaged.
    case corrupt(path: String, detail: String)

    // MARK: The file cannot be read or written

    /// The file or its folder cannot be written.
    case readOnly(path: String)
    /// The disk or a quota is full.
    case diskFull(path: String)
    /// Any other I/O failure, including a file that cannot be opened.
    case ioFailure(path: String, detail: String)
    /// Another connection held the lock past the busy timeout.
    case busy(path: String, timeout: Double)

    // MARK: The request is refused

    case albumNotFound(name: String)
    case albumIDNotFound(AlbumID)
    case albumNameTaken(String)
    case invalidAlbumName(String, reason: String)
    /// Nothing enters, leaves or moves inside a locked album.
    case albumLocked(name: String)
    /// Deleting an album with pending loads needs `force`.
    case albumHasPendingLoads(name: String, count: Int)
    /// A 0-based index outside `valid`; an empty `valid` means no index is valid.
    case indexOutOfRange(index: Int, valid: Range<Int>, album: String)
    /// A 0-based place in the list of albums outside `valid`.
    case albumIndexOutOfRange(index: Int, valid: Range<Int>)
    case itemNotFound(AlbumItemID)
    case photoNotFound(PhotoID)
    /// A photo stands at most once in an album.
    case photoAlreadyInAlbum(PhotoID, album: String)
    /// The same item was named twice in one request.
    case duplicateItem(AlbumItemID)
    /// A placeholder was given where only photos make sense.
    case placeholderNotAllowed(AlbumItemID)
    /// SQLite refused a write that broke a schema constraint.
    case constraintViolated(detail: String)

    /// How a caller should treat the error.
    public enum Kind: Sendable {
        /// The file is not a usable library: not SQLite, foreign, newer, corrupt.
        case unusableFile
        /// Reading or writing the file failed: read-only, disk full, other I/O.
        case inputOutput
        /// The library stayed locked by another connection past the timeout.
        case busy
        /// The request was refused: not found, forbidden, conflicting.
        case refused
    }

    public var kind: Kind {
        switch self {
        case .notADatabase, .truncated, .foreignApplication, .foreignDatabase, .newerSchema,
            .modifiedMigration, .corrupt:
            .unusableFile
        case .readOnly, .diskFull, .ioFailure:
            .inputOutput
        case .busy:
            .busy
        case .albumNotFound, .albumIDNotFound, .albumNameTaken, .invalidAlbumName, .albumLocked,
            .albumHasPendingLoads, .indexOutOfRange, .albumIndexOutOfRange, .itemNotFound, .photoNotFound,
            .photoAlreadyInAlbum, .duplicateItem, .placeholderNotAllowed, .constraintViolated:
            .refused
        }
    }
}

extension LibraryError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .notADatabase(let path, let reason):
            "'\(path)' is not an albums library: \(reason)"
        case .truncated(let path, let expected, let actual):
            "'\(path)' is truncated: its header promises \(expected) bytes but it has \(actual); restore it from a backup"
        case .foreignApplication(let path, let applicationID):
            "'\(path)' belongs to another application (SQLite application id \(String(format: "0x%08X", UInt32(bitPattern: applicationID)))); albums will not change it"
        case .foreignDatabase(let path, let tables):
            "'\(path)' is an SQLite database of another application (tables: \(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : "")); albums will not change it"
        case .newerSchema(let path, let fileVersion, let supportedVersion):
            "'\(path)' was written by a newer albums (schema \(fileVersion), this one knows up to \(supportedVersion)); upgrade albums to open it"
        case .modifiedMigration(let path, let version, let name):
            "'\(path)' records migration \(version) '\(name)' with a different text than this albums carries; the file or the build is not what it claims"
        case .corrupt(let path, let detail):
            "'\(path)' is damaged (\(detail)); run albums check, or restore from a backup"
        case .readOnly(let path):
            "'\(path)' cannot be written (read-only file, folder or medium)"
        case .diskFull(let path):
            "the disk holding '\(path)' is full; nothing was written"
        case .ioFailure(let path, let detail):
            "cannot use '\(path)': \(detail)"
        case .busy(let path, let timeout):
            "'\(path)' stayed locked by another process for \(Self.format(seconds: timeout)); try again"
        case .albumNotFound(let name):
            "no album named \(Self.quoted(name)); albums album list shows them"
        case .albumIDNotFound(let id):
            "no album with id \(id)"
        case .albumNameTaken(let name):
            "an album named '\(name)' already exists; choose another name"
        case .invalidAlbumName(let name, let reason):
            "invalid album name \(Self.quoted(name)): \(reason)"
        case .albumLocked(let name):
            "album '\(name)' is locked: albums album unlock \(Self.shellQuoted(name))"
        case .albumHasPendingLoads(let name, let count):
            "album '\(name)' has \(count) pending load\(count == 1 ? "" : "s"); delete it with --force to cancel them"
        case .indexOutOfRange(let index, let valid, let album):
            if valid.isEmpty {
                "index \(index) is out of range: album '\(album)' is empty"
            } else {
                "index \(index) is out of range for album '\(album)': valid indexes are \(valid.lowerBound)…\(valid.upperBound - 1)"
            }
        case .albumIndexOutOfRange(let index, let valid):
            "position \(index + 1) is out of range for the list of albums: valid positions are \(valid.lowerBound + 1)…\(valid.upperBound)"
        case .itemNotFound(let id):
            "no item with id \(id)"
        case .photoNotFound(let id):
            "no photo with id \(id)"
        case .photoAlreadyInAlbum(let photo, let album):
            "photo \(photo) is already in album '\(album)'"
        case .duplicateItem(let id):
            "item \(id) is named more than once"
        case .placeholderNotAllowed(let id):
            "item \(id) is a placeholder of a pending load and cannot be used here"
        case .constraintViolated(let detail):
            "the library refused the change: \(detail)"
        }
    }

    public var errorDescription: String? { description }

    /// A name as it can be shown on one line: control characters escaped.
    ///
    /// A long text is cut after 60 characters, so that a message stays one readable line.
    public static func quoted(_ text: String) -> String {
        let shown = text.count > 80 ? text.prefix(60) + "…" : Substring(text)
        let quoted = "'" + shown.unicodeScalars.map { $0.isControlCharacter ? $0.escaped(asASCII: true) : String($0) }.joined() + "'"
        return text.count > 80 ? quoted + " (\(text.count) characters)" : quoted
    }

    /// A name as a POSIX shell would take it back as one argument.
    public static func shellQuoted(_ text: String) -> String {
        let isPlain = text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-_./".unicodeScalars.contains($0))
        }
        return isPlain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func format(seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

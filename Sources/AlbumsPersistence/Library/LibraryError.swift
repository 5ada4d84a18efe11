import Foundation

/// Everything that can go wrong with a library file or a request made of it.
///
/// Each case carries the facts a person needs; ``description`` says them in
/// one line, lowercase, in no front end's words: the CLI adds its commands
/// and flags, the page its buttons.
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

    /// No library at the path, and the request only reads, so none was created.
    case noLibrary(path: String)
    /// The file or its folder cannot be written.
    case readOnly(path: String)
    /// A library of an older schema on read-only media: reading it needs
    /// the upgrade, which needs writing.
    case upgradeNeedsWriting(path: String, fileVersion: Int, currentVersion: Int)
    /// The disk or a quota is full.
    case diskFull(path: String)
    /// Any other I/O failure, including a file that cannot be opened.
    case ioFailure(path: String, detail: String)
    /// Another connection held the lock past the busy timeout.
    case busy(path: String, timeout: Double)

    // MARK: The request is refused

    /// No album answers to the reference.
    case albumNotFound(AlbumReference)
    /// Album names are unique in the library.
    case albumNameTaken(String)
    /// A name albums refuses, and why (empty, only invisible characters, bidirectional controls, `id`).
    case invalidAlbumName(String, reason: String)
    /// Words or marks albums refuses on an item or an album (a title, a
    /// caption, a keyword, a description), and why: too long, control characters.
    case invalidWords(field: String, reason: String)
    /// Nothing enters, leaves or moves inside a locked album.
    case albumLocked(name: String)
    /// A smart album shows what its search finds: nothing enters, leaves or moves in it by hand.
    case smartAlbum(name: String)
    /// A smart album's cover is the newest photo its search finds; none is chosen by hand.
    case smartAlbumCover(name: String)
    /// A smart album shows each reader their own search; a link, which
    /// reaches no photo of its own, would show nothing: freeze it first.
    case smartAlbumLink(name: String)
    /// A person keeps at most `limit` smart albums (``LibraryWriter/smartAlbumsPerPerson``).
    case tooManySmartAlbums(limit: Int)
    /// Deleting an album with pending loads needs `force`.
    case albumHasPendingLoads(name: String, count: Int)
    /// A 0-based index outside `valid` (0-based too); an empty `valid` means
    /// the album is empty. Messages say 1-based positions, as people see them.
    case positionOutOfRange(index: Int, valid: Range<Int>, album: String)
    /// A 0-based place among a folder's children (nil: the top level)
    /// outside `valid`.
    case albumIndexOutOfRange(index: Int, valid: Range<Int>, folder: String? = nil)
    /// No folder answers to the reference.
    case folderNotFound(FolderReference)
    /// A name no folder may have, and why.
    case invalidFolderName(String, reason: String)
    /// A folder's children (albums and folders) have distinct names; `folder` nil is the top level.
    case nameTakenInFolder(String, folder: String?)
    /// Nothing enters, leaves or moves inside a locked folder.
    case folderLocked(name: String)
    /// Deleting a folder that holds albums or folders needs a choice of what becomes of them.
    case folderNotEmpty(name: String, albums: Int, folders: Int)
    /// A folder cannot go into itself or into a folder inside it.
    case folderIntoItself(name: String, destination: String)
    /// No item answers to the reference.
    case itemNotFound(ItemReference)
    /// No photo has the id.
    case photoNotFound(PhotoID)
    /// A photo stands at most once in an album.
    case photoAlreadyInAlbum(PhotoID, album: String)
    /// A cover is one of its album's photos; this one is not in the album
    /// (or is, for all the asker may see, nowhere).
    case photoNotInAlbum(PhotoID, album: String)
    /// A photo id names no single item: it is in several albums.
    case ambiguousPhoto(PhotoID, albums: [String])
    /// The same item (or photo, for a copy) was named twice in one request.
    case duplicateItem(ItemReference)
    /// A placeholder of a pending load was given where only photos make sense.
    case placeholderNotAllowed(ItemReference)
    /// The album changed since the revision the caller saw.
    case revisionMismatch(album: String, expected: Int64, actual: Int64)
    /// `before` / `after` named an item that is itself transferred.
    case neighbourIsTransferred(ItemReference)
    /// An operation with no items, or a swap without exactly two.
    case wrongItemCount(operation: String, count: Int)
    /// SQLite refused a write that broke a schema constraint.
    case constraintViolated(detail: String)
    /// A photo's source file is gone: `count` are, the first at `path`.
    case sourceMissing(path: String, position: Int, count: Int)
    /// An export's source no longer holds the bytes imported (and `count - 1`
    /// more): nothing was exported.
    case sourceChanged(path: String, position: Int, count: Int)
    /// A file would be overwritten.
    case fileExists(path: String)
    /// A backup's copy did not check clean: nothing was left at `path`.
    case backupFailedCheck(path: String, problem: String)
    /// The history holds no change that is not undone.
    case nothingToUndo
    /// No change is undone (or a change made since cleared what was).
    case nothingToRedo
    /// Undoing the entry could not be exact; nothing was written.
    case cannotUndo(entry: Int64, description: String, reason: String)
    /// Redoing the entry could not be exact; nothing was written.
    case cannotRedo(entry: Int64, description: String, reason: String)
    /// A history size outside 1…1,000,000 entries.
    case historyLimitOutOfRange(Int)

    // MARK: People and their rights

    /// The person asking may see what they name but not do this to it; `reason` says why, in their words.
    case forbidden(reason: String)
    /// No person has the name.
    case personNotFound(String)
    /// Names are unique without regard to case.
    case personNameTaken(String)
    /// A name no person may have, and why.
    case invalidPersonName(String, reason: String)
    /// A password that cannot be used: empty, or longer than bcrypt reads.
    case invalidPassword(reason: String)
    /// No share link, or a revoked one, has the id.
    case shareLinkNotFound(ShareLinkID)

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

    /// Which of the four kinds the error is: what a caller branches on to choose an outcome.
    public var kind: Kind {
        switch self {
        case .notADatabase, .truncated, .foreignApplication, .foreignDatabase, .newerSchema,
            .modifiedMigration, .corrupt, .backupFailedCheck:
            .unusableFile
        case .noLibrary, .readOnly, .upgradeNeedsWriting, .diskFull, .ioFailure:
            .inputOutput
        case .busy:
            .busy
        case .albumNotFound, .albumNameTaken, .invalidAlbumName, .invalidWords, .albumLocked, .smartAlbum, .smartAlbumCover, .smartAlbumLink, .tooManySmartAlbums, .albumHasPendingLoads,
            .positionOutOfRange, .albumIndexOutOfRange, .folderNotFound, .invalidFolderName, .nameTakenInFolder,
            .folderLocked, .folderNotEmpty, .folderIntoItself, .itemNotFound, .photoNotFound, .photoAlreadyInAlbum, .photoNotInAlbum,
            .ambiguousPhoto, .duplicateItem, .placeholderNotAllowed, .revisionMismatch, .neighbourIsTransferred,
            .wrongItemCount, .constraintViolated, .sourceMissing, .sourceChanged, .fileExists, .nothingToUndo,
            .nothingToRedo, .cannotUndo, .cannotRedo, .historyLimitOutOfRange, .forbidden, .personNotFound,
            .personNameTaken, .invalidPersonName, .invalidPassword, .shareLinkNotFound:
            .refused
        }
    }

    /// A stable, snake_case name for the case: the `code` of the CLI's and
    /// the server's JSON errors. Spelled out, never derived, so that
    /// renaming a case cannot change what scripts match on.
    public var code: String {
        switch self {
        case .notADatabase: "not_a_database"
        case .truncated: "truncated"
        case .foreignApplication: "foreign_application"
        case .foreignDatabase: "foreign_database"
        case .newerSchema: "newer_schema"
        case .modifiedMigration: "modified_migration"
        case .corrupt: "corrupt"
        case .noLibrary: "no_library"
        case .readOnly: "read_only"
        case .upgradeNeedsWriting: "upgrade_needs_writing"
        case .diskFull: "disk_full"
        case .ioFailure: "io_failure"
        case .busy: "busy"
        case .albumNotFound: "album_not_found"
        case .albumNameTaken: "album_name_taken"
        case .invalidAlbumName: "invalid_album_name"
        case .invalidWords: "invalid_words"
        case .albumLocked: "album_locked"
        case .smartAlbum: "smart_album"
        case .smartAlbumCover: "smart_album_cover"
        case .smartAlbumLink: "smart_album_link"
        case .tooManySmartAlbums: "too_many_smart_albums"
        case .albumHasPendingLoads: "album_has_pending_loads"
        case .positionOutOfRange: "position_out_of_range"
        case .albumIndexOutOfRange: "album_position_out_of_range"
        case .folderNotFound: "folder_not_found"
        case .invalidFolderName: "invalid_folder_name"
        case .nameTakenInFolder: "name_taken_in_folder"
        case .folderLocked: "folder_locked"
        case .folderNotEmpty: "folder_not_empty"
        case .folderIntoItself: "folder_into_itself"
        case .itemNotFound: "item_not_found"
        case .photoNotFound: "photo_not_found"
        case .photoAlreadyInAlbum: "photo_already_in_album"
        case .photoNotInAlbum: "photo_not_in_album"
        case .ambiguousPhoto: "ambiguous_photo"
        case .duplicateItem: "duplicate_item"
        case .placeholderNotAllowed: "placeholder_not_allowed"
        case .revisionMismatch: "revision_mismatch"
        case .neighbourIsTransferred: "neighbour_is_transferred"
        case .wrongItemCount: "wrong_item_count"
        case .constraintViolated: "constraint_violated"
        case .sourceMissing: "source_missing"
        case .sourceChanged: "source_changed"
        case .fileExists: "file_exists"
        case .backupFailedCheck: "backup_failed_check"
        case .nothingToUndo: "nothing_to_undo"
        case .nothingToRedo: "nothing_to_redo"
        case .cannotUndo: "cannot_undo"
        case .cannotRedo: "cannot_redo"
        case .historyLimitOutOfRange: "history_limit_out_of_range"
        case .forbidden: "forbidden"
        case .personNotFound: "person_not_found"
        case .personNameTaken: "person_name_taken"
        case .invalidPersonName: "invalid_person_name"
        case .invalidPassword: "invalid_password"
        case .shareLinkNotFound: "share_link_not_found"
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
            "'\(path)' is damaged (\(detail)); restore it from a backup"
        case .noLibrary(let path):
            "no library at '\(path)'"
        case .readOnly(let path):
            "'\(path)' cannot be written (read-only file, folder or medium)"
        case .upgradeNeedsWriting(let path, let fileVersion, let currentVersion):
            "'\(path)' has schema \(fileVersion) and this albums reads \(currentVersion); the upgrade writes to it, and it is read-only: copy it somewhere writable"
        case .diskFull(let path):
            "the disk holding '\(path)' is full; nothing was written"
        case .ioFailure(let path, let detail):
            "cannot use '\(path)': \(detail)"
        case .busy(let path, let timeout):
            "'\(path)' stayed locked by another process for \(Self.format(seconds: timeout)); try again"
        case .albumNotFound(.named(let name)):
            "no album named \(Self.quoted(name))"
        case .albumNotFound(.id(let id)):
            "no album with id \(id)"
        case .albumNameTaken(let name):
            "an album named \(Self.quoted(name)) already exists; choose another name"
        case .invalidAlbumName(let name, let reason):
            "invalid album name \(Self.quoted(name)): \(reason)"
        case .invalidWords(let field, let reason):
            "invalid \(field): \(reason)"
        case .albumLocked(let name):
            "album \(Self.quoted(name)) is locked"
        case .smartAlbum(let name):
            "album \(Self.quoted(name)) is a smart album: it shows what its search finds, and nothing is put in, taken out or moved by hand"
        case .smartAlbumCover(let name):
            "album \(Self.quoted(name)) is a smart album: its cover is always the newest photo its search finds"
        case .smartAlbumLink(let name):
            "album \(Self.quoted(name)) is a smart album: it shows each person what they may see, so a link would show nothing; freeze it into an ordinary album and share that"
        case .tooManySmartAlbums(let limit):
            "a person keeps at most \(limit) smart albums: freeze or delete one first"
        case .albumHasPendingLoads(let name, let count):
            "album \(Self.quoted(name)) has \(count) pending load\(count == 1 ? "" : "s")"
        case .positionOutOfRange(let index, let valid, let album):
            if valid.isEmpty {
                "position \(index + 1) is out of range: album \(Self.quoted(album)) is empty"
            } else {
                "position \(index + 1) is out of range for album \(Self.quoted(album)): valid positions are \(valid.lowerBound + 1)…\(valid.upperBound)"
            }
        case .albumIndexOutOfRange(let index, let valid, let folder):
            "position \(index + 1) is out of range for \(folder.map { "folder \(Self.quoted($0))" } ?? "the top level"): valid positions are \(valid.lowerBound + 1)…\(valid.upperBound)"
        case .folderNotFound(.path(let path)):
            "no folder \(Self.quoted(path))"
        case .folderNotFound(.id(let id)):
            "no folder with id \(id)"
        case .invalidFolderName(let name, let reason):
            "invalid folder name \(Self.quoted(name)): \(reason)"
        case .nameTakenInFolder(let name, let folder):
            "\(folder.map { "folder \(Self.quoted($0))" } ?? "the top level") already holds a folder or album named \(Self.quoted(name)); choose another name"
        case .folderLocked(let name):
            "folder \(Self.quoted(name)) is locked"
        case .folderNotEmpty(let name, let albums, let folders):
            "folder \(Self.quoted(name)) holds \(Self.counted(albums, "album")) and \(Self.counted(folders, "folder"))"
        case .folderIntoItself(let name, let destination):
            "folder \(Self.quoted(name)) cannot go into \(Self.quoted(destination)): a folder cannot go into itself or a folder inside it"
        case .itemNotFound(let reference):
            "no such item: \(reference)"
        case .photoNotFound(let id):
            "no photo with id \(id)"
        case .photoAlreadyInAlbum(let photo, let album):
            "photo id:\(photo) is already in album \(Self.quoted(album))"
        case .photoNotInAlbum(let photo, let album):
            "photo id:\(photo) is not in album \(Self.quoted(album)): a cover is one of the album's own photos"
        case .ambiguousPhoto(let photo, let albums):
            "photo id:\(photo) is in \(albums.count) albums (\(albums.map { Self.quoted($0) }.joined(separator: ", ")))"
        case .duplicateItem(let reference):
            "\(reference) is named more than once"
        case .placeholderNotAllowed(let reference):
            "\(reference) is a placeholder of a pending load"
        case .revisionMismatch(let album, let expected, let actual):
            "album \(Self.quoted(album)) is at revision \(actual), not \(expected): it changed since; look again and retry"
        case .neighbourIsTransferred(let reference):
            "\(reference) is itself being transferred and cannot mark where the others land"
        case .wrongItemCount(let operation, let count):
            operation == "swap" ? "swap takes exactly two items, not \(count)" : "\(operation) needs at least one item"
        case .sourceMissing(let path, let position, let count):
            "\(count) source file\(count == 1 ? " is" : "s are") missing, first \(path) (position \(position)); nothing was written"
        case .sourceChanged(let path, let position, let count):
            "\(count) source file\(count == 1 ? " has" : "s have") changed since import, first \(path) (position \(position)); nothing was exported"
        case .fileExists(let path):
            "\(path) already exists"
        case .constraintViolated(let detail):
            "the library refused the change: \(detail)"
        case .backupFailedCheck(let path, let problem):
            "the backup copy does not check clean (\(problem)), so nothing was written at '\(path)'; the library itself may be damaged"
        case .nothingToUndo:
            "nothing to undo: no change is left that you can undo"
        case .nothingToRedo:
            "nothing to redo: no change you undid is left to redo, or a change made since cleared it"
        case .cannotUndo(let entry, let description, let reason):
            "cannot undo #\(entry) (\(description)) exactly: \(reason); nothing was changed"
        case .cannotRedo(let entry, let description, let reason):
            "cannot redo #\(entry) (\(description)) exactly: \(reason); nothing was changed"
        case .historyLimitOutOfRange(let count):
            "cannot keep \(count) history entries: keep 1…\(HistoryRetention.maximumKeptEntries)"
        case .forbidden(let reason):
            reason
        case .personNotFound(let name):
            "no person is named \(Self.quoted(name))"
        case .personNameTaken(let name):
            "a person named \(Self.quoted(name)) exists already (names are compared without regard to case)"
        case .invalidPersonName(let name, let reason):
            "\(Self.quoted(name)) cannot name a person: \(reason)"
        case .invalidPassword(let reason):
            "the password cannot be used: \(reason)"
        case .shareLinkNotFound(let id):
            "no share link has id \(id)"
        }
    }

    public var errorDescription: String? { description }

    /// A name as it can be shown on one line: control characters escaped.
    ///
    /// A long text is cut after 60 characters, so that a message stays one readable line.
    public static func quoted(_ text: String) -> String {
        let shown = text.count > 80 ? text.prefix(60) + "…" : Substring(text)
        let quoted = "'" + shown.unicodeScalars.map { $0.isHiddenInQuotes ? $0.escaped(asASCII: true) : String($0) }.joined() + "'"
        return text.count > 80 ? quoted + " (\(text.count) characters)" : quoted
    }

    /// "1 album", "3 items": for messages and the history's words.
    package static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(plural ?? noun + "s")"
    }

    private static func format(seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

extension Unicode.Scalar {
    /// Shown escaped (`\u{200B}`) in quoted names: controls, bidirectional
    /// controls and zero-width characters, which would otherwise hide or
    /// reorder what a person reads. Joiners and variation selectors, which
    /// shape emoji and scripts, are shown as they are.
    var isHiddenInQuotes: Bool {
        if isControlCharacter || properties.isBidiControl { return true }
        if value == 0x200C || value == 0x200D || (0xFE00...0xFE0F).contains(value) { return false }
        return properties.generalCategory == .format || properties.isDefaultIgnorableCodePoint
    }
}

import AlbumsPersistence

extension LibraryError {
    /// One example of every case, for the tests that hold each front end's
    /// answers to the one table (``everyCaseIsExampled``: a new case
    /// does not compile until it has an example here).
    public static let examples: [LibraryError] = [
        .notADatabase(path: "/x", reason: "text"), .truncated(path: "/x", expectedBytes: 8192, actualBytes: 100),
        .foreignApplication(path: "/x", applicationID: 7), .foreignDatabase(path: "/x", tables: ["t"]),
        .newerSchema(path: "/x", fileVersion: 9, supportedVersion: 2), .modifiedMigration(path: "/x", version: 1, name: "create"),
        .corrupt(path: "/x", detail: "bad page"), .noLibrary(path: "/x"), .readOnly(path: "/x"),
        .upgradeNeedsWriting(path: "/x", fileVersion: 2, currentVersion: 3), .diskFull(path: "/x"),
        .ioFailure(path: "/x", detail: "no such file"), .busy(path: "/x", timeout: 5),
        .albumNotFound(.named("Trip")), .albumNameTaken("Trip"), .invalidAlbumName("", reason: "a name cannot be empty"),
        .invalidWords(field: "caption", reason: "at most 10000 characters, and it has 10001"),
        .albumLocked(name: "Trip"), .smartAlbum(name: "Best"), .smartAlbumCover(name: "Best"), .smartAlbumLink(name: "Best"), .tooManySmartAlbums(limit: 50), .albumHasPendingLoads(name: "Trip", count: 2),
        .positionOutOfRange(index: 9, valid: 0..<3, album: "Trip"), .albumIndexOutOfRange(index: 5, valid: 0..<2),
        .folderNotFound(.path("Travel")), .invalidFolderName("a/b", reason: "a folder's name cannot hold '/'"),
        .nameTakenInFolder("Lisbon", folder: "Travel"), .folderLocked(name: "Travel"),
        .folderNotEmpty(name: "Travel", albums: 2, folders: 1), .folderIntoItself(name: "Travel", destination: "Travel/2026"),
        .itemNotFound(.item(AlbumItemID(rawValue: 4))), .photoNotFound(PhotoID(rawValue: 4)),
        .photoAlreadyInAlbum(PhotoID(rawValue: 4), album: "Trip"), .photoNotInAlbum(PhotoID(rawValue: 4), album: "Trip"),
        .ambiguousPhoto(PhotoID(rawValue: 4), albums: ["Trip", "Book"]),
        .duplicateItem(.position(0, in: "Trip")), .placeholderNotAllowed(.item(AlbumItemID(rawValue: 4))),
        .revisionMismatch(album: "Trip", expected: 3, actual: 4), .neighbourIsTransferred(.position(1, in: "Trip")),
        .wrongItemCount(operation: "swap", count: 1), .constraintViolated(detail: "CHECK failed"),
        .sourceMissing(path: "/p/a.jpg", position: 3, count: 2), .sourceChanged(path: "/p/a.jpg", position: 3, count: 1),
        .fileExists(path: "/out/001-a.jpg"), .backupFailedCheck(path: "/b.albums", problem: "1 invariant broken"),
        .nothingToUndo, .nothingToRedo, .cannotUndo(entry: 5, description: "move 1 item", reason: "a load is pending"),
        .cannotRedo(entry: 5, description: "move 1 item", reason: "a load is pending"), .historyLimitOutOfRange(0),
        .forbidden(reason: "you may only look at album 'Trip'"), .personNotFound("gran"), .personNameTaken("gran"),
        .invalidPersonName("", reason: "a name cannot be empty"), .invalidPassword(reason: "it is empty"),
        .shareLinkNotFound(ShareLinkID(rawValue: 3)),
    ]

    /// Whether the examples hold every case: the switch has no default, so
    /// a case added to ``LibraryError`` stops this from compiling until it
    /// is named here, and its example added above.
    public static var everyCaseIsExampled: Bool {
        Set(examples.map(\.caseName)).count == caseCount
    }

    private static let caseCount = 57

    private var caseName: String {
        switch self {
        case .notADatabase: "notADatabase"
        case .truncated: "truncated"
        case .foreignApplication: "foreignApplication"
        case .foreignDatabase: "foreignDatabase"
        case .newerSchema: "newerSchema"
        case .modifiedMigration: "modifiedMigration"
        case .corrupt: "corrupt"
        case .noLibrary: "noLibrary"
        case .readOnly: "readOnly"
        case .upgradeNeedsWriting: "upgradeNeedsWriting"
        case .diskFull: "diskFull"
        case .ioFailure: "ioFailure"
        case .busy: "busy"
        case .albumNotFound: "albumNotFound"
        case .albumNameTaken: "albumNameTaken"
        case .invalidAlbumName: "invalidAlbumName"
        case .invalidWords: "invalidWords"
        case .albumLocked: "albumLocked"
        case .albumHasPendingLoads: "albumHasPendingLoads"
        case .positionOutOfRange: "positionOutOfRange"
        case .albumIndexOutOfRange: "albumIndexOutOfRange"
        case .folderNotFound: "folderNotFound"
        case .invalidFolderName: "invalidFolderName"
        case .nameTakenInFolder: "nameTakenInFolder"
        case .folderLocked: "folderLocked"
        case .folderNotEmpty: "folderNotEmpty"
        case .folderIntoItself: "folderIntoItself"
        case .itemNotFound: "itemNotFound"
        case .photoNotFound: "photoNotFound"
        case .photoAlreadyInAlbum: "photoAlreadyInAlbum"
        case .photoNotInAlbum: "photoNotInAlbum"
        case .smartAlbum: "smartAlbum"
        case .smartAlbumCover: "smartAlbumCover"
        case .smartAlbumLink: "smartAlbumLink"
        case .tooManySmartAlbums: "tooManySmartAlbums"
        case .ambiguousPhoto: "ambiguousPhoto"
        case .duplicateItem: "duplicateItem"
        case .placeholderNotAllowed: "placeholderNotAllowed"
        case .revisionMismatch: "revisionMismatch"
        case .neighbourIsTransferred: "neighbourIsTransferred"
        case .wrongItemCount: "wrongItemCount"
        case .constraintViolated: "constraintViolated"
        case .sourceMissing: "sourceMissing"
        case .sourceChanged: "sourceChanged"
        case .fileExists: "fileExists"
        case .backupFailedCheck: "backupFailedCheck"
        case .nothingToUndo: "nothingToUndo"
        case .nothingToRedo: "nothingToRedo"
        case .cannotUndo: "cannotUndo"
        case .cannotRedo: "cannotRedo"
        case .historyLimitOutOfRange: "historyLimitOutOfRange"
        case .forbidden: "forbidden"
        case .personNotFound: "personNotFound"
        case .personNameTaken: "personNameTaken"
        case .invalidPersonName: "invalidPersonName"
        case .invalidPassword: "invalidPassword"
        case .shareLinkNotFound: "shareLinkNotFound"
        }
    }
}

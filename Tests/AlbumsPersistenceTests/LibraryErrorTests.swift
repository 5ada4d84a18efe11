import AlbumsPersistence
import Foundation
import Testing

/// The one public error type: each case's code is stable (scripts match
/// on it), its description one line, and LocalizedError says the same.
@Suite("LibraryError: codes and descriptions")
struct LibraryErrorTests {
    static let cases: [(LibraryError, String, LibraryError.Kind)] = [
        (.notADatabase(path: "/x", reason: "text"), "not_a_database", .unusableFile),
        (.truncated(path: "/x", expectedBytes: 8192, actualBytes: 100), "truncated", .unusableFile),
        (.foreignApplication(path: "/x", applicationID: 7), "foreign_application", .unusableFile),
        (.foreignDatabase(path: "/x", tables: ["t"]), "foreign_database", .unusableFile),
        (.newerSchema(path: "/x", fileVersion: 9, supportedVersion: 2), "newer_schema", .unusableFile),
        (.modifiedMigration(path: "/x", version: 1, name: "create"), "modified_migration", .unusableFile),
        (.corrupt(path: "/x", detail: "bad page"), "corrupt", .unusableFile),
        (.noLibrary(path: "/x"), "no_library", .inputOutput),
        (.readOnly(path: "/x"), "read_only", .inputOutput),
        (.upgradeNeedsWriting(path: "/x", fileVersion: 2, currentVersion: 3), "upgrade_needs_writing", .inputOutput),
        (.diskFull(path: "/x"), "disk_full", .inputOutput),
        (.ioFailure(path: "/x", detail: "no such file"), "io_failure", .inputOutput),
        (.busy(path: "/x", timeout: 5), "busy", .busy),
        (.albumNotFound(.named("Trip")), "album_not_found", .refused),
        (.albumNotFound(.id(AlbumID(rawValue: 3))), "album_not_found", .refused),
        (.albumNameTaken("Trip"), "album_name_taken", .refused),
        (.invalidAlbumName("", reason: "a name cannot be empty"), "invalid_album_name", .refused),
        (.albumLocked(name: "Trip"), "album_locked", .refused),
        (.smartAlbum(name: "Best"), "smart_album", .refused),
        (.smartAlbumCover(name: "Best"), "smart_album_cover", .refused),
        (.smartAlbumLink(name: "Best"), "smart_album_link", .refused),
        (.albumHasPendingLoads(name: "Trip", count: 2), "album_has_pending_loads", .refused),
        (.positionOutOfRange(index: 9, valid: 0..<3, album: "Trip"), "position_out_of_range", .refused),
        (.positionOutOfRange(index: 0, valid: 0..<0, album: "Trip"), "position_out_of_range", .refused),
        (.albumIndexOutOfRange(index: 5, valid: 0..<2), "album_position_out_of_range", .refused),
        (.itemNotFound(.item(AlbumItemID(rawValue: 4))), "item_not_found", .refused),
        (.photoNotFound(PhotoID(rawValue: 4)), "photo_not_found", .refused),
        (.photoAlreadyInAlbum(PhotoID(rawValue: 4), album: "Trip"), "photo_already_in_album", .refused),
        (.photoNotInAlbum(PhotoID(rawValue: 4), album: "Trip"), "photo_not_in_album", .refused),
        (.ambiguousPhoto(PhotoID(rawValue: 4), albums: ["Trip", "Book"]), "ambiguous_photo", .refused),
        (.duplicateItem(.position(0, in: "Trip")), "duplicate_item", .refused),
        (.placeholderNotAllowed(.item(AlbumItemID(rawValue: 4))), "placeholder_not_allowed", .refused),
        (.revisionMismatch(album: "Trip", expected: 3, actual: 4), "revision_mismatch", .refused),
        (.neighbourIsTransferred(.position(1, in: "Trip")), "neighbour_is_transferred", .refused),
        (.wrongItemCount(operation: "swap", count: 1), "wrong_item_count", .refused),
        (.constraintViolated(detail: "CHECK failed"), "constraint_violated", .refused),
        (.sourceMissing(path: "/p/a.jpg", position: 3, count: 2), "source_missing", .refused),
        (.sourceChanged(path: "/p/a.jpg", position: 3, count: 1), "source_changed", .refused),
        (.fileExists(path: "/out/001-a.jpg"), "file_exists", .refused),
    ]

    @Test("each case has its stable code and kind, and one line that says it", arguments: cases.indices)
    func codes(index: Int) {
        let (error, code, kind) = Self.cases[index]
        #expect(error.code == code)
        #expect(error.kind == kind)
        #expect(!error.description.isEmpty && !error.description.contains("\n"))
        #expect(error.errorDescription == error.description)
        #expect((error as any Error).localizedDescription == error.description)
    }

    @Test("a name in a message is quoted with its control characters escaped, and cut when long")
    func quoting() {
        #expect(LibraryError.albumNotFound(.named("a\nb")).description == "no album named 'a\\nb'")
        let long = String(repeating: "x", count: 100)
        #expect(LibraryError.albumLocked(name: long).description.contains("(100 characters)"))
    }
}

@Suite("File errors in albums' own words")
struct FileErrorWordingTests {
    @Test("Foundation's errors are described without its domain names or sentences")
    func noFoundationWording() {
        let cases: [(NSError, String)] = [
            (NSError(domain: NSCocoaErrorDomain, code: NSFileReadUnknownError), "the file system refused it (error 256)"),
            (NSError(domain: NSCocoaErrorDomain, code: NSFileWriteFileExistsError), "a file by that name is in the way"),
            (NSError(domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError), "no such file"),
            (NSError(
                domain: NSCocoaErrorDomain, code: NSFileWriteUnknownError,
                userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOTDIR))]), String(cString: strerror(ENOTDIR))),
            (NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES)), "permission denied"),
        ]
        for (error, expected) in cases {
            let text = LibraryError.describeFileError(error)
            #expect(text == expected)
            #expect(!text.contains("NSCocoaErrorDomain") && !text.contains("couldn’t") && !text.contains("The operation"))
        }
        #expect(LibraryError.fileAccess(path: "/x", error: NSError(domain: NSCocoaErrorDomain, code: NSFileWriteOutOfSpaceError)) == .diskFull(path: "/x"))
    }
}

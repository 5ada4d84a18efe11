import AlbumsPersistence
import AlbumsTestSupport
import AlbumsTransfer
import AlbumsWire
import Foundation
import Testing

/// The one table of failures: every library error's code, exit status and
/// HTTP status, and messages in no front end's words.
@Suite("FailureOutcome: one table for the CLI and the API")
struct FailureOutcomeTests {
    @Test("the examples hold every case of LibraryError")
    func everyCase() {
        #expect(LibraryError.everyCaseIsExampled)
    }

    /// The HTTP status of each code that is not the default of its kind
    /// (refused 422, busy 503, a file that cannot be used or read 500).
    static let httpExceptions: [String: Int] = [
        "album_not_found": 404, "folder_not_found": 404, "item_not_found": 404, "photo_not_found": 404, "no_library": 404,
        "person_not_found": 404, "share_link_not_found": 404, "forbidden": 403, "revision_mismatch": 409, "nothing_to_undo": 409,
        "nothing_to_redo": 409, "cannot_undo": 409, "cannot_redo": 409,
    ]

    @Test("each case: its own code, the exit status of its kind, its HTTP status, and its description as the message", arguments: LibraryError.examples)
    func table(_ error: LibraryError) {
        let outcome = FailureOutcome(error)
        #expect(outcome.code == error.code)
        #expect(outcome.message == error.description)
        let exit: Int32 = switch error.kind {
        case .refused: 1
        case .unusableFile: 65
        case .inputOutput: 74
        case .busy: 75
        }
        #expect(outcome.exitStatus == exit)
        let http = Self.httpExceptions[error.code] ?? (error.kind == .refused ? 422 : error.kind == .busy ? 503 : 500)
        #expect(outcome.httpStatus == http)
        #expect(FailureOutcome(error as any Error) == outcome)
    }

    @Test("a library's messages speak no front end: no command, flag or environment variable", arguments: LibraryError.examples)
    func noFrontEndWords(_ error: LibraryError) {
        let message = error.description
        let commandWords = ["albums album", "albums folder", "albums user", "albums link", "albums check", "albums init",
            "albums relink", "albums history", "albums pending", "--", "$ALBUMS"]
        #expect(!commandWords.contains { message.contains($0) }, "\(message)")
    }

    @Test("a batch's refusal answers as its reason, naming the line; unreadable references and lines are usage errors")
    func otherErrors() throws {
        let refusal = BatchRefusal(index: 2, line: 3, operation: .items(.remove([.position(0, in: "Trip")])), reason: .albumLocked(name: "Trip"))
        let outcome = try #require(FailureOutcome(refusal))
        #expect(outcome.code == "album_locked" && outcome.exitStatus == 1 && outcome.httpStatus == 422)
        #expect(outcome.message.hasPrefix("line 3 (remove) refused, nothing applied: album 'Trip' is locked"))
        let malformed = try #require(FailureOutcome(ReferenceParser.ParseError(reference: "Trip:x", reason: "not a position")))
        #expect(malformed.code == "invalid_reference" && malformed.exitStatus == 64 && malformed.httpStatus == 400)
        let beyond = try #require(FailureOutcome(ReferenceParser.ParseError(reference: "Trip:9999999999", reason: "too large", isBeyondLimits: true)))
        #expect(beyond.httpStatus == 422 && beyond.exitStatus == 64)
        let line = try #require(FailureOutcome(TransferBatchFormat.FormatError(line: 1, reason: "not valid JSON")))
        #expect(line.code == "invalid_batch" && line.exitStatus == 64 && line.httpStatus == 400)
        #expect(FailureOutcome(CocoaError(.fileNoSuchFile)) == nil)
        let file = FailureOutcome(fileError: CocoaError(.fileNoSuchFile))
        #expect(file.code == "io_failure" && file.exitStatus == 74 && file.httpStatus == 500)
    }
}

@Suite("Messages without paths")
struct PathFreeMessageTests {
    @Test("every absolute path, quoted or standing alone, is cut to its last name; the rest of the message stays")
    func pathsAreCut() {
        #expect(PathFreeMessage.of("the original of photo 3 at '/srv/my photos/2024/a b.jpg' is missing") == "the original of photo 3 at 'a b.jpg' is missing")
        #expect(PathFreeMessage.of("cannot read /srv/photos/a.jpg: no such file") == "cannot read a.jpg: no such file")
        #expect(PathFreeMessage.of("'/var/lib/albums/library.albums' is damaged (bad page)") == "'library.albums' is damaged (bad page)")
        #expect(PathFreeMessage.of("move 3 items to 'Book' at 2") == "move 3 items to 'Book' at 2")
        #expect(PathFreeMessage.of("only 1/2 of the rows") == "only 1/2 of the rows")
        #expect(PathFreeMessage.of("a folder's name cannot hold '/'") == "a folder's name cannot hold '/'")
    }
}

import AlbumsPersistence
import AlbumsTestSupport
import AlbumsTransfer
import AlbumsWire
import Testing

@testable import AlbumsCommands

/// The CLI answers every library error as the one table says, in its own words.
@Suite("Exit statuses come from the one table")
struct ExitStatusTests {
    @Test("each library error: the table's code and exit status; the library's facts, then the CLI's hint", arguments: LibraryError.examples)
    func reports(_ error: LibraryError) {
        let report = ExitStatus.report(for: error)
        let outcome = FailureOutcome(error)
        #expect(report.code == outcome.code && report.status == outcome.exitStatus)
        #expect(report.message == outcome.message + (error.commandHint.map { "; " + $0 } ?? ""))
    }

    @Test("the CLI's hints name its commands and flags")
    func hints() {
        #expect(ExitStatus.report(for: LibraryError.albumLocked(name: "My trip")).message == "album 'My trip' is locked; albums album unlock 'My trip' unlocks it")
        #expect(ExitStatus.report(for: LibraryError.noLibrary(path: "/x")).message.hasSuffix("or run albums init to create it"))
        #expect(ExitStatus.report(for: LibraryError.ambiguousPhoto(PhotoID(rawValue: 4), albums: ["A", "B"])).message.hasSuffix("; say which with --from ALBUM"))
    }
}

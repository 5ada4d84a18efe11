import AlbumsPersistence
import AlbumsTestSupport
import AlbumsTransfer
import Foundation
import Testing

@testable import AlbumsImporting

/// Importing real files: the example photos, and every kind of bad input.
@Suite("Importing files")
struct FileImportTests {
    let fixture: LibraryFixture
    let session: TransferSession
    let inbox: String

    init() throws {
        fixture = try LibraryFixture()
        session = TransferSession(library: fixture.library)
        try session.library.write { try $0.createAlbum(named: "Trip") }
        inbox = fixture.folder.path("inbox")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ data: Data) throws -> String {
        let path = (inbox as NSString).appendingPathComponent(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the example folder imports with types, sizes and dates; the copy and the text file are handled")
    func examplePhotos() async throws {
        let sources = ImportSources.expand([ExamplePhotos.folder.path], recursive: false)
        #expect(sources.failed.isEmpty)
        let report = try await LoadRunner(session: session, jobs: 3).load(sources.files, at: .into("Trip"))
        let manifest = ExamplePhotos.manifest.filter { $0.file != "08-harbour-copy.jpg" }
        #expect(report.committed.count == manifest.count)
        #expect(report.alreadyInAlbum.map { ($0.source as NSString).lastPathComponent } == ["08-harbour-copy.jpg"])
        #expect(report.skipped.map { ($0.source as NSString).lastPathComponent } == ["09-notes.txt", "manifest.json"])
        #expect(report.succeeded)
        for (expected, committed) in zip(manifest, report.committed) {
            let content = try await session.library.read { try $0.photo(committed.photo) }.content
            #expect(content.originalName == expected.file)
            #expect(content.mediaType == expected.mediaType)
            #expect(content.pixelWidth == expected.pixelWidth && content.pixelHeight == expected.pixelHeight)
            #expect(content.capturedAt?.text == expected.capturedAt)
            let bytes = try Data(contentsOf: ExamplePhotos.folder.appending(path: expected.file))
            #expect(content.byteCount == Int64(bytes.count))
        }
        #expect(try session.library.violations() == [])
    }

    @Test("corrupt, truncated, empty, unreadable, folder and non-image inputs each get their outcome")
    func badInputs() async throws {
        let jpeg = try Data(contentsOf: ExamplePhotos.folder.appending(path: "01-harbour.jpg"))
        var corrupt = jpeg
        corrupt.replaceSubrange(4..<64, with: Data(repeating: 0x41, count: 60))  // after the JPEG signature
        let inputs = [
            try write("good.jpg", jpeg),
            try write("truncated.jpg", jpeg.prefix(40)),
            try write("corrupt.jpg", corrupt),
            try write("empty.jpg", Data()),
            try write("notes.jpg", Data("not a picture at all".utf8)),
            (inbox as NSString).appendingPathComponent("missing.jpg"),
            try { () throws -> String in
                let link = (inbox as NSString).appendingPathComponent("dangling.jpg")
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nonexistent/photo.jpg")
                return link
            }(),
            inbox,  // a folder handed to the loader directly
            try { () throws -> String in
                let fifo = (inbox as NSString).appendingPathComponent("pipe.jpg")
                #expect(mkfifo(fifo, 0o644) == 0)
                return fifo
            }(),
        ]
        let before = try await session.library.read { try $0.album(named: "Trip") }
        let report = try await LoadRunner(session: session).load(inputs, at: .into("Trip"))
        func outcome(_ name: String) -> String {
            let path = name == "inbox" ? inbox : (inbox as NSString).appendingPathComponent(name)
            if report.committed.contains(where: { $0.source == path }) { return "committed" }
            if let skip = report.skipped.first(where: { $0.source == path }) { return "skipped: \(skip.reason)" }
            if let failure = report.failed.first(where: { $0.source == path }) { return "failed: \(failure.reason)" }
            return "missing from the report"
        }
        #expect(outcome("good.jpg") == "committed")
        #expect(outcome("truncated.jpg").hasPrefix("failed: damaged JPEG"))
        #expect(outcome("corrupt.jpg").hasPrefix("failed: damaged JPEG"))
        #expect(outcome("empty.jpg") == "skipped: not a photo or video: the file is empty")
        #expect(outcome("notes.jpg").hasPrefix("skipped: not a photo or video"))
        #expect(outcome("missing.jpg") == "failed: no such file")
        #expect(outcome("dangling.jpg") == "failed: no such file")
        #expect(outcome("inbox") == "failed: is a directory")
        #expect(outcome("pipe.jpg") == "failed: not a regular file")
        let after = try await session.library.read { try $0.album(named: "Trip") }
        #expect(after.itemCount == before.itemCount + 1 && after.placeholderCount == 0)
        #expect(try session.library.violations() == [])
    }

    @Test("an unreadable file fails its load", .enabled(if: getuid() != 0, "root reads every file"))
    func unreadable() async throws {
        let path = try write("locked.jpg", try Data(contentsOf: ExamplePhotos.folder.appending(path: "01-harbour.jpg")))
        #expect(chmod(path, 0) == 0)
        let report = try await LoadRunner(session: session).load([path], at: .into("Trip"))
        #expect(report.failed.first?.reason == "permission denied")
    }

    @Test("folders expand in name order, hidden files left out, subfolders only with recursive")
    func expansion() throws {
        for name in ["b.jpg", "a.jpg", ".hidden.jpg"] { _ = try write(name, Data([1])) }
        try FileManager.default.createDirectory(atPath: (inbox as NSString).appendingPathComponent("sub"), withIntermediateDirectories: true)
        _ = try write("sub/c.jpg", Data([1]))
        let flat = ImportSources.expand([inbox, inbox + "/nope.jpg"], recursive: false)
        #expect(flat.files.map { ($0 as NSString).lastPathComponent } == ["a.jpg", "b.jpg"])
        #expect(flat.skipped.map(\.reason) == [ImportSources.folderNotEntered])
        #expect(flat.failed.map(\.reason) == ["no such file or directory"])
        let deep = ImportSources.expand([inbox], recursive: true)
        #expect(deep.files.map { ($0 as NSString).lastPathComponent } == ["a.jpg", "b.jpg", "c.jpg"])
    }
}

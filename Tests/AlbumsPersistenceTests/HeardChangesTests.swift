import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

/// An open change stream follows its listener's rights as they change:
/// every way a right ends stops or narrows it before the next change, and
/// a right given widens it.
@Suite("Change streams follow rights")
struct HeardChangesTests: Sendable {
    let fixture: LibraryFixture
    let wedding: AlbumID, secret: AlbumID
    /// Session tokens by person: gran views Wedding; ana is an admin who also views Wedding; lee has no role.
    let sessions: [String: String]

    init() throws {
        fixture = try LibraryFixture()
        var ids: [AlbumID] = []
        var tokens: [String: String] = [:]
        try fixture.library.write { writer in
            ids = [try writer.createAlbum(named: "Wedding").id, try writer.createAlbum(named: "Secret").id]
            let hash = try PasswordHash(password: "correct horse", cost: 4)
            for (name, isAdmin) in [("gran", false), ("ana", true), ("lee", false)] {
                let person = try writer.addPerson(named: name, password: hash, isAdmin: isAdmin)
                if name != "lee" { try writer.setRole(.viewer, of: person.id, on: .album(ids[0])) }
                tokens[name] = try writer.openSession(for: person).token
            }
        }
        (wedding, secret) = (ids[0], ids[1])
        sessions = tokens
    }

    func rename(_ album: AlbumID, to name: String) async throws {
        try await fixture.library.write { try $0.renameAlbum(album, to: name) }
    }

    /// What a change says, in short: the albums it names, or "rights"; nil: the stream ended.
    static func summary(_ change: CommittedChange?) -> String? {
        guard let change else { return nil }
        let names = change.changeSets.map(\.albumName)
        return names.isEmpty ? (change.changedRights ? "rights" : "nothing") : names.joined(separator: ",")
    }

    /// Gran's stream hears a change, then `ending` happens, then a change
    /// she could see before: she does not hear it, and the stream ends.
    func expectEnds(by ending: @escaping @Sendable (LibraryWriter) throws -> Void) async throws {
        var heard = try await fixture.library.changes(heardBy: .personSession(token: sessions["gran"]!)).makeAsyncIterator()
        try await rename(wedding, to: "Before")
        #expect(Self.summary(await heard.next()) == "Before")
        try await fixture.library.write(ending)
        try await rename(wedding, to: "After")
        #expect(Self.summary(await heard.next()) == nil)
    }

    @Test("a change of someone else's rights is not heard, nor counted: a person's changes are numbered 1, 2, 3 by what they heard", .timeLimit(.minutes(10)))
    func othersRightsAreNotHeard() async throws {
        var gran = try await fixture.library.changes(heardBy: .personSession(token: sessions["gran"]!)).makeAsyncIterator()
        var ana = try await fixture.library.changes(heardBy: .personSession(token: sessions["ana"]!)).makeAsyncIterator()
        var heard: [(String?, Int64)] = []
        func hear() async {
            let change = await gran.next()
            heard.append((Self.summary(change), change?.sequence ?? 0))
        }
        try await rename(wedding, to: "First")
        await hear()
        // Between gran's changes: lee is given Secret, and Secret changes twice.
        try await fixture.library.write { writer in try writer.setRole(.viewer, of: try writer.person(named: "lee").id, on: .album(secret)) }
        try await rename(secret, to: "Hidden")
        try await rename(secret, to: "Hidden again")
        try await rename(wedding, to: "Second")
        await hear()
        // Then her own rights change: she is given Secret too.
        try await fixture.library.write { writer in try writer.setRole(.viewer, of: try writer.person(named: "gran").id, on: .album(secret)) }
        await hear()
        #expect(heard.map(\.0) == ["First", "Second", "rights"], "lee's new role and Secret's changes are not hers: \(heard)")
        #expect(heard.map(\.1) == [1, 2, 3], "numbered by what she heard, not by the library's transactions")
        // An admin manages everyone's rights, and hears every change of them, whole.
        var admin: [String?] = []
        for _ in 0..<6 { admin.append(Self.summary(await ana.next())) }
        #expect(admin == ["First", "rights", "Hidden", "Hidden again", "Second", "rights"])
    }

    @Test("signing out ends the stream before the next change", .timeLimit(.minutes(10)))
    func signingOut() async throws {
        let token = sessions["gran"]!
        try await expectEnds { try $0.closeSession(token: token) }
    }

    @Test("being disabled ends the stream", .timeLimit(.minutes(10)))
    func disabled() async throws {
        try await expectEnds { try $0.setDisabled("gran", true) }
    }

    @Test("being removed ends the stream", .timeLimit(.minutes(10)))
    func removed() async throws {
        try await expectEnds { try $0.removePerson(named: "gran") }
    }

    @Test("a new password ends the stream", .timeLimit(.minutes(10)))
    func newPassword() async throws {
        try await expectEnds { try $0.setPassword(of: "gran", to: try PasswordHash(password: "battery staple", cost: 4)) }
    }

    @Test("a session that expired ends the stream at the next change", .timeLimit(.minutes(10)))
    func expired() async throws {
        let token = try await fixture.library.write { writer in
            try writer.openSession(for: try writer.person(named: "gran"), now: Date().addingTimeInterval(-PersonSession.lifetime - 1)).token
        }
        var heard = try await fixture.library.changes(heardBy: .personSession(token: token)).makeAsyncIterator()
        try await rename(wedding, to: "After")
        #expect(Self.summary(await heard.next()) == nil)
    }

    @Test("losing admin narrows the stream to the person's roles at once", .timeLimit(.minutes(10)))
    func losingAdmin() async throws {
        var heard = try await fixture.library.changes(heardBy: .personSession(token: sessions["ana"]!)).makeAsyncIterator()
        try await rename(secret, to: "Seen")
        #expect(Self.summary(await heard.next()) == "Seen")
        try await fixture.library.write { _ = try $0.setAdmin("ana", false) }
        #expect(Self.summary(await heard.next()) == "rights")
        try await rename(secret, to: "Unseen")
        try await rename(wedding, to: "Shared")
        #expect(Self.summary(await heard.next()) == "Shared")
    }

    @Test("a role given widens the stream; a role taken narrows it", .timeLimit(.minutes(10)))
    func rolesGivenAndTaken() async throws {
        let lee = try await fixture.library.read { try $0.person(named: "lee") }
        let (wedding, secret) = (wedding, secret)
        try await fixture.library.write { try $0.setRole(.viewer, of: lee.id, on: .album(wedding)) }
        var heard = try await fixture.library.changes(heardBy: .personSession(token: sessions["lee"]!)).makeAsyncIterator()
        try await rename(secret, to: "Unseen")
        try await rename(wedding, to: "W1")
        #expect(Self.summary(await heard.next()) == "W1")
        try await fixture.library.write { try $0.setRole(.viewer, of: lee.id, on: .album(secret)) }
        #expect(Self.summary(await heard.next()) == "rights")
        try await rename(secret, to: "Given")
        #expect(Self.summary(await heard.next()) == "Given")
        try await fixture.library.write { try $0.setRole(nil, of: lee.id, on: .album(secret)) }
        #expect(Self.summary(await heard.next()) == "rights")
        try await rename(secret, to: "Taken")
        try await rename(wedding, to: "W2")
        #expect(Self.summary(await heard.next()) == "W2")
    }

    @Test("a stream opened with the server's token ends when the library gains people", .timeLimit(.minutes(10)))
    func tokenStreamEndsWithPeople() async throws {
        let empty = try LibraryFixture()
        let album = try await empty.library.write { try $0.createAlbum(named: "Wedding").id }
        var heard = try await empty.library.changes(heardBy: .serverToken).makeAsyncIterator()
        try await empty.library.write { try $0.renameAlbum(album, to: "Before") }
        #expect(Self.summary(await heard.next()) == "Before")
        try await empty.library.write { _ = try $0.addPerson(named: "ana", password: try PasswordHash(password: "correct horse", cost: 4)) }
        try await empty.library.write { try $0.renameAlbum(album, to: "After") }
        #expect(Self.summary(await heard.next()) == nil)
    }

    @Test("photos imported into no album are heard by those who see every photo, and by no one else", .timeLimit(.minutes(10)))
    func photosAdded() async throws {
        let everyone = try await fixture.library.changes(heardBy: .personSession(token: sessions["ana"]!))
        var gran = try await fixture.library.changes(heardBy: .personSession(token: sessions["gran"]!)).makeAsyncIterator()
        try await fixture.library.write { writer in
            _ = try writer.addPhoto(PhotoContent(
                sha256: Data(repeating: 7, count: 32), byteCount: 3, mediaType: "image/jpeg", pixelWidth: 3, pixelHeight: 2,
                originalName: "loose.jpg", sourcePath: "/nowhere/loose.jpg"))
        }
        // The same bytes again add nothing: nothing to hear.
        try await fixture.library.write { writer in
            _ = try writer.addPhoto(PhotoContent(
                sha256: Data(repeating: 7, count: 32), byteCount: 3, mediaType: "image/jpeg", pixelWidth: 3, pixelHeight: 2,
                originalName: "loose.jpg", sourcePath: "/nowhere/loose.jpg"))
        }
        try await rename(wedding, to: "After")
        let heard = await first(2, of: everyone)
        #expect(heard.map(\.addedPhotos) == [true, false])
        #expect(heard.map { $0.changeSets.count } == [0, 1])
        // Gran sees only Wedding: a photo in no album is not hers to hear of.
        let next = await gran.next()
        #expect(Self.summary(next) == "After")
        #expect(next?.addedPhotos == false)
    }

    @Test("the holder hears everything, rights changes included", .timeLimit(.minutes(10)))
    func holderHearsAll() async throws {
        let stream = try await fixture.library.changes(heardBy: .holder)
        try await rename(secret, to: "One")
        let token = sessions["gran"]!
        try await fixture.library.write { try $0.closeSession(token: token) }
        try await rename(wedding, to: "Two")
        #expect(await first(3, of: stream).map { Self.summary($0) } == ["One", "rights", "Two"])
    }
}

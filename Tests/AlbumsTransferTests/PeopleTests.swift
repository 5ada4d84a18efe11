import AlbumsImporting
@testable import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Synchronization
import Testing

@testable import AlbumsTransfer

/// People and their roles, held where operations are planned: whatever
/// asks (a session, a batch, an undo), a person sees and changes only what
/// their roles give them.
@Suite("People and roles")
struct PeopleTests {
    /// The lowest bcrypt cost: these tests hash many passwords.
    static func hash(_ password: String = "correct horse") throws -> PasswordHash {
        try PasswordHash(password: password, cost: 4)
    }

    /// Wedding (photos 1–3) and Secret (photo 4) at the top level; Family/Trip
    /// (photo 5) in a folder. ana is an admin, gran views Wedding, sam
    /// edits the Family folder, and lee has nothing.
    struct Household {
        let fixture: LibraryFixture
        let photos: [PhotoID]
        var library: Library { fixture.library }

        init() throws {
            fixture = try LibraryFixture()
            var photos: [PhotoID] = []
            try fixture.library.write { writer in
                photos = try writer.addTestPhotos(count: 5)
                let wedding = try writer.createAlbum(named: "Wedding")
                let secret = try writer.createAlbum(named: "Secret")
                let family = try writer.createFolder(named: "Family", placement: .into(nil))
                let trip = try writer.createAlbum(named: "Trip", placement: .into(.id(family.id)))
                try writer.insertPhotos(Array(photos[0..<3]), into: wedding.id)
                try writer.insertPhotos([photos[3]], into: secret.id)
                try writer.insertPhotos([photos[4]], into: trip.id)
                try writer.addPerson(named: "ana", password: try PeopleTests.hash(), isAdmin: true)
                let gran = try writer.addPerson(named: "gran", password: try PeopleTests.hash())
                let sam = try writer.addPerson(named: "sam", password: try PeopleTests.hash())
                try writer.addPerson(named: "lee", password: try PeopleTests.hash())
                try writer.setRole(.viewer, of: gran.id, on: .album(wedding.id))
                try writer.setRole(.editor, of: sam.id, on: .folder(family.id))
            }
            self.photos = photos
        }

        func session(_ name: String) throws -> TransferSession {
            let person = try library.read { try $0.person(named: name) }
            return TransferSession(library: library, acting: .person(person))
        }

        func albumNames(as name: String) throws -> [String] {
            try session(name).read { try $0.tree().map(\.node.name) }
        }
    }

    @Test("a session acting for a person hears the changes to what they see, numbered by their own count, until they are disabled")
    func changeStreamNarrowed() async throws {
        let household = try Household()
        let gran = try household.session("gran")
        let stream = try await gran.changes(pollingInterval: 0.05)
        let holder = TransferSession(library: household.library)
        try await holder.perform(.remove([.position(0, in: "Secret")]))
        let moved = try await holder.perform(.move([.position(0, in: "Wedding")], to: .at(2, in: "Wedding"))).changes
        let heard = await first(1, of: stream)
        #expect(heard.first?.operations == [moved] && heard.first?.sequence == 1, "Secret's change is not hers: \(heard)")
        // A change is judged as it is read: once gran is disabled, her stream ends.
        try await household.library.write { writer in _ = try writer.setDisabled("gran", true) }
        try await holder.perform(.move([.position(0, in: "Wedding")], to: .at(2, in: "Wedding")))
        #expect(await first(1, of: stream).isEmpty)
    }

    @Test("a person sees only what is shared with them; what sits in a folder they cannot see stands at their top level")
    func visibility() throws {
        let house = try Household()
        #expect(try house.albumNames(as: "ana") == ["Wedding", "Secret", "Family", "Trip"])
        #expect(try house.albumNames(as: "gran") == ["Wedding"])
        #expect(try house.albumNames(as: "sam") == ["Family", "Trip"])
        #expect(try house.albumNames(as: "lee") == [])
        let gran = try house.session("gran")
        #expect(throws: LibraryError.albumNotFound(.named("Secret"))) { try gran.read { try $0.album(named: "Secret") } }
        #expect(try gran.read { try $0.canSee(house.photos[0]) })
        #expect(try !gran.read { try $0.canSee(house.photos[3]) })
        // A folder shared inside one that is not: at the person's top level.
        try house.library.write { writer in
            let inner = try writer.createFolder(named: "2026", placement: .into(.path("Family")))
            try writer.createAlbum(named: "Lisbon", placement: .into(.id(inner.id)))
            try writer.setRole(.viewer, of: try writer.person(named: "lee").id, on: .folder(inner.id))
        }
        let lee = try house.session("lee")
        let tree = try lee.read { try $0.tree() }
        #expect(tree.map(\.node.name) == ["2026", "Lisbon"])
        #expect(tree.map(\.depth) == [0, 1])
        #expect(tree[0].node.parentID == nil)
    }

    @Test("a viewer's move is forbidden with the reason, the same from a proposal, a perform and a batch")
    func viewerCannotChange() throws {
        let house = try Household()
        let gran = try house.session("gran")
        let entries = try house.library.read { try $0.history(limit: 50).count }
        let move = TransferOperation.move([.position(0, in: "Wedding")], to: .at(2, in: "Wedding"))
        let reason = LibraryError.forbidden(reason: "you can view 'Wedding' but not change it")
        #expect(try gran.propose(move).verdict == .forbidden(reason))
        #expect(throws: reason) { try gran.perform(move) }
        #expect(throws: BatchRefusal(index: 0, operation: .items(move), reason: reason)) { try gran.perform(batch: [.items(move)]) }
        #expect(throws: reason) { try gran.perform(LibraryOperation.album(.rename("Wedding", to: "W"))) }
        // Nothing was written, and an album they cannot see is not found rather than forbidden.
        #expect(try house.library.read { try $0.history(limit: 50).count } == entries)
        #expect(throws: LibraryError.albumNotFound(.named("Secret"))) { try gran.perform(LibraryOperation.album(.rename("Secret", to: "S"))) }
        let peek = TransferOperation.copy([.photo(house.photos[3], in: nil)], to: .into("Wedding"))
        #expect(try gran.propose(peek).verdict == .forbidden(.itemNotFound(.photo(house.photos[3], in: nil))))
    }

    @Test("an editor of a folder arranges what it holds, and copies only from what they can see")
    func folderEditor() throws {
        let house = try Household()
        let sam = try house.session("sam")
        try sam.perform(LibraryOperation.album(.create(name: "Beach", placement: .into(.path("Family")))))
        try sam.perform(.copy([.position(0, in: "Trip")], to: .into("Beach")))
        #expect(throws: LibraryError.albumNotFound(.named("Wedding"))) { try sam.perform(.copy([.position(0, in: "Wedding")], to: .into("Beach"))) }
        // Deleting takes the owner; moving to the top level takes an admin.
        #expect(throws: LibraryError.forbidden(reason: "you can change 'Trip' but not delete, move or share it: that takes its owner")) {
            try sam.perform(LibraryOperation.album(.delete("Trip", force: false)))
        }
        #expect(throws: LibraryError.forbidden(reason: "only an admin arranges the library's top level")) {
            try sam.perform(LibraryOperation.album(.move("Trip", to: .into(nil))))
        }
        // What a person creates is theirs: they may delete it. The top level is an admin's.
        try sam.perform(LibraryOperation.album(.create(name: "Sam's", placement: .into(.path("Family")))))
        try sam.perform(LibraryOperation.album(.delete("Sam's", force: false)))
        #expect(throws: LibraryError.forbidden(reason: "only an admin arranges the library's top level")) {
            try sam.perform(LibraryOperation.album(.create(name: "Top", placement: .into(nil))))
        }
    }

    @Test("the history says who made each change; a person's undo is their own")
    func historyNamesAndUndo() throws {
        let house = try Household()
        let sam = try house.session("sam")
        try sam.perform(.move([.position(0, in: "Trip")], to: .into("Trip")))  // a no-op: nothing recorded
        try sam.perform(LibraryOperation.album(.rename("Trip", to: "Trip 2026")))
        let entries = try house.library.read { try $0.history(limit: 1) }
        #expect(entries.first?.madeBy == .person("sam"))
        #expect(entries.first?.description == "rename album 'Trip' to 'Trip 2026'")
        // sam's rename is not gran's to undo.
        let gran = try house.session("gran")
        #expect(throws: LibraryError.nothingToUndo) { try gran.write { try $0.undo() } }
        #expect(try gran.read { try $0.nextUndo() } == nil)
        // The holder made the first changes; sam sees only those of what he can see.
        #expect(try house.library.read { try $0.history(limit: 50).last?.madeBy } == .holder)
        #expect(try sam.read { try $0.history(limit: 50).map(\.description) }.allSatisfy { $0.contains("Trip") })
        try sam.write { try $0.undo() }
        #expect(try house.library.read { try $0.album(named: "Trip").name } == "Trip")
    }

    @Test("undoing a creation is a deletion: an editor of the folder does not undo an admin's new album, nor his own once it is not his")
    func undoingACreationIsADeletion() throws {
        let house = try Household()
        let ana = try house.session("ana")
        try ana.perform(LibraryOperation.album(.create(name: "Beach", placement: .into(.path("Family")))))
        let sam = try house.session("sam")
        // sam edits Family, so sees Beach, but ana's creation is hers to undo.
        #expect(try sam.read { try $0.nextUndo() } == nil)
        #expect(throws: LibraryError.nothingToUndo) { try sam.write { try $0.undo() } }
        #expect(try house.library.read { try $0.album(named: "Beach").name } == "Beach")
        // sam renames Beach, and then loses Family: his rename is still his, but not his to undo.
        try sam.perform(LibraryOperation.album(.rename("Beach", to: "Shore")))
        try house.library.write { try $0.setRole(nil, of: try $0.person(named: "sam").id, on: .folder(try $0.folder(.path("Family")).id)) }
        #expect(throws: LibraryError.forbidden(reason: "cannot undo your latest change: it changed albums or folders you may not change")) {
            try sam.write { try $0.undo() }
        }
        #expect(try house.library.read { try $0.album(named: "Shore").name } == "Shore")
        try house.library.write { try $0.setRole(.editor, of: try $0.person(named: "sam").id, on: .folder(try $0.folder(.path("Family")).id)) }
        try sam.write { try $0.undo() }
        #expect(try house.library.read { try $0.album(named: "Beach").name } == "Beach")
        // What sam creates is his: he may undo it, and redo it.
        try sam.perform(LibraryOperation.album(.create(name: "Sam's", placement: .into(.path("Family")))))
        try sam.write { try $0.undo() }
        try sam.write { try $0.redo() }
        #expect(try house.library.read { try $0.album(named: "Sam's").parentID } != nil)
    }

    @Test("each person undoes their own latest change and redoes what they undid; someone else's later change to the same items refuses it, saying so")
    func undoIsEachPersons() throws {
        let house = try Household()
        try house.library.write { writer in
            try writer.insertPhotos(Array(house.photos[0..<3]), into: try writer.album(named: "Trip").id)
        }
        let (sam, ana, holder) = (try house.session("sam"), try house.session("ana"), TransferSession(library: house.library))
        func trip() throws -> [PhotoID?] { try house.library.read { try $0.items(in: try $0.album(named: "Trip").id).map(\.photoID) } }
        let (p4, p0, p1, p2) = (house.photos[4], house.photos[0], house.photos[1], house.photos[2])
        #expect(try trip() == [p4, p0, p1, p2])
        try sam.perform(.move([.position(0, in: "Trip")], to: .at(3, in: "Trip")))  // sam: p4 to the end
        try ana.perform(.move([.position(0, in: "Trip")], to: .at(3, in: "Trip")))  // ana: p0 to the end
        #expect(try trip() == [p1, p2, p4, p0])
        #expect(try sam.read { try $0.nextUndo()?.madeBy } == .person("sam"))

        // sam's undo takes back his move, not ana's later one; his redo puts it back.
        try sam.write { try $0.undo() }
        #expect(try trip() == [p4, p1, p2, p0])
        try sam.write { try $0.redo() }
        #expect(try trip() == [p1, p2, p4, p0])

        // ana moves the photo sam moved: his undo would undo hers too, so it is refused, with the reason, writing nothing.
        try ana.perform(.move([.position(2, in: "Trip")], to: .at(0, in: "Trip")))
        #expect(try trip() == [p4, p1, p2, p0])
        #expect {
            try sam.write { try $0.undo() }
        } throws: { error in
            guard case LibraryError.cannotUndo(_, _, let reason) = error else { return false }
            return reason == "a change made since by someone else touched the same items, albums or folders"
        }
        #expect(try trip() == [p4, p1, p2, p0])
        // Once ana has undone hers, sam's goes through; ana's redo would now undo his, and is refused.
        try ana.write { try $0.undo() }
        try sam.write { try $0.undo() }
        #expect(try trip() == [p4, p1, p2, p0])
        #expect(throws: (any Error).self) { try ana.write { try $0.redo() } }
        #expect(try trip() == [p4, p1, p2, p0])

        // A new change clears only its maker's redo: ana's change leaves sam's, sam's clears it.
        try ana.perform(LibraryOperation.album(.rename("Secret", to: "Secret 2")))
        #expect(try sam.read { try $0.nextRedo() } != nil)
        try sam.perform(.move([.position(1, in: "Trip")], to: .at(0, in: "Trip")))
        #expect(try sam.read { try $0.nextRedo() } == nil)
        #expect(throws: LibraryError.nothingToRedo) { try sam.write { try $0.redo() } }

        // The holder's undo is the library's latest change, whoever made it.
        try holder.write { try $0.undo() }
        #expect(try trip() == [p4, p1, p2, p0])
        try holder.write { try $0.undo() }
        #expect(try house.library.read { try $0.album(named: "Secret").name } == "Secret")
        #expect(try house.library.violations() == [])
    }

    @Test("a person's undo puts their photo back where it was, even where someone else's photo has taken its very place since")
    func undoPastATakenPlace() throws {
        let house = try Household()
        try house.library.write { writer in
            try writer.insertPhotos(Array(house.photos[0..<3]), into: try writer.album(named: "Trip").id)
        }
        let (sam, ana) = (try house.session("sam"), try house.session("ana"))
        func trip() throws -> [PhotoID?] { try house.library.read { try $0.items(in: try $0.album(named: "Trip").id).map(\.photoID) } }
        let (p4, p0, p1, p2) = (house.photos[4], house.photos[0], house.photos[1], house.photos[2])
        try sam.perform(.move([.position(0, in: "Trip")], to: .at(2, in: "Trip")))
        #expect(try trip() == [p0, p1, p4, p2])
        // ana's photo to the front takes the order key sam's photo left.
        try ana.perform(.move([.position(3, in: "Trip")], to: .at(0, in: "Trip")))
        #expect(try trip() == [p2, p0, p1, p4])
        try sam.write { try $0.undo() }
        #expect(try trip() == [p4, p2, p0, p1])
        try sam.write { try $0.redo() }
        #expect(try trip() == [p2, p0, p1, p4])
        #expect(try house.library.violations() == [])
    }

    @Test("undoing a move is a move: nobody moves an album into or out of a folder they cannot see by undoing and redoing")
    func undoingAMoveIsAMove() throws {
        let house = try Household()
        // Vault is hidden from sam; he edits the album Diary inside it by a role of its own.
        try house.library.write { writer in
            let vault = try writer.createFolder(named: "Vault", placement: .into(nil))
            let diary = try writer.createAlbum(named: "Diary", placement: .into(.id(vault.id)))
            try writer.setRole(.editor, of: try writer.person(named: "sam").id, on: .album(diary.id))
        }
        let ana = try house.session("ana")
        try ana.perform(LibraryOperation.album(.move("Diary", to: .into(.path("Family")))))
        let sam = try house.session("sam")
        // ana's move is hers: sam's undo does not take it back.
        #expect(throws: LibraryError.nothingToUndo) { try sam.write { try $0.undo() } }
        #expect(try house.library.read { try $0.folder(try $0.album(named: "Diary").parentID!).name } == "Family")
        // Undone by ana, it is hers to redo, never sam's (the redo would take Diary out of Vault again).
        try ana.write { try $0.undo() }
        #expect(throws: LibraryError.nothingToRedo) { try sam.write { try $0.redo() } }
        #expect(try house.library.read { try $0.folder(try $0.album(named: "Diary").parentID!).name } == "Vault")
    }

    @Test("sessions: a token signs in until it expires, is signed out, or its person is disabled")
    func sessions() throws {
        let house = try Household()
        let gran = try house.library.read { try $0.person(named: "gran") }
        let session = try house.library.write { try $0.openSession(for: gran) }
        #expect(try house.library.read { try $0.person(signedInWith: session.token) }?.name == "gran")
        #expect(try house.library.read { try $0.person(signedInWith: session.token, now: session.expiresAt.addingTimeInterval(1)) } == nil)
        // The file keeps only the token's digest.
        let stored = try house.library.read { reader in try reader.people().count }
        #expect(stored == 4)
        try house.library.write { _ = try $0.setDisabled("gran", true) }
        #expect(try house.library.read { try $0.person(signedInWith: session.token) } == nil)
        try house.library.write { _ = try $0.setDisabled("gran", false) }
        let again = try house.library.write { try $0.openSession(for: gran) }
        try house.library.write { try $0.closeSession(token: again.token) }
        #expect(try house.library.read { try $0.person(signedInWith: again.token) } == nil)
        // Passwords: the right one, not a wrong one, not for an unknown name.
        #expect(try house.library.read { try $0.person(named: "GRAN", password: "correct horse") }?.name == "gran")
        #expect(try house.library.read { try $0.person(named: "gran", password: "correct horses") } == nil)
        #expect(try house.library.read { try $0.person(named: "nobody", password: "correct horse") } == nil)
        #expect(throws: LibraryError.invalidPassword(reason: "it needs at least 8 characters")) { try PasswordHash(password: "short", cost: 4) }
        #expect(throws: LibraryError.personNameTaken("ANA")) { try house.library.write { try $0.addPerson(named: "ANA", password: try PeopleTests.hash()) } }
    }

    /// Loads a photo of fixed bytes, whatever the source says.
    struct MadeUpLoader: PhotoLoader {
        func load(_ source: String) async throws -> PhotoContent {
            PhotoContent(
                sha256: Data(repeating: 0xAB, count: 32), byteCount: 4, mediaType: "image/jpeg", pixelWidth: 4, pixelHeight: 3,
                orientation: .up, originalName: "made-up.jpg", sourcePath: source)
        }
    }

    @Test("a load acts for whoever began it until it commits: a role taken meanwhile stops it, and its placeholder goes")
    func loadsActForTheirPerson() async throws {
        let house = try Household()
        let runner = LoadRunner(session: try house.session("sam"), loader: MadeUpLoader(), jobs: 1)
        let begun = try await runner.begin(["/inbox/a.jpg"], at: .into(.named("Trip")))
        try await house.library.write { writer in
            try writer.setRole(nil, of: try writer.person(named: "sam").id, on: .folder(try writer.folder(.path("Family")).id))
        }
        let report = await runner.run(begun)
        #expect(report.committed.isEmpty)
        #expect(report.failed.count == 1)
        let trip = try await house.library.read { try $0.album(named: "Trip") }
        #expect(trip.itemCount == 1 && trip.placeholderCount == 0, "only the photo it had")
        // With the role kept, the same load commits.
        let again = try Household()
        let kept = LoadRunner(session: try again.session("sam"), loader: MadeUpLoader(), jobs: 1)
        let done = await kept.run(try await kept.begin(["/inbox/a.jpg"], at: .into(.named("Trip"))))
        #expect(done.committed.count == 1)
    }

    @Test("an album's roles name the folders above it that the asker sees, and no others")
    func rolesNameOnlySeenFolders() throws {
        let house = try Household()
        // lee owns Trip, inside Family, which he cannot see; sam edits Family.
        try house.library.write { writer in
            try writer.setRole(.owner, of: try writer.person(named: "lee").id, on: .album(try writer.album(named: "Trip").id))
        }
        let lee = try house.session("lee")
        let shown = try lee.read { try $0.rolesShown(on: try $0.album(named: "Trip")) }
        #expect(shown.map(\.person) == ["lee"])
        #expect(shown.allSatisfy { $0.givenOn == nil })
        let ana = try house.session("ana")
        let all = try ana.read { try $0.rolesShown(on: try $0.album(named: "Trip")) }
        #expect(all.contains { $0.person == "sam" && $0.givenOn == "Family" })
    }

    @Test("an unknown name is checked against a decoy of the cost the people's hashes have, so timing tells no names apart")
    func decoyCostsWhatRealHashesCost() async throws {
        let house = try Household()
        // The household's hashes cost 4; a name nobody has (or may have) is checked at 4 too, not at the default 12.
        for name in ["nobody", String(repeating: "x", count: 2 << 20)] {
            let candidate = try await house.library.read { try $0.signInCandidate(named: name) }
            #expect(candidate.person == nil)
            #expect(candidate.hash.cost == 4)
        }
        #expect(try await house.library.read { try $0.signInCandidate(named: "gran") }.hash.cost == 4)
        // The check itself runs after the read: the same answers as the reader's.
        #expect(try await house.library.person(named: "gran", password: "correct horse")?.name == "gran")
        #expect(try await house.library.person(named: "gran", password: "wrong horse") == nil)
        #expect(try await house.library.person(named: "nobody", password: "correct horse") == nil)
        #expect(PasswordHash.decoy(costing: nil).cost == PasswordHash.defaultCost)
    }

    @Test("a hash cheaper than the others': its failures are checked against the usual cost too, and signing in makes it again at that cost")
    func cheapHashIsMadeAgain() async throws {
        let house = try Household()
        // The household's hashes cost 4; one of 5 is the usual once three people have it.
        try await house.library.write { writer in
            for name in ["ana", "gran", "sam"] { try writer.setPassword(of: name, to: try PasswordHash(password: "correct horse", cost: 5)) }
        }
        let before = try await house.library.read { try $0.signInCandidate(named: "lee") }
        #expect(before.hash.cost == 4 && before.decoy.cost == 5 && before.needsRehash)
        #expect(try await house.library.person(named: "lee", password: "wrong horse") == nil)
        #expect(try await house.library.read { try $0.signInCandidate(named: "lee") }.hash == before.hash, "a failure changes nothing")
        #expect(try await house.library.person(named: "lee", password: "correct horse")?.name == "lee")
        let after = try await house.library.read { try $0.signInCandidate(named: "lee") }
        #expect(after.hash.cost == 5 && !after.needsRehash)
        #expect(after.hash.matches("correct horse"))
        #expect(try await house.library.person(named: "lee", password: "correct horse")?.name == "lee")
    }

    @Test("password checks run on a pool of their own, at most its width at once")
    func passwordChecksAreBounded() async throws {
        let pool = PasswordChecks(width: 2)
        let hash = try PasswordHash(password: "correct horse", cost: 6)
        let running = RunningCount()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    await pool.run {
                        running.counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        _ = hash.matches("guess guess")
                        running.counts.withLock { $0.now -= 1 }
                    }
                }
            }
        }
        #expect(running.counts.withLock { $0.most } <= 2)
    }

    #if os(Linux)
        @Test("a password is checked at the lowest scheduling class, held on one core (a wandering one costs requests their hand-offs)")
        func passwordChecksKeepOutOfTheWay() async throws {
            let pool = PasswordChecks(width: 1)
            let (status, sched) = await pool.run {
                ((try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? "",
                 (try? String(contentsOfFile: "/proc/thread-self/sched", encoding: .utf8)) ?? "")
            }
            let policy = sched.split(separator: "\n").first { $0.hasPrefix("policy") }.map { $0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) }
            #expect(policy == "5", "SCHED_IDLE: \(sched.prefix(400))")
            let allowed = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
            let processAllows = try String(contentsOfFile: "/proc/self/status", encoding: .utf8).split(separator: "\n")
                .first { $0.hasPrefix("Cpus_allowed_list:") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
            if processAllows?.contains(where: { $0 == "," || $0 == "-" }) == true {
                #expect(allowed.map { !$0.contains(",") && !$0.contains("-") } == true, "one core: \(allowed ?? "?") of \(processAllows ?? "?")")
            }
        }
    #endif

    @Test("at the top level a person's positions count what they see: every answer is the same whatever else stands there")
    func topLevelPositionsCountWhatIsSeen() throws {
        /// Everything pat is told while moving the album pat owns to each place, and past the last.
        func answers(hiding: Bool) throws -> [String] {
            let fixture = try LibraryFixture()
            // What pat cannot see, each its own change, as people make them: the history's entries are then the same but for those.
            func hidden(_ name: String, in folder: String? = nil) throws {
                if hiding { try fixture.library.write { try $0.createAlbum(named: name, placement: .into(folder.map { .path($0) })) } }
            }
            try hidden("Hidden first")
            try fixture.library.write { writer in
                try writer.createAlbum(named: "A")
            }
            try hidden("Hidden between")
            try fixture.library.write { writer in
                let folder = try writer.createFolder(named: "Hidden folder", placement: .into(nil))
                try writer.createAlbum(named: "B", placement: .into(.id(folder.id)))
            }
            try hidden("Hidden beside B", in: "Hidden folder")
            try fixture.library.write { writer in
                try writer.createAlbum(named: "Mine")
            }
            try hidden("Hidden last")
            let pat = try fixture.library.write { writer -> Person in
                let (a, b, mine) = (try writer.album(named: "A"), try writer.album(named: "Hidden folder/B"), try writer.album(named: "Mine"))
                let pat = try writer.addPerson(named: "pat", password: try PeopleTests.hash())
                try writer.setRole(.viewer, of: pat.id, on: .album(a.id))
                try writer.setRole(.viewer, of: pat.id, on: .album(b.id))
                try writer.setRole(.owner, of: pat.id, on: .album(mine.id))
                return pat
            }
            let session = TransferSession(library: fixture.library, acting: .person(pat))
            var told: [String] = []
            for index in [0, 1, 2, 3, 2, 0] {
                do {
                    try session.perform(.album(.move(.named("Mine"), to: .position(index))))
                    told.append("moved to \(index): " + (try session.read { try $0.tree().map { "\($0.node.name)@\($0.node.index)" } }).joined(separator: " "))
                } catch {
                    told.append("\(error)")
                }
            }
            for placement: TreePlacement in [.into(nil), .before(.named("A")), .after(.named("A")), .at(1, in: nil)] {
                try session.perform(.album(.move(.named("Mine"), to: placement)))
                told.append(try session.read { try $0.tree().map(\.node.name) }.joined(separator: " "))
            }
            told += try session.read { try $0.history(limit: 20).map(\.description) }
            return told
        }
        let seen = try answers(hiding: false)
        let hidden = try answers(hiding: true)
        for (a, b) in zip(seen, hidden) { #expect(a == b) }
        #expect(hidden.count == seen.count, "\(seen)\n\(hidden)")
        #expect(seen.contains { $0.contains("out of range") }, "position 3 is past the end of what pat sees: \(seen)")
    }

    @Test("the history names a folder its reader cannot see in words that name nothing, by the name it had then too")
    func historyWordsHideFoldersByID() throws {
        let fixture = try LibraryFixture()
        let pat = try fixture.library.write { writer -> Person in
            let trip = try writer.createAlbum(named: "Trip")
            let pat = try writer.addPerson(named: "pat", password: try PeopleTests.hash())
            try writer.setRole(.viewer, of: pat.id, on: .album(trip.id))
            return pat
        }
        // The album filed in a folder pat does not see and taken out again; then the folder renamed, and another named as it was.
        try fixture.library.write { writer in
            let folder = try writer.createFolder(named: "Secret plans", placement: .into(nil))
            let trip = try writer.album(named: "Trip")
            try writer.moveAlbum(trip.id, to: .into(.id(folder.id)))
            try writer.moveAlbum(trip.id, to: .into(nil))
            try writer.renameFolder(folder.id, to: "Gift ideas")
        }
        let holderWords = try fixture.library.read { try $0.history(limit: 10).map(\.description) }
        #expect(holderWords.joined(separator: "\n").contains("move album 'Trip' into 'Secret plans' at position 1"), "the holder reads the words as written: \(holderWords)")
        let patWords = try TransferSession(library: fixture.library, acting: .person(pat)).read { try $0.history(limit: 10).map(\.description) }
        #expect(patWords.joined(separator: "\n").contains("move album 'Trip' into 'a folder not shared with you'"), "\(patWords)")
        #expect(!patWords.joined().contains("Secret") && !patWords.joined().contains("Gift"), "\(patWords)")

        // Once pat sees the folder, it is named as pat sees it now.
        try fixture.library.write { writer in
            try writer.setRole(.viewer, of: pat.id, on: .folder(try writer.folder(.path("Gift ideas")).id))
        }
        let nowSeen = try TransferSession(library: fixture.library, acting: .person(pat)).read { try $0.history(limit: 10).map(\.description) }
        #expect(nowSeen.joined(separator: "\n").contains("move album 'Trip' into 'Gift ideas'") && !nowSeen.joined().contains("Secret"), "\(nowSeen)")
    }

    @Test("an entry written before the history kept folders by id never names a hidden folder by the name it had then")
    func olderEntriesNameNoOldFolderName() throws {
        let fixture = try LibraryFixture()
        let (pat, trip, folder, seen) = try fixture.library.write { writer in
            let trip = try writer.createAlbum(named: "Trip")
            let pat = try writer.addPerson(named: "pat", password: try PeopleTests.hash())
            try writer.setRole(.viewer, of: pat.id, on: .album(trip.id))
            let seen = try writer.createFolder(named: "Shared", placement: .into(nil))
            try writer.setRole(.viewer, of: pat.id, on: .folder(seen.id))
            return (pat, trip.id, try writer.createFolder(named: "Secret plans", placement: .into(nil)).id, seen.id)
        }
        // Each change its own entry: Trip filed in a folder pat does not see and taken out, then in one pat sees; the first renamed.
        for placement: TreePlacement in [.into(.id(folder)), .into(nil), .into(.id(seen)), .into(nil)] {
            try fixture.library.write { try $0.moveAlbum(trip, to: placement) }
        }
        try fixture.library.write { try $0.renameFolder(folder, to: "Gift ideas") }
        // As an albums older than the folders' ids wrote them: words alone.
        try fixture.library.write { try $0.db.execute(sql: "UPDATE history_entry SET folders = NULL") }
        let patWords = try TransferSession(library: fixture.library, acting: .person(pat)).read { try $0.history(limit: 20).map(\.description) }
        #expect(!patWords.joined().contains("Secret") && !patWords.joined().contains("Gift"), "\(patWords)")
        #expect(patWords.filter { $0 == "a change to 'Trip'" }.count == 1, "the move into the folder renamed since, told by its album: \(patWords)")
        #expect(patWords.filter { $0 == "move album 'Trip' to the top level" }.count == 2, "no position that counts what pat cannot see: \(patWords)")
        #expect(patWords.contains { $0.hasPrefix("move album 'Trip' into 'Shared'") }, "a folder pat sees, named as before: \(patWords)")
        let holderWords = try fixture.library.read { try $0.history(limit: 20).map(\.description) }
        #expect(holderWords.contains { $0.contains("'Secret plans'") }, "the holder reads the words as written: \(holderWords)")
    }

    @Test("a share link shows its album, read-only, until it expires or is revoked; a password guards it")
    func shareLinks() throws {
        let house = try Household()
        let wedding = try house.library.read { try $0.album(named: "Wedding") }
        let (link, token) = try house.library.write {
            try $0.createShareLink(for: wedding.id, expiresAt: Date().addingTimeInterval(3600), password: try PeopleTests.hash("open sesame"))
        }
        #expect(token.count == 43)
        guard case .needsPassword = try house.library.read({ try $0.shareLink(token: token, password: nil) }) else {
            Issue.record("a link with a password showed its album without it")
            return
        }
        guard case .granted(let granted) = try house.library.read({ try $0.shareLink(token: token, password: "open sesame") }) else {
            Issue.record("the right password did not open the link")
            return
        }
        #expect(granted.album == wedding.id)
        let viewer = TransferSession(library: house.library, acting: .shareLink(link.id, album: wedding.id))
        #expect(try viewer.read { try $0.tree().map(\.node.name) } == ["Wedding"])
        #expect(try !viewer.read { try $0.canSee(house.photos[4]) })
        #expect(try viewer.propose(.remove([.position(0, in: "Wedding")])).verdict == .forbidden(.forbidden(reason: "a share link shows 'Wedding' read-only")))
        guard case .none = try house.library.read({ try $0.shareLink(token: token, password: "open sesame", now: Date().addingTimeInterval(7200)) }) else {
            Issue.record("an expired link still showed its album")
            return
        }
        try house.library.write { try $0.revokeShareLink(link.id) }
        guard case .none = try house.library.read({ try $0.shareLink(token: token, password: "open sesame") }) else {
            Issue.record("a revoked link still showed its album")
            return
        }
        // Only the album's owner (or an admin, or the holder) shares it.
        let gran = try house.session("gran")
        #expect(throws: LibraryError.forbidden(reason: "you can view 'Wedding' but not change it")) {
            try gran.write { try $0.createShareLink(for: wedding.id, expiresAt: nil, password: nil) }
        }
    }
}

/// How many closures run at once, and the most that ever did.
private final class RunningCount: Sendable {
    let counts = Mutex((now: 0, most: 0))
}

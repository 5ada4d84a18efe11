import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsTransfer

/// Two people arranging the same albums, each undoing and redoing their own
/// changes in whatever order, with the holder's undo and redo between:
/// whatever the interleaving, a replay goes through whole or is refused
/// writing nothing, an undo followed at once by its redo gives back the
/// order before it, and the file's invariants hold after every step.
@Suite("Each person's undo, interleaved")
struct PersonUndoPropertyTests {
    @Test("random moves, copies and removals by two people, and undos and redos by them and the holder in any order: each whole or refused writing nothing")
    func interleaved() throws {
        let (seed, steps) = randomTestSettings(defaultSteps: 400)
        var random = SplitMix64(seed: seed)
        let fixture = try LibraryFixture(options: Library.Options(allowsConcurrentReads: false))
        let library = fixture.library
        let albums = ["A", "B"]
        try library.write { writer in
            let photos = try writer.addTestPhotos(count: 30)
            for (offset, name) in albums.enumerated() {
                let album = try writer.createAlbum(named: name)
                try writer.insertPhotos(Array(photos[(offset * 15)..<(offset * 15 + 10)]), into: album.id)
            }
            let hash = try PasswordHash(password: "correct horse", cost: 4)
            for name in ["ana", "bo"] {
                let person = try writer.addPerson(named: name, password: hash)
                for album in albums { try writer.setRole(.editor, of: person.id, on: .album(try writer.album(named: album).id)) }
            }
        }
        let people = try ["ana", "bo"].map { name in
            TransferSession(library: library, acting: .person(try library.read { try $0.person(named: name) }))
        }
        let holder = TransferSession(library: library)
        // The holder's undo reaches the setup too: it stops short of it, so that the albums stay.
        let setup = try library.read { try $0.history(limit: 1).first?.id ?? 0 }
        func state() throws -> [[PhotoID?]] {
            try library.read { reader in try albums.map { try reader.items(in: try reader.album(named: $0).id).map(\.photoID) } }
        }
        var (done, refused, undone, redoneAtOnce) = (0, 0, 0, 0)
        for step in 0..<steps {
            let asker = Int.random(in: 0..<5, using: &random)
            let session = asker < 2 ? people[asker] : people[asker % 2]
            let replayer = asker == 4 ? holder : session
            let album = albums.randomElement(using: &random)!
            let count = try state()[albums.firstIndex(of: album)!].count
            let before = try state()
            let context = "seed \(seed), step \(step)"
            do {
                switch Int.random(in: 0..<7, using: &random) {
                case 0, 1:
                    let (from, to) = (Int.random(in: 0..<count, using: &random), Int.random(in: 0..<count, using: &random))
                    try session.perform(.move([.position(from, in: .named(album))], to: .at(to, in: .named(album))))
                case 2:
                    let other = album == "A" ? "B" : "A"
                    try session.perform(.copy([.position(Int.random(in: 0..<count, using: &random), in: .named(album))], to: .into(.named(other))))
                case 3:
                    guard count > 4 else { continue }
                    try session.perform(.remove([.position(Int.random(in: 0..<count, using: &random), in: .named(album))]))
                case 4, 5:
                    if asker == 4, try library.read({ try $0.nextUndo()?.id ?? 0 }) <= setup { continue }
                    try replayer.write { _ = try $0.undo() }
                    undone += 1
                    // Its redo, at once, gives back the order before it.
                    if Bool.random(using: &random) {
                        try replayer.write { _ = try $0.redo() }
                        let after = try state()
                        let recent = try library.read { try $0.history(limit: 4).map { "\($0.description) by \($0.madeBy)\($0.isUndone ? " (undone)" : "")" } }
                        #expect(after == before, "\(context): an undo and its redo at once did not give back the order: \(before) then \(after), asker \(asker); \(recent)")
                        redoneAtOnce += 1
                    }
                default:
                    try replayer.write { _ = try $0.redo() }
                }
                done += 1
            } catch let error as LibraryError {
                switch error {
                case .cannotUndo, .cannotRedo: refused += 1
                default: break
                }
                #expect(try state() == before, "\(context): refused (\(error)) but wrote")
            }
            #expect(try library.violations() == [], "\(context)")
        }
        #expect(done > steps / 2 && undone > steps / 10 && redoneAtOnce > 0, "done \(done), undone \(undone), redone at once \(redoneAtOnce)")
        #expect(refused > 0, "no replay was ever refused: the interleaving never made someone else's change meet another's")
    }
}

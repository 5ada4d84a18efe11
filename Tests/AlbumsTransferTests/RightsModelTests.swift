import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsTransfer

/// Random households against a model of visibility and rights: a random
/// tree of folders and albums, a person with random roles on some of them,
/// and random operations asked as that person (on items, albums and
/// folders, alone and in batches; uploads; undo and redo, which take back
/// only their own changes; lookups by name, path, id and position), each answered as the
/// model says: not found for what they cannot see, forbidden for what they
/// may not do, done otherwise. The model is a few lines of the rules,
/// written apart from the library's code.
@Suite("Rights against a model")
struct RightsModelTests {
    /// What an answer amounts to.
    enum Answer: Equatable, CustomStringConvertible {
        case done, notFound, forbidden, outOfRange
        case other(String)

        init(_ perform: () throws -> Void) {
            do {
                try perform()
                self = .done
            } catch let refusal as BatchRefusal {
                self.init(refusal.reason)
            } catch let error as LibraryError {
                self.init(error)
            } catch {
                self = .other("\(error)")
            }
        }

        init(_ error: LibraryError) {
            switch error {
            case .albumNotFound, .folderNotFound, .itemNotFound: self = .notFound
            case .forbidden: self = .forbidden
            case .positionOutOfRange: self = .outOfRange
            default: self = .other("\(error.code): \(error)")
            }
        }

        /// The first of a batch's answers that is not done.
        static func batch(_ answers: [Answer]) -> Answer { answers.first { $0 != .done } ?? .done }

        /// An undo or redo names nothing: what they cannot see is refused as what they may not change.
        var replayed: Answer { self == .notFound ? .forbidden : self }

        var description: String {
            switch self {
            case .done: "done"
            case .notFound: "not found"
            case .forbidden: "forbidden"
            case .outOfRange: "out of range"
            case .other(let text): text
            }
        }
    }

    /// The household as the model sees it.
    struct Model {
        var folderParent: [String: String?] = [:]
        var albumParent: [String: String?] = [:]
        /// The person's roles, by album or folder name.
        var roles: [String: Role] = [:]

        /// The highest role reaching a node: its own, or any folder's above it.
        func role(of node: String, parent: String?) -> Role? {
            var best = roles[node]
            var folder = parent
            while let current = folder {
                if let role = roles[current], best.map({ role > $0 }) ?? true { best = role }
                folder = folderParent[current] ?? nil
            }
            return best
        }
        func albumRole(_ album: String) -> Role? { role(of: album, parent: albumParent[album] ?? nil) }
        func folderRole(_ folder: String) -> Role? { role(of: folder, parent: folderParent[folder] ?? nil) }

        /// A folder's path as the person sees it: under its parent if they see that, else at their top level.
        func seenPath(_ folder: String) -> String {
            guard let parent = folderParent[folder] ?? nil, folderRole(parent) != nil else { return folder }
            return seenPath(parent) + "/" + folder
        }
        func absolutePath(_ folder: String) -> String {
            guard let parent = folderParent[folder] ?? nil else { return folder }
            return absolutePath(parent) + "/" + folder
        }
        /// How the person names a folder: by the path they see, or, for one they cannot see, by its real path.
        func reference(_ folder: String) -> String { folderRole(folder) != nil ? seenPath(folder) : absolutePath(folder) }

        /// The folder an album stands in as the person sees it (nil: their top level).
        func seenParent(ofAlbum album: String) -> String? {
            guard let parent = albumParent[album] ?? nil, folderRole(parent) != nil else { return nil }
            return parent
        }

        func rename(_ album: String) -> Answer {
            guard let role = albumRole(album) else { return .notFound }
            return role >= .editor ? .done : .forbidden
        }

        func delete(_ album: String) -> Answer {
            guard let role = albumRole(album) else { return .notFound }
            return role >= .owner ? .done : .forbidden
        }

        func move(_ album: String, into folder: String?) -> Answer {
            guard let held = albumRole(album) else { return .notFound }
            if let folder, folderRole(folder) == nil { return .notFound }
            let owned = held == .owner
            if !owned {
                guard let origin = seenParent(ofAlbum: album), folderRole(origin)! >= .editor else { return .forbidden }
            }
            if let folder {
                return folderRole(folder)! >= .editor ? .done : .forbidden
            }
            return owned ? .done : .forbidden
        }

        func create(into folder: String?) -> Answer {
            guard let folder else { return .forbidden }
            guard let role = folderRole(folder) else { return .notFound }
            return role >= .editor ? .done : .forbidden
        }

        func copy(from source: String, to destination: String) -> Answer {
            guard albumRole(source) != nil, let role = albumRole(destination) else { return .notFound }
            return role >= .editor ? .done : .forbidden
        }

        func moveItem(from source: String, to destination: String) -> Answer {
            guard let from = albumRole(source), let to = albumRole(destination) else { return .notFound }
            return from >= .editor && to >= .editor ? .done : .forbidden
        }

        func lookUp(_ album: String) -> Answer { albumRole(album) == nil ? .notFound : .done }

        /// Renaming or locking a folder.
        func changeFolder(_ folder: String) -> Answer {
            guard let role = folderRole(folder) else { return .notFound }
            return role >= .editor ? .done : .forbidden
        }

        /// A folder by a path: only the path they see names it.
        func lookUp(folder: String, byPath path: String) -> Answer {
            folderRole(folder) != nil && seenPath(folder) == path ? .done : .notFound
        }

        /// An item by a position past the album's end.
        func itemPastTheEnd(of album: String) -> Answer { albumRole(album) == nil ? .notFound : .outOfRange }

        /// Files uploaded to an album: an editor's, from the first byte to the commit.
        func upload(into album: String) -> Answer {
            guard let role = albumRole(album) else { return .notFound }
            return role >= .editor ? .done : .forbidden
        }
    }

    @Test("random people with random roles get what the model of visibility and rights allows, and nothing else")
    func againstTheModel() throws {
        let (seed, rounds) = randomTestSettings(defaultSteps: 40)
        var random = SplitMix64(seed: seed)
        var checked = 0
        for round in 0..<rounds {
            let fixture = try LibraryFixture()
            var model = Model()
            let folders = (0..<Int.random(in: 2...4, using: &random)).map { "F\($0)" }
            let albums = (0..<Int.random(in: 3...6, using: &random)).map { "A\($0)" }
            var ids: [String: FolderID] = [:]
            var albumIDs: [String: AlbumID] = [:]
            try fixture.library.write { writer in
                for (index, name) in folders.enumerated() {
                    let parent = index > 0 && Bool.random(using: &random) ? folders[Int.random(in: 0..<index, using: &random)] : nil
                    ids[name] = try writer.createFolder(named: name, placement: .into(parent.map { .id(ids[$0]!) })).id
                    model.folderParent[name] = parent
                }
                let photos = try writer.addTestPhotos(count: albums.count)
                for (index, name) in albums.enumerated() {
                    let parent = Bool.random(using: &random) ? folders.randomElement(using: &random) : nil
                    let album = try writer.createAlbum(named: name, placement: .into(parent.map { .id(ids[$0]!) }))
                    try writer.insertPhotos([photos[index]], into: album.id)
                    model.albumParent[name] = parent
                    albumIDs[name] = album.id
                }
                let person = try writer.addPerson(named: "pat", password: try PasswordHash(password: "correct horse", cost: 4))
                for name in folders + albums where Int.random(in: 0..<10, using: &random) < 3 {
                    let role = [Role.viewer, .editor, .owner].randomElement(using: &random)!
                    let target: GrantTarget = name.hasPrefix("F") ? .folder(ids[name]!) : .album(try writer.album(named: name).id)
                    try writer.setRole(role, of: person.id, on: target)
                    model.roles[name] = role
                }
            }
            let pat = try fixture.library.read { try $0.person(named: "pat") }
            let session = TransferSession(library: fixture.library, acting: .person(pat))
            let holder = TransferSession(library: fixture.library)
            func expect(_ expected: Answer, _ what: String, _ perform: () throws -> Void) {
                let actual = Answer(perform)
                checked += 1
                #expect(actual == expected, "round \(round) (seed \(seed)): \(what): expected \(expected), got \(actual); roles \(model.roles), folders \(model.folderParent), albums \(model.albumParent)")
            }
            for step in 0..<16 {
                let album = albums.randomElement(using: &random)!
                let other = albums.randomElement(using: &random)!
                let folder = folders.randomElement(using: &random)!
                switch Int.random(in: 0..<16, using: &random) {
                case 0:
                    expect(model.rename(album), "rename \(album)") { try session.perform(LibraryOperation.album(.rename(.named(album), to: "R\(step)")), dryRun: true) }
                case 1:
                    expect(model.delete(album), "delete \(album)") { try session.perform(LibraryOperation.album(.delete(.named(album), force: true)), dryRun: true) }
                case 2:
                    let reference = model.reference(folder)
                    expect(model.move(album, into: folder), "move \(album) into \(reference)") {
                        try session.perform(LibraryOperation.album(.move(.named(album), to: .into(.path(reference)))), dryRun: true)
                    }
                case 3:
                    expect(model.move(album, into: nil), "move \(album) to the top level") {
                        try session.perform(LibraryOperation.album(.move(.named(album), to: .into(nil))), dryRun: true)
                    }
                case 4:
                    let reference = model.reference(folder)
                    expect(model.create(into: folder), "create an album in \(reference)") {
                        try session.perform(LibraryOperation.album(.create(name: "N\(step)", placement: .into(.path(reference)))), dryRun: true)
                    }
                case 5:
                    guard album != other else { continue }
                    expect(model.copy(from: album, to: other), "copy \(album):1 to \(other)") {
                        try session.perform(.copy([.position(0, in: .named(album))], to: .into(.named(other))), dryRun: true)
                    }
                case 6:
                    guard album != other else { continue }
                    expect(model.moveItem(from: album, to: other), "move \(album):1 to \(other)") {
                        try session.perform(.move([.position(0, in: .named(album))], to: .into(.named(other))), dryRun: true)
                    }
                case 7:
                    let reference = model.reference(folder)
                    expect(model.changeFolder(folder), "rename folder \(reference)") {
                        try session.perform(LibraryOperation.folder(.rename(.path(reference), to: "G\(step)")), dryRun: true)
                    }
                case 8:
                    let reference = model.reference(folder)
                    expect(model.changeFolder(folder), "lock folder \(reference)") {
                        try session.perform(LibraryOperation.folder(.setLocked(.path(reference), true)), dryRun: true)
                    }
                case 9:
                    let path = Bool.random(using: &random) ? model.seenPath(folder) : model.absolutePath(folder)
                    expect(model.lookUp(folder: folder, byPath: path), "look up folder \(path)") { _ = try session.read { try $0.folder(.path(path)) } }
                case 10:
                    expect(model.lookUp(album), "look up \(album) by id") { _ = try session.read { try $0.album(.id(albumIDs[album]!)) } }
                case 11:
                    expect(model.itemPastTheEnd(of: album), "move \(album):9 to \(other)") {
                        try session.perform(.move([.position(8, in: .named(album))], to: .into(.named(other))), dryRun: true)
                    }
                case 12:
                    guard album != other else { continue }
                    let renamed = "B\(step)"
                    let expected = Answer.batch([model.copy(from: album, to: other), model.rename(other)])
                    expect(expected, "batch: copy \(album):1 to \(other), rename \(other)") {
                        try session.perform(
                            batch: [
                                .items(.copy([.position(0, in: .named(album))], to: .into(.named(other)))),
                                .album(.rename(.named(other), to: renamed)),
                            ], dryRun: true)
                    }
                case 13:
                    // New bytes, or those of the photo `other` holds: an upload joins that photo where pat sees it, else makes her own.
                    let held = Bool.random(using: &random) ? try holder.read { reader in try reader.items(in: albumIDs[other]!)[0].photoID } : nil
                    expect(model.upload(into: album), "upload into \(album)\(held == nil ? "" : " of the bytes \(other) holds")") {
                        try session.write(dryRun: true) { writer in
                            let destination = try writer.album(named: album)
                            try writer.requireChangeable(destination)
                            let placeholder = try writer.insertPlaceholders([PendingLoad(source: "/in/u\(step).jpg")], into: destination.id)[0]
                            var content = PhotoContent.madeUp("u\(step)")
                            if let held { content.sha256 = try writer.photo(held).content.sha256 }
                            let commit = try writer.commitLoad(placeholder, content: content)
                            guard let held else { return }
                            switch commit {
                            case .alreadyInAlbum(let photo):
                                #expect(other == album && photo.id == held, "round \(round): only \(other)'s own photo is already there")
                            case .committed(_, let photo, let isNewPhoto, _):
                                let sees = model.albumRole(other) != nil
                                #expect(
                                    other != album && (sees ? photo.id == held && !isNewPhoto : photo.id != held && isNewPhoto && photo.isApart),
                                    "round \(round): the bytes \(other) holds, uploaded into \(album), came in as photo \(photo.id) (new: \(isNewPhoto))")
                            }
                        }
                    }
                case 14:
                    // The holder renames an album: not pat's to undo, nor, once the holder has undone it, to redo.
                    // Where pat may rename it herself, her undo takes hers back and her redo re-applies it.
                    try holder.perform(LibraryOperation.album(.rename(.named(album), to: "\(album)-held")))
                    expect(Answer(LibraryError.nothingToUndo), "undo the holder's renaming of \(album)") { try session.write(dryRun: true) { _ = try $0.undo() } }
                    try holder.write { _ = try $0.undo() }
                    expect(Answer(LibraryError.nothingToRedo), "redo the holder's renaming of \(album)") { try session.write(dryRun: true) { _ = try $0.redo() } }
                    guard model.rename(album) == .done else { continue }
                    try session.perform(LibraryOperation.album(.rename(.named(album), to: "\(album)-pat")))
                    expect(.done, "undo pat's renaming of \(album)") { try session.write { _ = try $0.undo() } }
                    expect(.done, "redo pat's renaming of \(album)") { try session.write(dryRun: true) { _ = try $0.redo() } }
                default:
                    // The holder moves an album into another folder: not pat's to undo, nor, once the holder has undone it, to redo.
                    let origin = model.albumParent[album] ?? nil
                    guard origin != folder else { continue }
                    try holder.perform(LibraryOperation.album(.move(.named(album), to: .into(.id(ids[folder]!)))))
                    var moved = model
                    moved.albumParent[album] = folder
                    expect(Answer(LibraryError.nothingToUndo), "undo the holder's move of \(album) into \(folder)") {
                        try session.write(dryRun: true) { _ = try $0.undo() }
                    }
                    try holder.write { _ = try $0.undo() }
                    expect(Answer(LibraryError.nothingToRedo), "redo the holder's move of \(album) into \(folder)") {
                        try session.write(dryRun: true) { _ = try $0.redo() }
                    }
                    try holder.write { _ = try $0.redo() }
                    model = moved
                }
            }
        }
        #expect(checked > rounds * 10)
    }
}

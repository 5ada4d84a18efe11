import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsTransfer

/// Random households against a model of visibility and rights: a random
/// tree of folders and albums, a person with random roles on some of them,
/// and random operations asked as that person (on items, albums and
/// folders, by name and by path), each answered as the model says: not
/// found for what they cannot see, forbidden for what they may not do,
/// done otherwise. The model is a few lines of the rules, written apart
/// from the library's code.
@Suite("Rights against a model")
struct RightsModelTests {
    /// What an answer amounts to.
    enum Answer: Equatable, CustomStringConvertible {
        case done, notFound, forbidden
        case other(String)

        init(_ perform: () throws -> Void) {
            do {
                try perform()
                self = .done
            } catch let error as LibraryError {
                switch error {
                case .albumNotFound, .folderNotFound, .itemNotFound: self = .notFound
                case .forbidden: self = .forbidden
                default: self = .other("\(error.code): \(error)")
                }
            } catch {
                self = .other("\(error)")
            }
        }

        var description: String {
            switch self {
            case .done: "done"
            case .notFound: "not found"
            case .forbidden: "forbidden"
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
            try fixture.library.write { writer in
                var ids: [String: FolderID] = [:]
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
            func expect(_ expected: Answer, _ what: String, _ perform: () throws -> Void) {
                let actual = Answer(perform)
                checked += 1
                #expect(actual == expected, "round \(round) (seed \(seed)): \(what): expected \(expected), got \(actual); roles \(model.roles), folders \(model.folderParent), albums \(model.albumParent)")
            }
            for step in 0..<12 {
                let album = albums.randomElement(using: &random)!
                let other = albums.randomElement(using: &random)!
                let folder = folders.randomElement(using: &random)!
                switch Int.random(in: 0..<8, using: &random) {
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
                default:
                    expect(model.lookUp(album), "look up \(album)") { _ = try session.read { try $0.album(named: album) } }
                }
            }
        }
        #expect(checked > rounds * 8)
    }
}

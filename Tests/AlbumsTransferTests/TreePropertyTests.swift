import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsTransfer

/// Random folder and album operations, with item operations between them,
/// against a model of the tree kept in this test: each operation's outcome
/// (the new tree, or the refusal and its reason) is what the model
/// predicts; undo and redo return to the model's earlier trees.
@Suite("The tree against a model")
struct TreePropertyTests {
    enum Node: Hashable, CustomStringConvertible {
        case album(AlbumID)
        case folder(FolderID)
        var description: String {
            switch self {
            case .album(let id): "a\(id.rawValue)"
            case .folder(let id): "f\(id.rawValue)"
            }
        }
    }

    /// The tree as the model keeps it: each parent's children in order (0: the top level).
    struct Tree: Equatable {
        var children: [Int64: [Node]] = [:]
        var names: [Node: String] = [:]
        var lockedFolders: Set<FolderID> = []

        func parent(of node: Node) -> Int64? {
            children.first { $0.value.contains(node) }?.key
        }

        func kids(_ parent: Int64) -> [Node] { children[parent] ?? [] }

        /// Depth-first lines, as the library's tree lists them.
        var lines: [String] {
            var lines: [String] = []
            func visit(_ parent: Int64, _ depth: Int) {
                for node in kids(parent) {
                    let lock = if case .folder(let id) = node, lockedFolders.contains(id) { " locked" } else { "" }
                    lines.append(String(repeating: "  ", count: depth) + "\(node) \(names[node]!)\(lock)")
                    if case .folder(let id) = node { visit(id.rawValue, depth + 1) }
                }
            }
            visit(0, 0)
            return lines
        }

        func isLocked(_ parent: Int64) -> Bool { parent != 0 && lockedFolders.contains(FolderID(rawValue: parent)) }

        func nameTaken(_ name: String, in parent: Int64, besides: Set<Node>) -> Bool {
            kids(parent).contains { !besides.contains($0) && names[$0] == name }
        }

        /// The folder and every folder above it.
        func ancestry(_ folder: Int64) -> [Int64] {
            var chain: [Int64] = []
            var next: Int64? = folder
            while let id = next, id != 0 {
                chain.append(id)
                next = parent(of: .folder(FolderID(rawValue: id)))
            }
            return chain
        }

        func albumsInside(_ folder: Int64) -> [AlbumID] {
            kids(folder).flatMap { node -> [AlbumID] in
                switch node {
                case .album(let id): [id]
                case .folder(let id): albumsInside(id.rawValue)
                }
            }
        }

        mutating func remove(_ node: Node) {
            for key in children.keys { children[key]?.removeAll { $0 == node } }
        }

        mutating func insert(_ node: Node, in parent: Int64, at index: Int) {
            children[parent, default: []].insert(node, at: index)
        }
    }

    /// What the model expects of an operation.
    enum Outcome: Equatable {
        case applied(Tree)
        case refused(String)  // LibraryError.code
        case unchanged
    }

    @Test("random tree operations, with item changes between, do what the model says; undo and redo walk back and forth exactly")
    func randomTree() throws {
        let (seed, steps) = randomTestSettings(defaultSteps: 700)
        var random = SplitMix64(seed: seed)
        let fixture = try LibraryFixture(options: Library.Options(allowsConcurrentReads: false))
        let library = fixture.library
        let session = TransferSession(library: library)
        // Every change stays undoable, however long the run (ALBUMS_TEST_STEPS).
        var photos = try library.write { writer in
            try writer.setKeptHistoryEntries(max(1_000, steps + 10))
            return try writer.addTestPhotos(count: steps + 10)
        }
        var states: [Tree] = [Tree()]
        var position = 0
        var tally = (applied: 0, refused: [String: Int](), unchanged: 0, undos: 0, redos: 0, itemChanges: 0)
        let folderNames = ["Travel", "2026", "Books", "Lisbon"]
        let albumNames = ["Lisbon", "Porto", "Rome", "Books", "Draft", "Travel", "Oslo", "Kyoto"]

        for step in 0..<steps {
            let context = "seed \(seed), step \(step)"
            let tree = states[position]
            let actual = try lines(of: library)
            guard actual == tree.lines else {
                Issue.record("\(context): the library left the model\n library \(actual)\n model   \(tree.lines)")
                return
            }
            let roll = Int.random(in: 0..<100, using: &random)
            if roll < 8, position > 0 {
                _ = try library.write { try $0.undo() }
                position -= 1
                tally.undos += 1
                continue
            }
            if roll < 12, position < states.count - 1 {
                _ = try library.write { try $0.redo() }
                position += 1
                tally.redos += 1
                continue
            }
            if roll < 22 {
                // An item change between tree changes: a photo into an album, or an album deleted.
                let albums = tree.names.keys.compactMap { if case .album(let id) = $0 { id } else { nil } }
                if let album = albums.randomElement(using: &random), let photo = photos.popLast() {
                    try library.write { _ = try $0.insertPhotos([photo], into: album) }
                    tally.itemChanges += 1
                    // Not a tree change, but an entry of the history: the model's states follow it.
                    states = Array(states[...position]) + [tree]
                    position += 1
                }
                continue
            }
            let (operation, expected, created) = randomOperation(tree, folderNames, albumNames, &random)
            // A proposal is the perform without the write: the same verdict and the same changes, with reads only.
            let proposal = try session.propose(operation)
            do {
                let result = try session.perform(operation)
                #expect(proposal.verdict == result.outcome.verdict, "\(context): \(operation) proposed \(proposal.verdict), did \(result.outcome)")
                #expect(proposal.changes == result.changes, "\(context): \(operation) proposed \(proposal.changes), recorded \(result.changes)")
                #expect(proposal.folderChanges == result.folderChanges, "\(context): \(operation) proposed \(proposal.folderChanges), recorded \(result.folderChanges)")
                switch expected {
                case .applied:
                    break
                case .unchanged:
                    #expect(result.outcome == .noOp, "\(context): \(operation) changed what the model says it leaves")
                    tally.unchanged += 1
                    continue
                case .refused:
                    Issue.record("\(context): \(operation) went through; the model expected \(expected)")
                    return
                }
                states = Array(states[...position]) + [modelAfter(expected, created: created, result: result)]
                position += 1
                tally.applied += 1
                // The change sets name what changed.
                if case .folder(.create, _) = operation {
                    #expect(result.folderChanges.contains { $0.events.contains(.created) }, "\(context)")
                }
            } catch let error as LibraryError {
                guard case .refused(let code) = expected else {
                    Issue.record("\(context): \(operation) refused (\(error)); the model expected \(expected)")
                    return
                }
                #expect(error.code == code, "\(context): \(operation) refused with \(error.code), the model said \(code): \(error)")
                #expect(proposal.verdict == .forbidden(error), "\(context): \(operation) refused (\(error)), proposed \(proposal.verdict)")
                tally.refused[error.code, default: 0] += 1
            }
            if step % 50 == 49 { #expect(try library.violations() == [], "\(context)") }
        }
        // Undo everything: the empty library; redo everything: the end.
        let end = states.count - 1
        while position > 0 {
            _ = try library.write { try $0.undo() }
            position -= 1
            #expect(try lines(of: library) == states[position].lines, "undo all, at \(position)")
        }
        while position < end {
            _ = try library.write { try $0.redo() }
            position += 1
        }
        #expect(try lines(of: library) == states[end].lines, "redo all")
        #expect(try library.violations() == [])
        print("tree property test: seed \(seed), \(steps) steps: \(tally)")
        #expect(tally.applied > steps / 5 && tally.undos > steps / 50 && tally.refused.count >= 4, "\(tally)")
    }

    /// The tree as lines in the model's form.
    func lines(of library: Library) throws -> [String] {
        try library.read { reader in
            try reader.tree().map { entry in
                let indent = String(repeating: "  ", count: entry.depth)
                switch entry.node {
                case .album(let album): return indent + "a\(album.id.rawValue) \(album.name)"
                case .folder(let folder): return indent + "f\(folder.id.rawValue) \(folder.name)\(folder.isLocked ? " locked" : "")"
                }
            }
        }
    }

    /// A placeholder node the model puts where a created album or folder goes, until the library gives its id.
    static let newAlbum = Node.album(AlbumID(rawValue: -1))
    static let newFolder = Node.folder(FolderID(rawValue: -1))

    func modelAfter(_ expected: Outcome, created: Node?, result: TransferResult) -> Tree {
        guard case .applied(var tree) = expected else { return Tree() }
        guard let created else { return tree }
        let id: Node
        switch created {
        case .album:
            guard let albumID = result.changes.first(where: { $0.albumEvents.contains(.created) })?.albumID else { return tree }
            id = .album(albumID)
        case .folder:
            guard let folderID = result.folderChanges.first(where: { $0.events.contains(.created) })?.folderID else { return tree }
            id = .folder(folderID)
        }
        tree.rename(created, to: id)
        return tree
    }

    /// A random operation and what the model says of it, checked in the order the library checks.
    func randomOperation(_ tree: Tree, _ folderNames: [String], _ albumNames: [String], _ random: inout SplitMix64)
        -> (LibraryOperation, Outcome, Node?)
    {
        let folders = tree.names.keys.compactMap { if case .folder(let id) = $0 { id } else { nil } }.sorted()
        let albums = tree.names.keys.compactMap { if case .album(let id) = $0 { id } else { nil } }.sorted()
        func path(_ folder: Int64) -> String {
            tree.ancestry(folder).reversed().map { tree.names[.folder(FolderID(rawValue: $0))]! }.joined(separator: "/")
        }
        func anyParent() -> Int64 {
            Int.random(in: 0..<4, using: &random) == 0 || folders.isEmpty ? 0 : folders.randomElement(using: &random)!.rawValue
        }
        func reference(_ parent: Int64) -> FolderReference? { parent == 0 ? nil : .path(path(parent)) }

        switch Int.random(in: 0..<100, using: &random) {
        case 0..<22:
            // Create a folder or an album at a place, some places out of range.
            let isFolder = Bool.random(using: &random)
            let name = (isFolder ? folderNames : albumNames).randomElement(using: &random)!
            let parent = anyParent()
            let count = tree.kids(parent).count
            let index = Int.random(in: 0...(count + 1), using: &random)
            let placement = TreePlacement.at(index, in: reference(parent))
            let operation: LibraryOperation = isFolder
                ? .folder(.create(name: name, placement: placement)) : .album(.create(name: name, placement: placement))
            if !isFolder, albums.contains(where: { tree.names[.album($0)] == name }) { return (operation, .refused("album_name_taken"), nil) }
            if index > count { return (operation, .refused("album_position_out_of_range"), nil) }
            if tree.isLocked(parent) { return (operation, .refused("folder_locked"), nil) }
            if tree.nameTaken(name, in: parent, besides: []) { return (operation, .refused("name_taken_in_folder"), nil) }
            var after = tree
            let node = isFolder ? Self.newFolder : Self.newAlbum
            after.insert(node, in: parent, at: index)
            after.names[node] = name
            return (operation, .applied(after), node)
        case 22..<55:
            // Move an album or a folder: into a folder at a place, or next to a node.
            let nodes = tree.names.keys.sorted { $0.description < $1.description }
            guard let node = nodes.randomElement(using: &random) else { return randomOperation(tree, folderNames, albumNames, &random) }
            let oldParent = tree.parent(of: node)!
            let (parent, index, placement): (Int64, Int, TreePlacement)
            if Bool.random(using: &random), let neighbour = nodes.randomElement(using: &random) {
                let neighbourParent = tree.parent(of: neighbour)!
                var at = tree.kids(neighbourParent).firstIndex(of: neighbour)!
                let after = Bool.random(using: &random)
                let neighbourReference: TreeNodeReference = switch neighbour {
                case .album(let id): .album(.id(id))
                case .folder(let id): .folder(.id(id))
                }
                if neighbour != node {
                    if oldParent == neighbourParent, tree.kids(oldParent).firstIndex(of: node)! < at { at -= 1 }
                    if after { at += 1 }
                }
                (parent, index, placement) = (neighbourParent, at, after ? .after(neighbourReference) : .before(neighbourReference))
            } else {
                let to = anyParent()
                let count = tree.kids(to).count - (to == oldParent ? 1 : 0)
                let at = Int.random(in: 0...(count + 1), using: &random)
                if at > count {
                    let operation: LibraryOperation = switch node {
                    case .album(let id): .album(.move(.id(id), to: .at(at, in: reference(to))))
                    case .folder(let id): .folder(.move(.id(id), to: .at(at, in: reference(to))))
                    }
                    return (operation, .refused("album_position_out_of_range"), nil)
                }
                (parent, index, placement) = (to, at, .at(at, in: reference(to)))
            }
            let operation: LibraryOperation = switch node {
            case .album(let id): .album(.move(.id(id), to: placement))
            case .folder(let id): .folder(.move(.id(id), to: placement))
            }
            if parent == oldParent && index == tree.kids(oldParent).firstIndex(of: node)! { return (operation, .unchanged, nil) }
            if tree.isLocked(oldParent) { return (operation, .refused("folder_locked"), nil) }
            if parent != oldParent {
                if tree.isLocked(parent) { return (operation, .refused("folder_locked"), nil) }
                if tree.nameTaken(tree.names[node]!, in: parent, besides: [node]) { return (operation, .refused("name_taken_in_folder"), nil) }
                if case .folder(let id) = node, parent != 0, tree.ancestry(parent).contains(id.rawValue) {
                    return (operation, .refused("folder_into_itself"), nil)
                }
            }
            var after = tree
            after.remove(node)
            after.insert(node, in: parent, at: index)
            return (operation, .applied(after), nil)
        case 55..<65:
            guard let folder = folders.randomElement(using: &random) else { return randomOperation(tree, folderNames, albumNames, &random) }
            let name = folderNames.randomElement(using: &random)!
            let operation = LibraryOperation.folder(.rename(.id(folder), to: name))
            if tree.names[.folder(folder)] == name { return (operation, .unchanged, nil) }
            if tree.nameTaken(name, in: tree.parent(of: .folder(folder))!, besides: [.folder(folder)]) {
                return (operation, .refused("name_taken_in_folder"), nil)
            }
            var after = tree
            after.names[.folder(folder)] = name
            return (operation, .applied(after), nil)
        case 65..<75:
            guard let folder = folders.randomElement(using: &random) else { return randomOperation(tree, folderNames, albumNames, &random) }
            let isLocked = Bool.random(using: &random)
            let operation = LibraryOperation.folder(.setLocked(.id(folder), isLocked))
            if tree.lockedFolders.contains(folder) == isLocked { return (operation, .unchanged, nil) }
            var after = tree
            if isLocked { after.lockedFolders.insert(folder) } else { after.lockedFolders.remove(folder) }
            return (operation, .applied(after), nil)
        case 75..<85:
            guard let album = albums.randomElement(using: &random) else { return randomOperation(tree, folderNames, albumNames, &random) }
            let operation = LibraryOperation.album(.delete(.id(album), force: false))
            if tree.isLocked(tree.parent(of: .album(album))!) { return (operation, .refused("folder_locked"), nil) }
            var after = tree
            after.remove(.album(album))
            after.names[.album(album)] = nil
            return (operation, .applied(after), nil)
        default:
            // Delete a folder: refused when it holds something, or its contents moved up, or deleted.
            guard let folder = folders.randomElement(using: &random) else { return randomOperation(tree, folderNames, albumNames, &random) }
            let choice = [FolderContentsOnDelete.refuse, .moveToParent, .deleteAlbums].randomElement(using: &random)!
            let operation = LibraryOperation.folder(.delete(.id(folder), contents: choice, force: false))
            let node = Node.folder(folder)
            let parent = tree.parent(of: node)!
            let kids = tree.kids(folder.rawValue)
            if tree.isLocked(parent) { return (operation, .refused("folder_locked"), nil) }
            if !kids.isEmpty && tree.lockedFolders.contains(folder) { return (operation, .refused("folder_locked"), nil) }
            var after = tree
            let at = tree.kids(parent).firstIndex(of: node)!
            switch choice {
            case .refuse:
                if !kids.isEmpty { return (operation, .refused("folder_not_empty"), nil) }
            case .moveToParent:
                for kid in kids where tree.nameTaken(tree.names[kid]!, in: parent, besides: [kid, node]) {
                    return (operation, .refused("name_taken_in_folder"), nil)
                }
                after.children[parent]!.insert(contentsOf: kids, at: at + 1)
                after.children[folder.rawValue] = nil
            case .deleteAlbums:
                // Deepest last-first, as the library walks it: a locked folder with contents stops it.
                func blocked(_ id: Int64) -> Bool {
                    tree.kids(id).reversed().contains { kid in
                        guard case .folder(let sub) = kid else { return false }
                        return (!tree.kids(sub.rawValue).isEmpty && tree.lockedFolders.contains(sub)) || blocked(sub.rawValue)
                    }
                }
                if blocked(folder.rawValue) { return (operation, .refused("folder_locked"), nil) }
                func drop(_ id: Int64) {
                    for kid in after.kids(id) {
                        if case .folder(let sub) = kid { drop(sub.rawValue) }
                        after.names[kid] = nil
                        if case .folder(let sub) = kid { after.lockedFolders.remove(sub) }
                    }
                    after.children[id] = nil
                }
                drop(folder.rawValue)
            }
            after.children[parent]!.removeAll { $0 == node }
            after.names[node] = nil
            after.lockedFolders.remove(folder)
            return (operation, .applied(after), nil)
        }
    }
}

extension TreePropertyTests.Tree {
    /// The tree with `old` (a new node's stand-in) called `new`.
    mutating func rename(_ old: TreePropertyTests.Node, to new: TreePropertyTests.Node) {
        for key in children.keys {
            children[key] = children[key]!.map { $0 == old ? new : $0 }
        }
        names[new] = names.removeValue(forKey: old)
    }
}

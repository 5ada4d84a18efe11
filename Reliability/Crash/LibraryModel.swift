/// The library as the contract says it should be: ordered slots per album,
/// with the contract's rules written out again, independently of albums'
/// own code. The harness only asks it for operations it allows.
struct LibraryModel {
    var albums: [String: [Slot]]
    var albumOrder: [String]
    /// The tree: each folder's children in order, by folder name ("": the top level).
    var children: [String: [TreeNode]]
    /// The file each photo came from, for sorting by name.
    var nameOf: [String: String] = [:]
    /// The content each placeholder's load will commit, by source path.
    var contentOf: [String: String] = [:]

    init(_ observed: ObservedLibrary) {
        albums = observed.albums
        albumOrder = observed.albumOrder
        children = observed.children
    }

    /// Replaces the slots with what the file now holds, keeping what the model knows about files.
    mutating func adopt(_ observed: ObservedLibrary) {
        albums = observed.albums
        albumOrder = observed.albumOrder
        children = observed.children
    }

    // MARK: The tree, as the contract defines it

    /// The folder holding a node ("": the top level).
    func parent(of node: TreeNode) -> String {
        children.first { $0.value.contains(node) }!.key
    }

    /// A folder's path from the top level.
    func path(of folder: String) -> String {
        let above = parent(of: .folder(folder))
        return above.isEmpty ? folder : path(of: above) + "/" + folder
    }

    /// Whether `folder` is `ancestor` or inside it.
    func isInside(_ folder: String, _ ancestor: String) -> Bool {
        var at = folder
        while !at.isEmpty {
            if at == ancestor { return true }
            at = parent(of: .folder(at))
        }
        return false
    }

    /// A node moved last into `destination` ("": the top level).
    mutating func move(_ node: TreeNode, into destination: String) {
        children[parent(of: node)]!.removeAll { $0 == node }
        children[destination]!.append(node)
        albumOrder = ObservedLibrary.albumOrder(in: children)
    }

    mutating func createFolder(_ name: String, in parent: String) {
        children[parent]!.append(.folder(name))
        children[name] = []
    }

    /// A folder deleted, what it held taking its place in its parent, in order.
    mutating func deleteFolderMovingContents(_ name: String) {
        let above = parent(of: .folder(name))
        let at = children[above]!.firstIndex(of: .folder(name))!
        children[above]!.replaceSubrange(at...at, with: children[name]!)
        children[name] = nil
        albumOrder = ObservedLibrary.albumOrder(in: children)
    }

    /// Whether the album holds the photo, or a placeholder whose load will commit it.
    ///
    /// The workload keeps such photos out: a load committing a photo the
    /// album already holds drops its placeholder (tested in the test suite),
    /// which would make the slots of a load killed partway ambiguous.
    func contains(_ sha256: String, in album: String) -> Bool {
        albums[album]!.contains { slot in
            switch slot {
            case .photo(let photo): photo == sha256
            case .placeholder(let source): contentOf[source] == sha256
            }
        }
    }

    /// Positions (0-based) of photos, placeholders left out: placeholders cannot be moved or copied.
    func photoIndexes(in album: String) -> [Int] {
        albums[album]!.indices.filter { if case .photo = albums[album]![$0] { true } else { false } }
    }

    // MARK: The operations, as the contract defines them

    /// Moves the slots at `indexes` of `source` (resolved before the move)
    /// so that the first lands at `position` (0-based) of `destination`
    /// counted without the moving slots; they stay contiguous, in the order given.
    mutating func move(_ indexes: [Int], of source: String, to destination: String, at position: Int) {
        let moving = indexes.map { albums[source]![$0] }
        for index in indexes.sorted(by: >) { albums[source]!.remove(at: index) }
        albums[destination]!.insert(contentsOf: moving, at: position)
    }

    mutating func copy(_ indexes: [Int], of source: String, to destination: String, at position: Int) {
        let copies = indexes.map { albums[source]![$0] }
        albums[destination]!.insert(contentsOf: copies, at: position)
    }

    mutating func swap(_ first: Int, _ second: Int, in album: String) {
        albums[album]!.swapAt(first, second)
    }

    mutating func remove(_ indexes: [Int], of album: String) {
        for index in indexes.sorted(by: >) { albums[album]!.remove(at: index) }
    }

    /// Sorts by file name, ascending or not; placeholders keep their order after every photo.
    mutating func sortByName(_ album: String, ascending: Bool) {
        let slots = albums[album]!
        let photos = slots.filter { if case .photo = $0 { true } else { false } }
        let placeholders = slots.filter { if case .placeholder = $0 { true } else { false } }
        let sorted = photos.sorted { a, b in
            guard case .photo(let x) = a, case .photo(let y) = b else { return false }
            return ascending ? nameOf[x]! < nameOf[y]! : nameOf[x]! > nameOf[y]!
        }
        albums[album] = sorted + placeholders
    }

    /// Every placeholder takes the photo its source holds.
    func committingEveryLoad() -> LibraryModel {
        var next = self
        for name in albumOrder {
            next.albums[name] = albums[name]!.map { slot in
                if case .placeholder(let source) = slot { .photo(sha256: contentOf[source]!) } else { slot }
            }
        }
        return next
    }
}

/// The states undo and redo must lead back to, newest last: the library as
/// it stood before each change the history keeps (as the harness saw it),
/// and after each one undone.
struct KeptStates {
    var undo: [LibraryModel] = []
    var redo: [LibraryModel] = []

    /// Follows one step, killed or not, by the history marks it left: a new
    /// entry (a change), an undo or a redo that went through, and loads
    /// that committed meanwhile (outside the history: every kept state that
    /// holds their placeholders now holds their photos).
    mutating func follow(_ kind: CrashStep.Kind, from previous: LibraryModel, before: ObservedLibrary, after: ObservedLibrary) {
        var previous = previous
        previous.adopt(before)
        switch kind {
        case .undo where after.history.nextUndo != before.history.nextUndo:
            redo.append(previous)
            undo.removeLast()
        case .redo where after.history.nextRedo != before.history.nextRedo:
            undo.append(previous)
            redo.removeLast()
        case .undo, .redo, .initialize:
            break
        default:
            if after.history.newest != before.history.newest {
                undo.append(previous)
                redo.removeAll()
            }
        }
        guard kind == .load || kind == .resume else { return }
        let pending = Set(after.placeholders)
        let committed = Set(before.placeholders).subtracting(pending)
        guard !committed.isEmpty else { return }
        for index in undo.indices { undo[index].commit(committed) }
        for index in redo.indices { redo[index].commit(committed) }
    }
}

extension LibraryModel {
    /// The placeholders of these sources hold their photos now.
    mutating func commit(_ sources: Set<String>) {
        for name in albumOrder {
            albums[name] = albums[name]!.map { slot in
                if case .placeholder(let source) = slot, sources.contains(source), let sha256 = contentOf[source] { .photo(sha256: sha256) } else { slot }
            }
        }
    }
}

import AlbumsPersistence
import AlbumsTestSupport
import Foundation
import Testing

@testable import AlbumsTransfer

/// Random operation sequences against a plain model: an array of item ids
/// per album, with the contract's rules written out again independently.
@Suite("Transfers against an array model")
struct TransferPropertyTests {
    /// The model of the library: what the contract says should be there.
    struct Model {
        var albums: [String: [AlbumItemID]]
        var photoOf: [AlbumItemID: PhotoID] = [:]
        var placeholders: Set<AlbumItemID> = []
        var locked: Set<String> = []

        func album(of item: AlbumItemID) -> String? {
            albums.first { $0.value.contains(item) }?.key
        }

        func holds(_ photo: PhotoID, in album: String) -> Bool {
            albums[album]!.contains { photoOf[$0] == photo }
        }
    }

    /// A reference as the generator made it, with what the model says it names.
    struct GeneratedReference {
        let reference: ItemReference
        let item: AlbumItemID?  // nil: names nothing (or, for copies, a photo in no album)
        let photo: PhotoID?
    }

    @Test("thousands of random operations keep the file equal to the model, and change sets exact")
    func randomOperations() throws {
        let (seed, steps) = randomTestSettings(defaultSteps: 1500)
        var random = SplitMix64(seed: seed)
        let fixture = try LibraryFixture(options: Library.Options(allowsConcurrentReads: false))
        let session = TransferSession(library: fixture.library)
        let names = ["A", "B", "C"]
        var spare: [PhotoID] = []  // photos in no album, for copies
        var fresh: [PhotoID] = []  // photos to restock albums that removals drained
        var model = Model(albums: [:])
        try session.library.write { writer in
            let photos = try writer.addTestPhotos(count: 600 + steps * 2)
            for (offset, name) in names.enumerated() {
                let album = try writer.createAlbum(named: name)
                let chunk = Array(photos[(offset * 40)..<(offset * 40 + 25 + offset * 10)])
                let ids = try writer.insertPhotos(chunk, into: album.id)
                model.albums[name] = ids
                for (id, photo) in zip(ids, chunk) { model.photoOf[id] = photo }
            }
            spare = Array(photos[200..<600])
            fresh = Array(photos[600...])
        }
        // Photos shared between albums make "already in the destination" reachable.
        try session.library.write { writer in
            let shared = Array(model.albums["A"]!.prefix(5)).map { model.photoOf[$0]! }
            let ids = try writer.insertPhotos(shared, into: try writer.album(named: "B").id, at: 0)
            model.albums["B"]!.insert(contentsOf: ids, at: 0)
            for (id, photo) in zip(ids, shared) { model.photoOf[id] = photo }
        }

        var counts = (allowed: 0, forbidden: 0, noOp: 0)
        var ruleCounts: [Int: Int] = [:]
        for step in 0..<steps {
            let context = "seed \(seed), step \(step)"
            // Now and then, change the world the way other parts of the app do.
            // At most one album locked at a time, for a few steps.
            if let name = model.locked.first, Int.random(in: 0..<6, using: &random) == 0 {
                try session.library.write { try $0.setAlbumLocked(try $0.album(named: name).id, false) }
                model.locked.remove(name)
            } else if model.locked.isEmpty, Int.random(in: 0..<30, using: &random) == 0 {
                let name = names.randomElement(using: &random)!
                try session.library.write { try $0.setAlbumLocked(try $0.album(named: name).id, true) }
                model.locked.insert(name)
            }
            if model.placeholders.count < 8, Int.random(in: 0..<15, using: &random) == 0 {
                let name = names.filter { !model.locked.contains($0) }.randomElement(using: &random)
                if let name {
                    let index = Int.random(in: 0...model.albums[name]!.count, using: &random)
                    let id = try session.library.write {
                        try $0.insertPlaceholders([testLoad("/in/\(step).jpg")], into: try $0.album(named: name).id, at: index)
                    }[0]
                    model.albums[name]!.insert(id, at: index)
                    model.placeholders.insert(id)
                }
            }

            for name in names where !model.locked.contains(name) && model.albums[name]!.count - model.placeholders.count < 12 && fresh.count >= 4 {
                let stock = Array(fresh.prefix(4))
                fresh.removeFirst(4)
                let ids = try session.library.write { try $0.insertPhotos(stock, into: try $0.album(named: name).id) }
                model.albums[name]!.append(contentsOf: ids)
                for (id, photo) in zip(ids, stock) { model.photoOf[id] = photo }
            }

            let before = try snapshot(session.library, names)
            let (operation, references) = makeOperation(model: model, names: names, spare: spare, revisions: before.revisions, using: &random)
            let expected = expectedOutcome(of: operation, references: references, model: model, revisions: before.revisions)
            let proposal = try session.propose(operation)

            let performed: [AlbumChangeSet]
            do {
                performed = try session.perform(operation).changes
            } catch let refusal as LibraryError {
                #expect(expected == nil, "\(context): refused (\(refusal)) but the model allows \(operation)")
                #expect(proposal.verdict == .forbidden(refusal), "\(context): proposal \(proposal.verdict) vs refusal \(refusal)")
                #expect(try snapshot(session.library, names) == before, "\(context): a refused operation changed the file")
                counts.forbidden += 1
                ruleCounts[Self.lastRefusal, default: 0] += 1
                continue
            }
            guard var next = expected else {
                Issue.record("\(context): performed \(operation) that the model forbids (rule \(Self.lastRefusal)); A photos \(model.albums["A"]!.map { model.photoOf[$0] }), locked \(model.locked), placeholders \(model.placeholders)")
                return
            }
            // A proposal cannot know the ids a copy will create; everything else must agree.
            func foreseeable(_ changes: [AlbumChangeSet]) -> [String] {
                changes.map { change in
                    let inserted = operation.action == .copy ? [] : change.insertedItems
                    return "\(change.albumID) r\(change.revision) -\(change.removed)\(change.removedItems) +\(change.inserted)\(inserted) ~\(change.updated)\(change.updatedItems) >\(change.moved)"
                }
            }
            #expect(foreseeable(proposal.changes) == foreseeable(performed), "\(context): proposal and performance disagree")
            let after = try snapshot(session.library, names)
            if operation.action == .copy, let (name, index) = resolveDestination(operation.destination!, moving: [], model: model) {
                #expect(performed.first { $0.albumName == name }?.insertedItems == Array(after.orders[name]![index..<index + operation.sources.count]),
                    "\(context): a copy's change set names the items it created")
            }
            // Copies create items whose ids only the file knows: adopt them.
            if operation.action == .copy, let (name, index) = resolveDestination(operation.destination!, moving: [], model: model) {
                let newIDs = Array(after.orders[name]![index..<index + operation.sources.count])
                let photos = references.map { $0.photo! }
                let newPhotos = try session.library.read { reader in try newIDs.map { try reader.item($0).photoID } }
                #expect(newPhotos == photos, "\(context)")
                next.albums[name]!.insert(contentsOf: newIDs, at: index)
                for (id, photo) in zip(newIDs, photos) { next.photoOf[id] = photo }
            }
            model = next
            for name in names {
                #expect(after.orders[name] == model.albums[name], "\(context): album \(name) differs from the model after \(operation)")
            }
            if names.contains(where: { after.orders[$0] != model.albums[$0] }) { return }

            // Each change set turns the old order into the new one.
            let changedNames = Set(performed.map(\.albumName))
            for change in performed {
                let old = before.orders[change.albumName]!
                let new = after.orders[change.albumName]!
                #expect(change.applied(to: old, inserting: { new[$0] }) == new, "\(context): change set of \(change.albumName) does not replay: \(change)")
                #expect(change.revision == before.revisions[change.albumName]! + 1, "\(context)")
                #expect(after.revisions[change.albumName] == change.revision, "\(context)")
            }
            for name in names where !changedNames.contains(name) {
                #expect(after.orders[name] == before.orders[name], "\(context): \(name) changed without a change set")
            }
            if performed.isEmpty { counts.noOp += 1 } else { counts.allowed += 1 }
        }
        #expect(try session.library.violations() == [])
        print("transfer property test: seed \(seed), \(steps) steps: \(counts.allowed) applied, \(counts.forbidden) refused, \(counts.noOp) no-ops")
        // The generator must reach every outcome, or the test proves little.
        #expect(counts.allowed > steps / 5 && counts.forbidden > steps / 10 && counts.noOp > 0, "\(counts) \(ruleCounts.sorted { $0.key < $1.key })")
    }

    struct Snapshot: Equatable {
        var orders: [String: [AlbumItemID]] = [:]
        var revisions: [String: Int64] = [:]
    }

    func snapshot(_ library: Library, _ names: [String]) throws -> Snapshot {
        try library.read { reader in
            var snapshot = Snapshot()
            for name in names {
                let album = try reader.album(named: name)
                snapshot.orders[name] = try reader.items(in: album.id).map(\.id)
                snapshot.revisions[name] = album.revision
            }
            return snapshot
        }
    }

    // MARK: - Generating operations

    func makeReference(model: Model, names: [String], spare: [PhotoID], forCopy: Bool, using random: inout SplitMix64) -> GeneratedReference {
        let name = names.filter { !model.albums[$0]!.isEmpty }.randomElement(using: &random) ?? names[0]
        let items = model.albums[name]!
        // Mostly photos: placeholders as sources are refused, and a few suffice to test that.
        let candidates = Int.random(in: 0..<8, using: &random) == 0 ? Array(items.indices) : items.indices.filter { !model.placeholders.contains(items[$0]) }
        switch Int.random(in: 0..<40, using: &random) {
        case 0:
            return GeneratedReference(reference: .item(AlbumItemID(rawValue: 9_999_999)), item: nil, photo: nil)
        case 1:
            return GeneratedReference(reference: .position(items.count + Int.random(in: 0...2, using: &random), in: .named(name)), item: nil, photo: nil)
        case 2 where forCopy:
            let photo = spare.randomElement(using: &random)!
            return GeneratedReference(reference: .photo(photo, in: nil), item: nil, photo: photo)
        default:
            guard let index = candidates.randomElement(using: &random) ?? items.indices.randomElement(using: &random) else {
                return GeneratedReference(reference: .position(0, in: .named(name)), item: nil, photo: nil)
            }
            let id = items[index]
            let photo = model.photoOf[id]
            let reference: ItemReference
            switch Int.random(in: 0..<3, using: &random) {
            case 0: reference = .item(id)
            case 1: reference = .position(index, in: .named(name))
            default: reference = photo.map { .photo($0, in: .named(name)) } ?? .item(id)
            }
            return GeneratedReference(reference: reference, item: id, photo: photo)
        }
    }

    func makeOperation(
        model: Model, names: [String], spare: [PhotoID], revisions: [String: Int64], using random: inout SplitMix64
    ) -> (TransferOperation, [GeneratedReference]) {
        // Sometimes a drop where the items already are: a no-op.
        if Int.random(in: 0..<30, using: &random) == 0, let name = names.randomElement(using: &random),
            let index = model.albums[name]!.indices.randomElement(using: &random), !model.placeholders.contains(model.albums[name]![index])
        {
            let id = model.albums[name]![index]
            return (.move([.item(id)], to: .at(index, in: .named(name))), [GeneratedReference(reference: .item(id), item: id, photo: model.photoOf[id])])
        }
        let action = TransferOperation.Action.allCases.randomElement(using: &random)!
        let count = action == .swap ? 2 : Int.random(in: 1...(Bool.random(using: &random) ? 2 : 7), using: &random)
        var references = (0..<count).map { _ in
            makeReference(model: model, names: names, spare: spare, forCopy: action == .copy, using: &random)
        }
        if Int.random(in: 0..<25, using: &random) == 0, let first = references.first {
            references.append(first)  // a duplicate source
        }
        var expectations: [AlbumReference: Int64] = [:]
        if Int.random(in: 0..<8, using: &random) == 0 {
            let name = names.randomElement(using: &random)!
            expectations[.named(name)] = revisions[name]! - (Bool.random(using: &random) ? 0 : 1)
        }
        var destination: Destination?
        if action == .move || action == .copy {
            let name = names.randomElement(using: &random)!
            let count = model.albums[name]!.count
            switch Int.random(in: 0..<4, using: &random) {
            case 0: destination = .into(.named(name))
            case 1: destination = .at(Int.random(in: 0...count + 1, using: &random), in: .named(name))
            case 2: destination = .before(makeReference(model: model, names: [name], spare: spare, forCopy: false, using: &random).reference)
            default: destination = .after(makeReference(model: model, names: [name], spare: spare, forCopy: false, using: &random).reference)
            }
        }
        let operation = TransferOperation(
            action: action, sources: references.map(\.reference), destination: destination, expectedRevisions: expectations)
        return (operation, references)
    }

    // MARK: - The contract, written out again

    nonisolated(unsafe) static var lastRefusal = 0
    func refuse(_ rule: Int) -> Model? {
        Self.lastRefusal = rule
        return nil
    }

    /// The model after `operation`, or nil if the contract forbids it.
    /// For copies, the new items are left for the caller to adopt.
    func expectedOutcome(
        of operation: TransferOperation, references: [GeneratedReference], model: Model, revisions: [String: Int64]
    ) -> Model? {
        for (album, revision) in operation.expectedRevisions {
            guard case .named(let name) = album, revisions[name] == revision else { return refuse(1) }
        }
        let isCopy = operation.action == .copy
        var items: [AlbumItemID] = []
        var photos: [PhotoID] = []
        for reference in references {
            if let item = reference.item {
                if items.contains(item) { return refuse(2) }
                if operation.action != .remove && model.placeholders.contains(item) { return refuse(3) }
                items.append(item)
            } else if !(isCopy && reference.photo != nil) {
                return refuse(4)  // names nothing
            }
            if isCopy, let photo = reference.photo {
                if photos.contains(photo) { return refuse(5) }
                photos.append(photo)
            }
        }
        var next = model
        switch operation.action {
        case .remove:
            for item in items {
                let album = model.album(of: item)!
                if model.locked.contains(album) { return refuse(6) }
                next.albums[album]!.removeAll { $0 == item }
                next.placeholders.remove(item)
            }
            return next
        case .swap:
            let (a, b) = (items[0], items[1])
            let (albumA, albumB) = (model.album(of: a)!, model.album(of: b)!)
            if model.locked.contains(albumA) || model.locked.contains(albumB) { return refuse(7) }
            if albumA != albumB && (model.holds(model.photoOf[a]!, in: albumB) || model.holds(model.photoOf[b]!, in: albumA)) {
                return refuse(8)
            }
            let indexA = model.albums[albumA]!.firstIndex(of: a)!
            let indexB = model.albums[albumB]!.firstIndex(of: b)!
            next.albums[albumA]![indexA] = b
            next.albums[albumB]![indexB] = a
            return next
        case .move, .copy:
            let moving = isCopy ? [] : items
            guard let (name, index) = resolveDestination(operation.destination!, moving: moving, model: model) else { return refuse(9) }
            if model.locked.contains(name) { return refuse(10) }
            if isCopy {
                if photos.contains(where: { model.holds($0, in: name) }) { return refuse(11) }
                return next
            }
            var arriving = Set<PhotoID>()
            for item in items {
                let album = model.album(of: item)!
                if model.locked.contains(album) { return refuse(12) }
                if album != name && model.holds(model.photoOf[item]!, in: name) { return refuse(13) }
                if album != name && !arriving.insert(model.photoOf[item]!).inserted { return refuse(14) }
            }
            for album in model.albums.keys { next.albums[album]!.removeAll { items.contains($0) } }
            next.albums[name]!.insert(contentsOf: items, at: index)
            return next
        }
    }

    /// The destination album and the index in it without the moving items.
    func resolveDestination(_ destination: Destination, moving: [AlbumItemID], model: Model) -> (String, Int)? {
        func named(_ reference: AlbumReference) -> String {
            guard case .named(let name) = reference else { fatalError("the generator names albums") }
            return name
        }
        switch destination {
        case .into(let album):
            let name = named(album)
            return (name, model.albums[name]!.filter { !moving.contains($0) }.count)
        case .at(let index, let album):
            let name = named(album)
            let staying = model.albums[name]!.filter { !moving.contains($0) }
            return (0...staying.count).contains(index) ? (name, index) : nil
        case .before(let reference), .after(let reference):
            guard let neighbour = item(named: reference, in: model), !moving.contains(neighbour),
                let name = model.album(of: neighbour)
            else { return nil }
            let staying = model.albums[name]!.filter { !moving.contains($0) }
            let index = staying.firstIndex(of: neighbour)!
            if case .after = destination { return (name, index + 1) }
            return (name, index)
        }
    }

    func item(named reference: ItemReference, in model: Model) -> AlbumItemID? {
        switch reference {
        case .item(let id): return model.album(of: id) == nil ? nil : id
        case .position(let index, .named(let name)):
            let items = model.albums[name]!
            return items.indices.contains(index) ? items[index] : nil
        case .photo(let photo, .named(let name)?):
            return model.albums[name]!.first { model.photoOf[$0] == photo }
        default:
            return nil
        }
    }
}

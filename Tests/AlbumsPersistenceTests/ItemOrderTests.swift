import Foundation
import GRDB
import AlbumsTestSupport
import Testing

@testable import AlbumsPersistence

@Suite("Ordered items")
struct ItemOrderTests {
    @Test("10,000 inserts into the same gap keep keys short, order right and writes bounded")
    func repeatedInsertsIntoOneGap() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let (album, photos) = try library.write { writer in
            let album = try writer.createAlbum(named: "Gap")
            return (album.id, try writer.addTestPhotos(count: 10_002))
        }
        try library.write { try $0.insertPhotos([photos[0], photos[1]], into: album) }
        // Always between the first item and the one inserted just before:
        // the gap halves each time, the adversarial pattern for gapped keys.
        var rows = 0
        for photo in photos[2...] {
            rows += try library.write { writer in try writer.rowsWritten { try writer.insertPhotos([photo], into: album, at: 1) } }
        }
        let expected = [photos[0]] + photos[2...].reversed() + [photos[1]]
        #expect(try library.photoOrder(of: album) == expected)
        #expect(try library.violations() == [])
        let maximumKey = try library.read { try Int64.fetchOne($0.database, sql: "SELECT max(order_key) FROM album_item") }!
        #expect(maximumKey < OrderKeySpace.items.limit)  // 6 bytes in SQLite's record format
        let inserts = photos.count - 2
        // Each insert writes its row and a segment count; relayouts are rare and local.
        #expect(Double(rows) / Double(inserts) < 4, "\(rows) rows written for \(inserts) inserts")
        print("same-gap inserts: \(rows) rows written for \(inserts) inserts")
    }

    @Test("moving one item writes the same few rows in an album of 10 or 100,000 items")
    func rowsPerMoveIndependentOfAlbumSize() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        var rowsPerSize: [Int: [Int]] = [:]
        var itemsPerMove: [Int] = []
        for size in [10, 100_000] {
            let album = try library.write { writer in
                let album = try writer.createAlbum(named: "Size \(size)")
                try writer.insertPhotos(try writer.addTestPhotos(count: size), into: album.id)
                return album.id
            }
            // start → end, end → start, middle → middle+1, and a 2-item move to the middle.
            let moves: [(from: [Int], to: Int)] = [([0], size - 1), ([size - 1], 0), ([size / 2], size / 2 + 1), ([1, size - 2], size / 2)]
            for move in moves {
                let (rows, steps) = try library.write { writer in
                    let ids = try move.from.map { try writer.item(at: $0, in: album).id }
                    var steps = 0
                    let rows = try writer.rowsWritten { steps = try writer.historyStepsWritten { try writer.moveItems(ids, to: album, at: move.to) } }
                    return (rows, steps)
                }
                // The history notes each item's old place: one step per item row, none for counts.
                #expect(steps >= move.from.count && steps <= rows, "history steps of a move in \(size) items: \(steps) for \(rows) rows")
                rowsPerSize[size, default: []].append(rows)
                if size == 10 { itemsPerMove.append(move.from.count) }
            }
            #expect(try library.violations() == [])
        }
        // Each moved item writes its row, and at most the counts of the
        // segment it leaves and the one it enters: 3 rows per item at any size.
        for size in [10, 100_000] {
            for (rows, items) in zip(rowsPerSize[size]!, itemsPerMove) {
                #expect(rows >= items && rows <= 3 * items, "rows written per move in \(size) items: \(rowsPerSize)")
            }
        }
    }

    @Test("indexes and items find each other, and pages by index and by key agree")
    func lookupsAndPages() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let (album, photos) = try library.write { writer in
            let album = try writer.createAlbum(named: "Pages")
            let photos = try writer.addTestPhotos(count: 2500)
            try writer.insertPhotos(photos, into: album.id)
            return (album.id, photos)
        }
        try library.read { reader in
            for index in [0, 1, 511, 512, 1023, 1024, 1250, 2048, 2499] {
                let item = try reader.item(at: index, in: album)
                #expect(item.photoID == photos[index])
                #expect(item.index == index)
                #expect(try reader.index(of: item.id) == index)
            }
            #expect(throws: LibraryError.positionOutOfRange(index: 2500, valid: 0..<2500, album: "Pages")) {
                try reader.item(at: 2500, in: album)
            }
            let byIndex = try reader.items(in: album, indexes: 1000..<1300)
            #expect(byIndex.map(\.photoID) == Array(photos[1000..<1300]))
            #expect(byIndex.map(\.index) == Array(1000..<1300))

            var byKey: [AlbumItem] = []
            var last: AlbumItemID?
            repeat {
                let page = try reader.items(in: album, after: last, limit: 333)
                byKey += page
                last = page.last?.id
                if page.count < 333 { break }
            } while true
            #expect(byKey.map(\.photoID) == photos)
            #expect(byKey.map(\.index) == Array(0..<2500))
        }
    }

    @Test("random operation sequences match an array model, and invariants hold after each")
    func randomOperationsMatchModel() throws {
        let (seed, steps) = randomTestSettings(defaultSteps: 400)
        var random = SplitMix64(seed: seed)
        let fixture = try LibraryFixture()
        let library = fixture.library
        let albumNames = ["A", "B", "C"]
        let (albums, photos) = try library.write { writer in
            (try albumNames.map { try writer.createAlbum(named: $0).id }, try writer.addTestPhotos(count: 4000))
        }
        // The model: an array of item ids per album.
        var model: [AlbumID: [AlbumItemID]] = Dictionary(uniqueKeysWithValues: albums.map { ($0, []) })
        var photoOf: [AlbumItemID: PhotoID] = [:]
        var unused = photos

        for step in 0..<steps {
            let album = albums.randomElement(using: &random)!
            let count = model[album]!.count
            let operation = Int.random(in: 0..<10, using: &random)
            let context = "seed \(seed), step \(step), operation \(operation)"
            switch operation {
            case 0...2 where !unused.isEmpty:
                // Insert a run of new photos, sometimes a long one that overflows a segment.
                let runLength = Bool.random(using: &random) ? Int.random(in: 1...8, using: &random) : Int.random(in: 1...1500, using: &random)
                let run = Array(unused.prefix(runLength))
                unused.removeFirst(run.count)
                let index = Int.random(in: 0...count, using: &random)
                let ids = try library.write { try $0.insertPhotos(run, into: album, at: index) }
                model[album]!.insert(contentsOf: ids, at: index)
                for (id, photo) in zip(ids, run) { photoOf[id] = photo }
            case 3...5 where count > 0:
                // Move a random set of items, possibly from several albums, in a random order.
                let destination = album
                var chosen: [AlbumItemID] = []
                for source in albums where Bool.random(using: &random) || source == destination {
                    let items = model[source]!
                    guard !items.isEmpty else { continue }
                    let take = Int.random(in: 0...min(items.count, 40), using: &random)
                    chosen += items.shuffled(using: &random).prefix(take)
                }
                chosen.shuffle(using: &random)
                let staying = model[destination]!.filter { !chosen.contains($0) }
                let index = Int.random(in: 0...staying.count, using: &random)
                try library.write { try $0.moveItems(chosen, to: destination, at: index) }
                for source in albums { model[source]!.removeAll { chosen.contains($0) } }
                model[destination]!.insert(contentsOf: chosen, at: index)
            case 6...7 where count > 0:
                let items = model[album]!
                let removed = Array(items.shuffled(using: &random).prefix(Int.random(in: 1...min(items.count, 300), using: &random)))
                try library.write { try $0.removeItems(removed) }
                model[album]!.removeAll { removed.contains($0) }
            case 8 where count > 0:
                let other = albums.randomElement(using: &random)!
                guard let a = model[album]!.randomElement(using: &random), let b = model[other]!.randomElement(using: &random), a != b
                else { continue }
                try library.write { try $0.swapItems(a, b) }
                let ia = model[album]!.firstIndex(of: a)!
                let ib = model[other]!.firstIndex(of: b)!
                model[album]![ia] = b
                model[other]![ib] = a
            default:
                // A refused request changes nothing.
                let before = try library.photoOrder(of: album)
                #expect(throws: LibraryError.self, "\(context)") {
                    try library.write { try $0.insertPhotos([], into: album, at: count + 1) }
                }
                #expect(try library.photoOrder(of: album) == before, "\(context)")
            }
            for album in albums {
                let stored = try library.read { try $0.items(in: album).map(\.id) }
                #expect(stored == model[album]!, "\(context): album order differs from the model")
                if stored != model[album]! { return }
            }
            #expect(try library.violations() == [], "\(context)")
        }
        // Photos stayed with their items.
        for album in albums {
            let stored = try library.photoOrder(of: album)
            #expect(stored == model[album]!.map { photoOf[$0] })
        }
    }
}

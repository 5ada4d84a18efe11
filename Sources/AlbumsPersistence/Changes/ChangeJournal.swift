import Foundation
import GRDB

/// Writes and reads the `change_journal` table (migration 0002).
///
/// A row's `changes` blob is a sequence of unsigned LEB128 numbers:
/// operation count; per operation, album count; per album: album id,
/// revision, event count and each event's index in
/// ``AlbumChangeSet/AlbumEvent/journalOrder``, name length in UTF-8 bytes
/// and the bytes, then the removed, inserted and updated pairs (count, then
/// index and item id each) and the moves (count, then from, to, item id).
/// Then, when any, the folder changes (count; per folder: id, revision,
/// events and name as an album's); then, when the transaction changed
/// rights or added photos to the library, a number of flags (after a
/// folder count, 0 if none): 1 rights, 2 photos added. Older entries end
/// earlier and read the same; flag 2 came with migration 0019, so that an
/// albums that cannot read it refuses the file rather than its journal.
/// Compact and quick to write: it costs a transaction microseconds.
package enum ChangeJournal {
    /// The migration that creates the table.
    static let migrationVersion = 2
    /// Transactions kept; older rows are dropped in steps of ``pruneStep``.
    static let retainedCount: Int64 = 10_000
    static let pruneStep: Int64 = 500

    /// Appends one transaction's change sets; returns the row's sequence.
    static func append(
        _ operations: [[AlbumChangeSet]], folders: [FolderChange] = [], rightsChanged: Bool = false, addedPhotos: Bool = false, in db: Database
    ) throws -> Int64 {
        let entry = encode(operations, folders: folders, rightsChanged: rightsChanged, addedPhotos: addedPhotos)
        try db.execute(cachedSQL: "INSERT INTO change_journal (changes) VALUES (?)", arguments: [entry])
        let sequence = db.lastInsertedRowID
        if sequence % pruneStep == 0 {
            try db.execute(cachedSQL: "DELETE FROM change_journal WHERE id <= ?", arguments: [sequence - retainedCount])
        }
        return sequence
    }

    /// The transactions committed after `sequence`, in order.
    static func entries(after sequence: Int64, in db: Database) throws -> [CommittedChange] {
        var previous = sequence
        return try Row.fetchAll(
            db, cachedSQL: "SELECT id, committed_at, changes FROM change_journal WHERE id > ? ORDER BY id", arguments: [sequence]
        ).map { row in
            let id: Int64 = row[0]
            defer { previous = id }
            guard let entry = decode(row[2]) else {
                throw LibraryError.corrupt(path: db.filePath, detail: "change journal entry \(id) cannot be read")
            }
            return CommittedChange(
                sequence: id, committedAt: Timestamp.date(row[1]), operations: entry.operations, folderChanges: entry.folders,
                followsAGap: id != previous + 1 && previous != 0, changedRights: entry.rightsChanged, addedPhotos: entry.addedPhotos)
        }
    }

    /// The newest sequence in the journal, 0 if none.
    static func latestSequence(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, cachedSQL: "SELECT coalesce(max(id), 0) FROM change_journal") ?? 0
    }

    // MARK: - Encoding

    /// The trailing flags' bits.
    private static let rightsFlag: Int64 = 1
    private static let photosFlag: Int64 = 2

    static func encode(_ operations: [[AlbumChangeSet]], folders: [FolderChange] = [], rightsChanged: Bool = false, addedPhotos: Bool = false) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        func put(_ value: Int64) {
            var value = UInt64(bitPattern: value)
            repeat {
                let byte = UInt8(value & 0x7F)
                value >>= 7
                bytes.append(value == 0 ? byte : byte | 0x80)
            } while value != 0
        }
        func put(_ value: Int) { put(Int64(value)) }
        func putPairs(_ indexes: [Int], _ items: [AlbumItemID]) {
            put(indexes.count)
            for (index, item) in zip(indexes, items) {
                put(index)
                put(item.rawValue)
            }
        }
        /// A record's events (by their index in `order`) and its name.
        func putEventsAndName<Event: Equatable>(_ events: [Event], _ order: [Event], _ name: String) {
            put(events.count)
            for event in events { put(order.firstIndex(of: event)!) }
            let utf8 = Array(name.utf8)
            put(utf8.count)
            bytes += utf8
        }
        put(operations.count)
        for operation in operations {
            put(operation.count)
            for changes in operation {
                put(changes.albumID.rawValue)
                put(changes.revision)
                putEventsAndName(changes.albumEvents, AlbumChangeSet.AlbumEvent.journalOrder, changes.albumName)
                putPairs(changes.removed, changes.removedItems)
                putPairs(changes.inserted, changes.insertedItems)
                putPairs(changes.updated, changes.updatedItems)
                put(changes.moved.count)
                for move in changes.moved {
                    put(move.from)
                    put(move.to)
                    put(move.item.rawValue)
                }
            }
        }
        let flags = (rightsChanged ? rightsFlag : 0) | (addedPhotos ? photosFlag : 0)
        if !folders.isEmpty || flags != 0 {
            put(folders.count)
            for folder in folders {
                put(folder.folderID.rawValue)
                put(folder.revision)
                putEventsAndName(folder.events, FolderChange.Event.journalOrder, folder.name)
            }
        }
        if flags != 0 { put(flags) }
        return Data(bytes)
    }

    /// The change sets of an encoded entry, or nil if the bytes are not one.
    package static func decode(_ data: Data) -> (operations: [[AlbumChangeSet]], folders: [FolderChange], rightsChanged: Bool, addedPhotos: Bool)? {
        let bytes = [UInt8](data)
        var offset = 0
        func take() -> Int64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count, shift < 64 {
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return Int64(bitPattern: value) }
                shift += 7
            }
            return nil
        }
        func count() -> Int? {
            guard let value = take(), value >= 0, value <= Int64(bytes.count) * 8 + 1 else { return nil }
            return Int(value)
        }
        func number() -> Int? { take().flatMap { $0 >= 0 && $0 <= Int64(Int32.max) * 1024 ? Int($0) : nil } }
        /// A record's events (by their index in `order`) and its name.
        func eventsAndName<Event>(_ order: [Event]) -> (events: [Event], name: String)? {
            guard let eventCount = count() else { return nil }
            var events: [Event] = []
            for _ in 0..<eventCount {
                guard let event = number(), order.indices.contains(event) else { return nil }
                events.append(order[event])
            }
            guard let nameLength = count(), offset + nameLength <= bytes.count else { return nil }
            defer { offset += nameLength }
            return (events, String(decoding: bytes[offset..<offset + nameLength], as: UTF8.self))
        }
        guard let operationCount = count() else { return nil }
        var operations: [[AlbumChangeSet]] = []
        for _ in 0..<operationCount {
            guard let albumCount = count() else { return nil }
            var operation: [AlbumChangeSet] = []
            for _ in 0..<albumCount {
                guard let albumID = take(), let revision = take(), let (events, name) = eventsAndName(AlbumChangeSet.AlbumEvent.journalOrder)
                else { return nil }
                var changes = AlbumChangeSet(albumID: AlbumID(rawValue: albumID), albumName: name, revision: revision)
                changes.albumEvents = events
                for kind in 0..<3 {
                    guard let pairs = count() else { return nil }
                    for _ in 0..<pairs {
                        guard let index = number(), let item = take() else { return nil }
                        let id = AlbumItemID(rawValue: item)
                        switch kind {
                        case 0: changes.recordRemoval(at: index, of: id)
                        case 1: changes.recordInsertion(at: index, of: id)
                        default: changes.recordUpdate(at: index, of: id)
                        }
                    }
                }
                guard let moves = count() else { return nil }
                for _ in 0..<moves {
                    guard let from = number(), let to = number(), let item = take() else { return nil }
                    changes.recordMove(from: from, to: to, of: AlbumItemID(rawValue: item))
                }
                operation.append(changes)
            }
            operations.append(operation)
        }
        var folders: [FolderChange] = []
        if offset < bytes.count {
            guard let folderCount = count() else { return nil }
            for _ in 0..<folderCount {
                guard let folderID = take(), let revision = take(), let (events, name) = eventsAndName(FolderChange.Event.journalOrder)
                else { return nil }
                folders.append(FolderChange(folderID: FolderID(rawValue: folderID), name: name, revision: revision, events: events))
            }
        }
        var flags: Int64 = 0
        if offset < bytes.count {
            guard let read = take(), read > 0, read & ~(rightsFlag | photosFlag) == 0 else { return nil }
            flags = read
        }
        return offset == bytes.count ? (operations, folders, flags & rightsFlag != 0, flags & photosFlag != 0) : nil
    }
}

extension AlbumChangeSet.AlbumEvent {
    /// The events in the order the journal numbers them: append only.
    static let journalOrder: [Self] = [.created, .renamed, .deleted, .moved, .locked, .unlocked, .coverChanged, .frozen, .described]
}



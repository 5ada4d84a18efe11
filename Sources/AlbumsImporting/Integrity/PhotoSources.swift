import AlbumsPersistence
import AlbumsTransfer
import Crypto
import Foundation

/// A photo whose source file no longer gives its bytes.
public struct SourceProblem: Hashable, Sendable {
    /// What is wrong with a photo's source.
    public enum Issue: Hashable, Sendable {
        /// Nothing is at the recorded path.
        case missing
        /// A file is there, with other bytes (edited, replaced).
        case changed
        /// A file is there and cannot be read: the reason.
        case unreadable(String)

        /// `missing`, `changed` or `unreadable`: the JSON code.
        public var code: String {
            switch self {
            case .missing: "missing"
            case .changed: "changed"
            case .unreadable: "unreadable"
            }
        }
    }

    /// The photo.
    public let photo: Photo
    /// What is wrong with its source.
    public let issue: Issue
    /// What was checked: the copy the library keeps, or else the source.
    public let location: OriginalLocation
    /// Whether it is a Live Photo's motion that is wrong (at ``location``), not the still.
    public var isMotion = false

    /// A problem with `photo`'s original where `location` says it is.
    public init(photo: Photo, issue: Issue, location: OriginalLocation? = nil) {
        self.photo = photo
        self.issue = issue
        self.location = location ?? .source(photo.content.sourcePath)
    }

    /// Whether the copy the library keeps is what is wrong, not a source it refers to.
    public var isKeptCopy: Bool {
        if case .source = location { false } else { true }
    }

    /// One line: what is wrong with which photo's source or kept copy.
    public var description: String {
        let source = (isMotion ? "Live Photo motion " : isKeptCopy ? "kept copy " : "source ") + LibraryError.quoted(location.description)
        return switch issue {
        case .missing: "photo id:\(photo.id): its \(source) is missing"
        case .changed: "photo id:\(photo.id): its \(source) no longer holds its bytes (SHA-256 differs)"
        case .unreadable(let reason): "photo id:\(photo.id): its \(source) cannot be read: \(reason)"
        }
    }
}

/// A photo given a new source by ``Library/relinkSources(searching:recursive:dryRun:)``.
public struct Relinked: Hashable, Sendable {
    /// The photo relinked.
    public let photoID: PhotoID
    /// Where its source was.
    public let oldSource: String
    /// Where it is now.
    public let newSource: String
    /// Whether the photo's kept copy (at ``oldSource``) was written again
    /// from the file found, its source left as it was.
    public var restoredCopy = false
}

extension FileDigest {
    /// `body` for each element on every core, results in the elements' order.
    static func concurrentMap<Element: Sendable, Result: Sendable>(_ elements: [Element], _ body: @Sendable (Element) -> Result) -> [Result] {
        let results = ResultSlots<Result>(count: elements.count)
        DispatchQueue.concurrentPerform(iterations: elements.count) { index in
            results.set(index, body(elements[index]))
        }
        return results.values
    }

    private final class ResultSlots<Value: Sendable>: @unchecked Sendable {
        private var slots: [Value?]
        private let lock = NSLock()
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }
        var values: [Value] { lock.withLock { slots.map { $0! } } }
    }
}

extension Library {
    /// Every photo whose original is missing, unreadable, or holds bytes
    /// other than the photo's (by size, then SHA-256), in photo id order:
    /// the copy the library keeps where it keeps one, else the source.
    ///
    /// Reads every original once, on all cores: as long as reading the files.
    /// Photos kept in a bucket are left to ``checkOriginals()``.
    public func checkSources() throws -> [SourceProblem] {
        var photos = try read { try $0.photos() }
        var locations = try photos.map { try originalLocation(of: $0) }
        (photos, locations) = (zip(photos, locations).filter { $1.filePath != nil }.map(\.0), locations.filter { $0.filePath != nil })
        let issues = FileDigest.concurrentMap(Array(zip(photos, locations))) { photo, location -> SourceProblem.Issue? in
            guard let path = location.filePath else { return nil }
            // A different size needs no hashing.
            if let size = FileSize.of(path), size != photo.content.byteCount { return .changed }
            switch FileDigest.of(path) {
            case .missing: return .missing
            case .unreadable(let reason): return .unreadable(reason)
            case .digest(let digest, _): return digest == photo.content.sha256 ? nil : .changed
            }
        }
        var problems = zip(zip(photos, locations), issues).compactMap { photo, issue in
            issue.map { SourceProblem(photo: photo.0, issue: $0, location: photo.1) }
        }
        // A Live Photo's motion is read from its copy kept beside its still's, else from where it was found.
        let live = try read { reader in
            try reader.photos().compactMap { photo -> (Photo, OriginalLocation)? in
                guard let location = try reader.motionLocation(of: photo), location.filePath != nil else { return nil }
                return (photo, location)
            }
        }
        let motionIssues = FileDigest.concurrentMap(live) { photo, location -> SourceProblem.Issue? in
            guard let motion = photo.content.motion, let path = location.filePath else { return nil }
            if let size = FileSize.of(path), size != motion.byteCount { return .changed }
            switch FileDigest.of(path) {
            case .missing: return .missing
            case .unreadable(let reason): return .unreadable(reason)
            case .digest(let digest, _): return digest == motion.sha256 ? nil : .changed
            }
        }
        for ((photo, location), issue) in zip(live, motionIssues) {
            guard let issue else { continue }
            var problem = SourceProblem(photo: photo, issue: issue, location: location)
            problem.isMotion = true
            problems.append(problem)
        }
        return problems
    }

    /// Every photo whose original is missing, unreadable, or holds bytes
    /// other than the photo's, wherever it is kept: ``checkSources()``, and
    /// each copy kept in a bucket read back (a part at a time) and hashed.
    ///
    /// - Throws: ``KeepingFailure/unreachable(place:)`` when a bucket holds
    ///   some and this program does not reach buckets.
    public func checkOriginals() async throws -> [SourceProblem] {
        var problems = try checkSources()
        let inBuckets = try await read { reader in
            try reader.photos().filter { $0.content.keptIn != nil }.compactMap { photo -> (Photo, OriginalLocation, OriginalLocation?)? in
                let location = try reader.originalLocation(of: photo)
                guard case .keptObject = location else { return nil }
                return (photo, location, try photo.motionAsOriginal.map { try reader.originalLocation(of: $0) })
            }
        }
        for (photo, location, motionLocation) in inBuckets {
            guard case .keptObject(_, let place) = location else { continue }
            let keeper = try OriginalKeepers.keeper(for: place)
            if let issue = await Self.issue(with: photo, in: keeper) { problems.append(SourceProblem(photo: photo, issue: issue, location: location)) }
            // Its motion, kept beside it under its own digest.
            if let motion = photo.motionAsOriginal, let motionLocation, let issue = await Self.issue(with: motion, in: keeper) {
                var problem = SourceProblem(photo: photo, issue: issue, location: motionLocation)
                problem.isMotion = true
                problems.append(problem)
            }
        }
        return problems.sorted { $0.photo.id < $1.photo.id }
    }

    /// What is wrong with the copy `keeper` holds of `photo`, read a part at a time; nil when it is whole.
    private static func issue(with photo: Photo, in keeper: any OriginalKeeper) async -> SourceProblem.Issue? {
        do {
            guard let size = try await keeper.size(of: photo.content) else { return .missing }
            guard size == photo.content.byteCount else { return .changed }
            var hash = SHA256()
            try await keeper.parts(of: photo.content, in: nil).forEach { hash.update(data: $0) }
            return Data(hash.finalize()) == photo.content.sha256 ? nil : .changed
        } catch KeepingFailure.missing {
            return .missing
        } catch {
            return .unreadable((error as? KeepingFailure)?.description ?? "\(error)")
        }
    }

    /// Finds, in `folders`, the files that hold the bytes of photos whose
    /// source is missing or changed, and records them as those photos' sources.
    /// A missing or damaged copy the library keeps (in a folder or a
    /// bucket) is written again from the file found, verified, as
    /// `import --copy` wrote it.
    ///
    /// The SHA-256 is the identity: a file is hashed only when its size is
    /// a sought photo's, and the first file (in name order) with a photo's
    /// bytes becomes its source.
    ///
    /// - Returns: The photos relinked, and the problems left.
    public func relinkSources(searching folders: [String], recursive: Bool, dryRun: Bool = false) async throws
        -> (relinked: [Relinked], remaining: [SourceProblem])
    {
        // A Live Photo's motion is found again with its still (not by its own bytes): left as it is.
        let problems = try await checkOriginals().filter { !$0.isMotion }
        var sought: [Int64: [SourceProblem]] = [:]
        for problem in problems { sought[problem.photo.content.byteCount, default: []].append(problem) }
        let files = ImportSources.expand(folders, recursive: recursive).files.filter { path in
            FileSize.of(path).map { sought[$0] != nil } ?? false
        }
        let digests = FileDigest.concurrentMap(files) { FileDigest.of($0) }
        var found: [PhotoID: String] = [:]
        for (path, outcome) in zip(files, digests) {
            guard case .digest(let digest, let size) = outcome else { continue }
            for problem in sought[size] ?? [] where problem.photo.content.sha256 == digest && found[problem.photo.id] == nil {
                found[problem.photo.id] = path
            }
        }
        var relinked: [Relinked] = []
        var left = problems.filter { found[$0.photo.id] == nil }
        for problem in problems {
            guard let path = found[problem.photo.id] else { continue }
            let place: StoragePlace
            switch problem.location {
            case .source:
                relinked.append(Relinked(photoID: problem.photo.id, oldSource: problem.photo.content.sourcePath, newSource: path))
                continue
            case .keptFile(_, let kept), .keptObject(_, let kept):
                place = kept
            }
            // The copy is the library's own: written again from what was found, the source stays.
            if !dryRun {
                do {
                    try await OriginalKeepers.keeper(for: place).restore(fileAt: path, as: problem.photo.content)
                } catch {
                    left.append(SourceProblem(photo: problem.photo, issue: .unreadable(error.description), location: problem.location))
                    continue
                }
            }
            relinked.append(Relinked(photoID: problem.photo.id, oldSource: problem.location.description, newSource: path, restoredCopy: true))
        }
        let newSources = relinked.filter { !$0.restoredCopy }
        try await write(dryRun: dryRun) { writer in
            for link in newSources { try writer.setSource(of: link.photoID, to: link.newSource) }
        }
        return (relinked, left.sorted { $0.photo.id < $1.photo.id })
    }
}

/// A placeholder whose file was found somewhere else.
public struct RelinkedPlaceholder: Hashable, Sendable {
    /// The placeholder, in its slot.
    public let placeholder: AlbumItemID
    /// Where its load looked.
    public let oldSource: String
    /// Where its file is now.
    public let newSource: String
}

extension Library {
    /// Finds, in `folders`, the files of stale placeholders whose source is
    /// missing (an import's originals on a drive since moved or renamed), by
    /// their file name, which is all a placeholder knows of them: a name
    /// found once is theirs; a name found in several places is left alone
    /// (listed as still missing), as guessing could put the wrong photo in the slot.
    ///
    /// - Returns: The placeholders matched, and those still missing.
    public func findPlaceholderSources(searching folders: [String], recursive: Bool) throws
        -> (found: [RelinkedPlaceholder], missing: [PendingPlaceholder])
    {
        let lost = try read { try $0.pendingPlaceholders() }.filter { $0.isStale && FileSize.of($0.load.source) == nil }
        guard !lost.isEmpty else { return ([], []) }
        var byName: [String: [String]] = [:]
        for file in ImportSources.expand(folders, recursive: recursive).files {
            byName[(file as NSString).lastPathComponent, default: []].append(file)
        }
        var found: [RelinkedPlaceholder] = []
        var missing: [PendingPlaceholder] = []
        for placeholder in lost {
            let candidates = byName[(placeholder.load.source as NSString).lastPathComponent] ?? []
            if candidates.count == 1 {
                found.append(RelinkedPlaceholder(placeholder: placeholder.id, oldSource: placeholder.load.source, newSource: candidates[0]))
            } else {
                missing.append(placeholder)
            }
        }
        return (found, missing)
    }

    /// Points placeholders at where their files are now and loads them into
    /// their slots, as ``findPlaceholderSources(searching:recursive:)`` found them.
    ///
    /// A load begun to keep a copy (`import --copy`) keeps it with `keeper`.
    ///
    /// - Returns: What the loads did, by the new sources.
    public func loadPlaceholders(_ found: [RelinkedPlaceholder], keeper: (any OriginalKeeper)? = nil) async throws -> LoadReport {
        guard !found.isEmpty else { return LoadReport() }
        let copying = try await write { writer in
            try writer.retargetPlaceholders(Dictionary(found.map { ($0.placeholder, $0.newSource) }) { a, _ in a })
            return Set(try writer.pendingPlaceholders().filter(\.load.keepsCopy).map(\.id))
        }
        return await LoadRunner(session: TransferSession(library: self), keeper: keeper).run(
            found.map { LoadRunner.Load(placeholder: $0.placeholder, source: $0.newSource, keepsCopy: copying.contains($0.placeholder)) })
    }
}

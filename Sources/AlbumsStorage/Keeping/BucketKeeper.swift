import AlbumsImporting
import AlbumsPersistence
import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps copies of originals in a bucket of an S3-compatible service, each
/// object named by its content (``StoragePlace/objectName(of:)``), with the
/// photo's media type.
///
/// Every request carries the SHA-256 of its body in its signature, so the
/// service itself refuses bytes that are not what was read; what was read
/// is checked against the photo's SHA-256 before an upload is finished. A
/// file up to ``partSize`` goes in one PUT (sent again if it is there
/// already: one request either way, and the same bytes under the same
/// name); a larger one, unless the bucket holds it already, in parts of
/// that size, the upload given up (its parts deleted) if anything fails, so
/// no object is ever half there.
package struct BucketKeeper: OriginalKeeper {
    package let place: StoragePlace
    let bucket: S3Bucket
    let prefix: String

    /// Files above this go up in parts of this size (S3 asks at least 5 MiB of each part but the last).
    package static let partSize = 16 << 20

    /// A keeper of the bucket `place` names, signing with `credentials`.
    package init?(place: StoragePlace, credentials: S3Credentials, transport: any S3Transport = HTTPTransport(), retries: S3Retries = S3Retries()) {
        guard case .bucket(let address) = place.kind, let endpoint = URL(string: address.endpoint), endpoint.host != nil else { return nil }
        self.place = place
        self.prefix = address.prefix
        self.bucket = S3Bucket(endpoint: endpoint, name: address.name, credentials: credentials, region: address.region, transport: transport, retries: retries)
    }

    /// The keeper of `place` with the keys of this process's environment
    /// (or `~/.aws/credentials`): what `albums-serve` installs.
    ///
    /// - Throws: ``KeepingFailure/unavailable(place:detail:)`` when no keys are found.
    package static func fromEnvironment(_ place: StoragePlace) throws(KeepingFailure) -> any OriginalKeeper {
        let credentials: S3Credentials
        do {
            credentials = try S3Credentials.found(in: S3Credentials.processEnvironment(), homeFolder: S3Credentials.homeFolder())
        } catch {
            throw .unavailable(place: place.description, detail: error.description)
        }
        guard let keeper = BucketKeeper(place: place, credentials: credentials) else {
            throw .unavailable(place: place.description, detail: "its endpoint is no URL")
        }
        return keeper
    }

    /// Whether the bucket answers to these keys: a listing of at most one key.
    package func check() async throws(KeepingFailure) {
        do {
            _ = try await bucket.keys(prefix: prefix, pageSize: 1, pages: 1)
        } catch {
            throw .unavailable(place: place.description, detail: error.description)
        }
    }

    package func keep(fileAt path: String, as content: PhotoContent) async throws(KeepingFailure) {
        // Asked first only of a large file: a name is its content, so a small one is sent again rather than asked after.
        if content.byteCount > Int64(Self.partSize), try await size(of: content) == content.byteCount { return }
        try await restore(fileAt: path, as: content)
    }

    package func restore(fileAt path: String, as content: PhotoContent) async throws(KeepingFailure) {
        guard let name = place.objectName(of: content) else { return }
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .unreadable(path: path, detail: String(cString: strerror(errno))) }
        defer { close(input) }
        if content.byteCount <= Int64(Self.partSize) {
            let bytes = try Self.read(input, upTo: Self.partSize + 1, path: path)
            guard Int64(bytes.count) == content.byteCount, Data(SHA256.hash(data: bytes)) == content.sha256 else { throw .changed(path: path) }
            do {
                try await bucket.put(name, bytes: bytes, contentType: content.mediaType)
            } catch {
                throw .unwritable(place: place.description, detail: error.description)
            }
            return
        }
        try await upload(input, path: path, as: content, to: name)
    }

    package func keep(_ bytes: Data, as content: PhotoContent) async throws(KeepingFailure) {
        guard let name = place.objectName(of: content) else { return }
        guard Int64(bytes.count) == content.byteCount else { throw .changed(path: content.sourcePath) }
        do {
            if bytes.count <= Self.partSize {
                // The SHA-256 the load took is the payload's: signed, and checked by the service.
                try await bucket.put(name, bytes: bytes, contentType: content.mediaType, sha256Hex: content.sha256Hex)
                return
            }
        } catch {
            throw .unwritable(place: place.description, detail: error.description)
        }
        // Larger: in parts, as from a file.
        let staged = FileManager.default.temporaryDirectory.appending(path: "albums-\(content.sha256Hex)-\(getpid())").path
        guard FileManager.default.createFile(atPath: staged, contents: bytes) else {
            throw .unwritable(place: "a temporary file", detail: "cannot write \(staged)")
        }
        defer { unlink(staged) }
        try await keep(fileAt: staged, as: content)
    }

    /// Gives up the unfinished uploads of `name` a killed process left (its
    /// parts would be paid for and never used): the copy is named by its
    /// content, so whatever upload finishes holds the same bytes. One of
    /// another process sending the same file at this moment fails, and that
    /// load waits for `pending resume`, which finds the copy there. A listing
    /// that fails is no failure: the upload goes on.
    private func giveUpEarlierUploads(of name: String) async {
        guard let uploads = try? await bucket.unfinishedUploads(prefix: name) else { return }
        for upload in uploads where upload.key == name { try? await bucket.abortUpload(name, id: upload.id) }
    }

    /// A large file in parts, its SHA-256 taken as the parts are read; the
    /// upload is finished only when it is the photo's.
    private func upload(_ input: Int32, path: String, as content: PhotoContent, to name: String) async throws(KeepingFailure) {
        await giveUpEarlierUploads(of: name)
        let id: String
        do {
            id = try await bucket.startUpload(name, contentType: content.mediaType)
        } catch {
            throw .unwritable(place: place.description, detail: error.description)
        }
        do {
            var hash = SHA256()
            var parts: [(number: Int, etag: String)] = []
            var total: Int64 = 0
            while true {
                let part = try Self.read(input, upTo: Self.partSize, path: path)
                if part.isEmpty { break }
                hash.update(data: part)
                total += Int64(part.count)
                guard total <= content.byteCount else { throw KeepingFailure.changed(path: path) }
                do {
                    parts.append((parts.count + 1, try await bucket.uploadPart(name, id: id, number: parts.count + 1, bytes: part)))
                } catch {
                    throw KeepingFailure.unwritable(place: place.description, detail: error.description)
                }
            }
            guard total == content.byteCount, Data(hash.finalize()) == content.sha256 else { throw KeepingFailure.changed(path: path) }
            do {
                try await bucket.finishUpload(name, id: id, parts: parts)
            } catch {
                throw KeepingFailure.unwritable(place: place.description, detail: error.description)
            }
        } catch let failure as KeepingFailure {
            try? await bucket.abortUpload(name, id: id)
            throw failure
        } catch {
            try? await bucket.abortUpload(name, id: id)
            throw .unwritable(place: place.description, detail: String(describing: error))
        }
    }

    /// Up to `count` bytes from `input`, fewer only at its end.
    private static func read(_ input: Int32, upTo count: Int, path: String) throws(KeepingFailure) -> Data {
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            let got = data.withUnsafeMutableBytes { buffer in systemRead(input, buffer.baseAddress.map { $0 + filled }, count - filled) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, detail: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            filled += got
        }
        data.count = filled
        return data
    }

    /// One GET for the whole range, its body passed on as it arrives.
    package func parts(of content: PhotoContent, in range: ClosedRange<Int64>?) async throws(KeepingFailure) -> KeptBytes {
        guard let name = place.objectName(of: content) else { throw .missing(place: place.description, name: content.sha256Hex) }
        do {
            return KeptBytes(try await bucket.objectParts(name, range: range), place: place.description)
        } catch .refused(404, _, _) {
            throw .missing(place: place.description, name: name)
        } catch {
            throw .unavailable(place: place.description, detail: error.description)
        }
    }

    package func remove(_ content: PhotoContent) async throws(KeepingFailure) {
        guard let name = place.objectName(of: content) else { return }
        do {
            try await bucket.remove(name)
        } catch {
            throw .unwritable(place: place.description, detail: error.description)
        }
    }

    package func size(of content: PhotoContent) async throws(KeepingFailure) -> Int64? {
        guard let name = place.objectName(of: content) else { return nil }
        do {
            return try await bucket.info(name)?.size
        } catch {
            throw .unavailable(place: place.description, detail: error.description)
        }
    }

    package func bytes(of content: PhotoContent, in range: ClosedRange<Int64>?) async throws(KeepingFailure) -> Data {
        guard let name = place.objectName(of: content) else { throw .missing(place: place.description, name: content.sha256Hex) }
        do {
            return try await bucket.object(name, range: range)
        } catch .refused(404, _, _) {
            throw .missing(place: place.description, name: name)
        } catch {
            throw .unavailable(place: place.description, detail: error.description)
        }
    }
}

/// The system's `read(2)`, by a name no method of the keeper shadows.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

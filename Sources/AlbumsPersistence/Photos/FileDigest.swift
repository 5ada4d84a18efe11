import Crypto
import Foundation

/// The SHA-256 of a file's bytes, read a few megabytes at a time: a
/// video is gigabytes, and several files are hashed at once.
package enum FileDigest {
    package enum Outcome: Equatable, Sendable {
        case digest(Data, byteCount: Int64)
        case missing
        case unreadable(String)
    }

    /// How much is read at once.
    static let chunkSize = 1 << 22

    package static func of(_ path: String) -> Outcome {
        guard FileManager.default.fileExists(atPath: path) else { return .missing }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .unreadable("cannot be opened") }
        defer { try? handle.close() }
        var hash = SHA256()
        var byteCount: Int64 = 0
        do {
            while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
                hash.update(data: chunk)
                byteCount += Int64(chunk.count)
            }
        } catch {
            return .unreadable(LibraryError.describeFileError(error))
        }
        return .digest(Data(hash.finalize()), byteCount: byteCount)
    }
}

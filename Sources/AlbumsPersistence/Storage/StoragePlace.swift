import Foundation

/// A bucket of an S3-compatible service: where it is, never how to sign for it.
public struct BucketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The bucket's name.
    public var name: String
    /// The service's base URL (`https://s3.eu-west-1.amazonaws.com`, `http://127.0.0.1:9000`).
    public var endpoint: String
    /// The region requests are signed for (`us-east-1` where the service has none).
    public var region: String
    /// Prepended to every object name: empty, or ending in `/`.
    public var prefix: String

    /// A bucket at `endpoint`, its objects named under `prefix`.
    public init(name: String, endpoint: String, region: String, prefix: String = "") {
        self.name = name
        self.endpoint = endpoint
        self.region = region
        self.prefix = prefix
    }

    /// `s3://bucket/prefix/ at endpoint`.
    public var description: String { "s3://\(name)/\(prefix) at \(endpoint)" }
}

/// A place where a library keeps copies of its originals, beyond the files
/// it refers to: a folder it manages, or a bucket.
///
/// A copy is named by its content: the first two hexadecimal digits of its
/// SHA-256, a slash, all 64, and the extension of its type
/// (``keptName(sha256Hex:mediaType:)``). So a name means the same bytes in
/// every place, a photo imported twice is kept once, and a copy moved
/// between places keeps its name.
public struct StoragePlace: Identifiable, Hashable, Sendable, CustomStringConvertible {
    /// What kind of place, and where.
    public enum Kind: Hashable, Sendable {
        /// A folder on this machine (an absolute path).
        case folder(String)
        /// A bucket of an S3-compatible service.
        case bucket(BucketAddress)
    }

    public let id: StoragePlaceID
    /// What kind of place, and where.
    public let kind: Kind
    /// When the library was told to keep its copies there.
    public let chosenAt: Date

    /// A place as read from the library.
    public init(id: StoragePlaceID, kind: Kind, chosenAt: Date) {
        self.id = id
        self.kind = kind
        self.chosenAt = chosenAt
    }

    /// `folder /path` or `bucket s3://name/prefix at endpoint`.
    public var description: String {
        switch kind {
        case .folder(let path): "folder \(path)"
        case .bucket(let bucket): "bucket \(bucket)"
        }
    }

    /// The name a copy of these bytes has in any place: `ab/abcd….jpg`.
    public static func keptName(sha256Hex: String, mediaType: String) -> String {
        let fileExtension = Self.fileExtensions[mediaType].map { "." + $0 } ?? ""
        return "\(sha256Hex.prefix(2))/\(sha256Hex)\(fileExtension)"
    }

    /// The path of a copy of `content` in this place, if it is a folder.
    public func path(of content: PhotoContent) -> String? {
        guard case .folder(let folder) = kind else { return nil }
        return folder + "/" + Self.keptName(sha256Hex: content.sha256Hex, mediaType: content.mediaType)
    }

    /// The object name of a copy of `content` in this place, if it is a bucket.
    public func objectName(of content: PhotoContent) -> String? {
        guard case .bucket(let bucket) = kind else { return nil }
        return bucket.prefix + Self.keptName(sha256Hex: content.sha256Hex, mediaType: content.mediaType)
    }

    /// One extension per type, so that the same bytes get the same name
    /// whichever file name they came in under (`.JPG`, `.jpeg`).
    private static let fileExtensions: [String: String] = [
        "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp", "image/tiff": "tif",
        "image/heic": "heic", "image/heif": "heif", "image/avif": "avif",
        "video/mp4": "mp4", "video/quicktime": "mov", "video/x-m4v": "m4v", "video/3gpp": "3gp", "video/webm": "webm",
        "video/x-matroska": "mkv", "video/x-msvideo": "avi", "video/mpeg": "mpg",
    ]
}

/// Where a photo's original is read from.
public enum OriginalLocation: Hashable, Sendable {
    /// Only the file the library refers to holds it, at this path.
    case source(String)
    /// A copy the library keeps in a folder, at this path.
    case keptFile(String, place: StoragePlace)
    /// A copy the library keeps in a bucket, under this object name.
    case keptObject(String, place: StoragePlace)

    /// The path to read the bytes from, unless they are in a bucket.
    public var filePath: String? {
        switch self {
        case .source(let path), .keptFile(let path, _): path
        case .keptObject: nil
        }
    }

    /// Where it is, in a few words: the path, or `s3://bucket/name`.
    public var description: String {
        switch self {
        case .source(let path), .keptFile(let path, _): path
        case .keptObject(let name, let place):
            if case .bucket(let bucket) = place.kind { "s3://\(bucket.name)/\(name)" } else { name }
        }
    }
}

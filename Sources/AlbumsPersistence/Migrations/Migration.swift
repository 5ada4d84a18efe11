import Crypto
import Foundation

/// One numbered schema change: the text of a `migrations/NNNN_name.sql` file.
public struct Migration: Sendable, Hashable {
    /// The number the file name starts with; the schema version once applied.
    public let version: Int
    /// The rest of the file name, without the extension.
    public let name: String
    /// The SQL, exactly as in the file.
    public let sql: String

    /// The SHA-256 of ``sql``'s UTF-8 bytes, as 64 lowercase hexadecimal digits.
    public let checksum: String

    /// A migration of a number, a name and its SQL.
    public init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name, sql: sql, checksum: Self.checksum(of: sql))
    }

    /// A migration whose checksum is already known: the embedded ones,
    /// listed in `migrations/SHA256SUMS`.
    package init(version: Int, name: String, sql: String, checksum: String) {
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = checksum
    }

    /// Makes a migration from a file name such as `0002_add_tags.sql` and its text,
    /// or returns nil if the name does not have that form.
    public init?(fileName: String, sql: String) {
        self.init(fileName: fileName, sql: sql, checksum: Self.checksum(of: sql))
    }

    /// As ``init(fileName:sql:)``, with the checksum already known.
    package init?(fileName: String, sql: String, checksum: String) {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(4)
        guard let underscore = stem.firstIndex(of: "_"),
            let version = Int(stem[..<underscore]), version > 0
        else { return nil }
        self.init(version: version, name: String(stem[stem.index(after: underscore)...]), sql: sql, checksum: checksum)
    }

    /// The SHA-256 of `sql`'s UTF-8 bytes, as 64 lowercase hexadecimal digits.
    package static func checksum(of sql: String) -> String {
        HexDigits.string(SHA256.hash(data: Array(sql.utf8)))
    }
}

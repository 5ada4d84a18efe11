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
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = HexDigits.string(SHA256.hash(data: Array(sql.utf8)))
    }

    /// Makes a migration from a file name such as `0002_add_tags.sql` and its text,
    /// or returns nil if the name does not have that form.
    public init?(fileName: String, sql: String) {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(4)
        guard let underscore = stem.firstIndex(of: "_"),
            let version = Int(stem[..<underscore]), version > 0
        else { return nil }
        self.init(version: version, name: String(stem[stem.index(after: underscore)...]), sql: sql)
    }
}

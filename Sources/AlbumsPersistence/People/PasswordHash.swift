import HummingbirdBcrypt
import Synchronization

/// A password as the file keeps it: a bcrypt hash, never the password.
///
/// bcrypt is slow on purpose (cost 12: about a quarter of a second here),
/// so a stolen file's hashes cost a guesser as much per guess.
///
/// ```swift
/// let hash = try PasswordHash(password: "correct horse battery")
/// hash.matches("correct horse battery")  // true
/// ```
public struct PasswordHash: Hashable, Sendable {
    /// The hash in bcrypt's own text form (`$2b$12$…`): salt and cost included.
    public let text: String

    /// The fewest characters a password holds.
    public static let minimumLength = 8
    /// bcrypt reads 72 bytes at most; a longer password would be cut silently.
    public static let maximumBytes = 72
    /// The work factor new hashes get.
    public static let defaultCost: UInt8 = 12

    /// Hashes `password` with a fresh random salt.
    ///
    /// - Parameter cost: bcrypt's work factor (each step doubles the time);
    ///   tests use the lowest, 4.
    /// - Throws: ``LibraryError/invalidPassword(reason:)`` for a password too short or too long.
    public init(password: String, cost: UInt8 = PasswordHash.defaultCost) throws(LibraryError) {
        if let problem = Self.problem(with: password) { throw LibraryError.invalidPassword(reason: problem) }
        text = Bcrypt.hash(password, cost: cost)
    }

    /// A hash as read from the file.
    init(text: String) {
        self.text = text
    }

    /// Why `password` cannot be used, or nil when it can.
    public static func problem(with password: String) -> String? {
        if password.count < minimumLength { return "it needs at least \(minimumLength) characters" }
        if password.utf8.count > maximumBytes { return "it holds more than \(maximumBytes) bytes, and bcrypt would read only the first \(maximumBytes)" }
        return nil
    }

    /// Whether `password` is the one hashed.
    public func matches(_ password: String) -> Bool {
        password.utf8.count <= Self.maximumBytes && Bcrypt.verify(password, hash: text)
    }

    /// The work factor written in the hash (`$2b$12$…`: 12), or nil when
    /// the text is not a bcrypt hash.
    package var cost: UInt8? {
        let fields = text.split(separator: "$", omittingEmptySubsequences: true)
        guard fields.count >= 2, let cost = UInt8(fields[1]), (4...31).contains(cost) else { return nil }
        return cost
    }

    /// A hash no password matches whose check costs what checking `like`
    /// costs (``defaultCost`` without one): what a sign-in with an unknown
    /// name is checked against, so that timing does not tell which names exist.
    package static func decoy(costing like: PasswordHash?) -> PasswordHash {
        let cost = like?.cost ?? defaultCost
        return decoys.withLock { decoys in
            if let decoy = decoys[cost] { return decoy }
            let decoy = PasswordHash(text: Bcrypt.hash("albums-decoy-password-\(UInt64.random(in: 0...UInt64.max))", cost: cost))
            decoys[cost] = decoy
            return decoy
        }
    }

    /// One decoy per cost, made when first needed.
    private static let decoys = Mutex<[UInt8: PasswordHash]>([:])
}

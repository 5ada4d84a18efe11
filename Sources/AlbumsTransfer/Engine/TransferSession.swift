import AlbumsPersistence
import Foundation

/// A host app's handle on a library for drag and drop: propose while the
/// drag moves, perform on drop, and hear about every committed change,
/// whoever made it.
///
/// ```swift
/// let session = TransferSession(library: try Library.open(at: path))
/// let changes = try await session.changes()
/// Task {
///     for await change in changes {
///         // the "conclude drop" moment: animate change.changeSets in one batch update
///     }
/// }
/// if try await session.propose(drop).isAllowed { try await session.perform(drop) }
/// ```
///
/// The `async` methods wait for the library without blocking a thread of
/// Swift's cooperative pool; the synchronous ones suit command-line tools.
public final class TransferSession: Sendable {
    /// The library the session works on.
    public let library: Library
    /// Whose rights every proposal and operation of this session is checked
    /// against, and whom the history records as making its changes.
    public let principal: Principal

    /// A session acting for `principal`: the file's holder (never checked)
    /// unless a server says which person or share link is asking.
    public init(library: Library, acting principal: Principal = .holder) {
        self.library = library
        self.principal = principal
    }

    // MARK: - Access as the principal

    /// Reads as ``principal``: what it cannot see is not found.
    public func read<T: Sendable>(_ body: @escaping @Sendable (LibraryReader) throws -> T) async throws -> T {
        let principal = principal
        return try await library.read { reader in try body(Self.acting(reader, as: principal)) }
    }

    /// Reads as ``principal``, blocking the calling thread.
    public func read<T>(_ body: (LibraryReader) throws -> T) throws -> T {
        try library.read { reader in try body(Self.acting(reader, as: principal)) }
    }

    /// Writes as ``principal``, committed or (with `dryRun`) rolled back.
    @discardableResult
    public func write<T: Sendable>(dryRun: Bool = false, _ body: @escaping @Sendable (LibraryWriter) throws -> T) async throws -> T {
        let principal = principal
        return try await library.write(dryRun: dryRun) { writer in try body(Self.acting(writer, as: principal)) }
    }

    /// Writes as ``principal``, blocking the calling thread.
    @discardableResult
    public func write<T>(dryRun: Bool = false, _ body: (LibraryWriter) throws -> T) throws -> T {
        try library.write(dryRun: dryRun) { writer in try body(Self.acting(writer, as: principal)) }
    }

    /// `access`, acting for `principal` (the holder's access is never checked).
    private static func acting<Access: LibraryReader>(_ access: Access, as principal: Principal) -> Access {
        if principal != .holder { access.act(as: principal) }
        return access
    }

    // MARK: - Asynchronous

    /// Says what `operation` would do, without writing (see ``LibraryReader/propose(_:)``).
    public func propose(_ operation: TransferOperation) async throws -> Proposal {
        try await read { try $0.propose(operation) }
    }

    /// Says what a library operation would do, without writing: the same
    /// checks as performing it, in a read transaction (see
    /// ``LibraryReader/propose(_:)-(LibraryOperation)``).
    public func propose(_ operation: LibraryOperation) async throws -> Proposal {
        try await read { try $0.propose(operation) }
    }

    /// Performs `operation` in its own transaction, or with `dryRun` in a
    /// transaction rolled back: the same checks and change sets, nothing written.
    ///
    /// - Throws: ``LibraryError``: a refusal (nothing written) or a failing file.
    @discardableResult
    public func perform(_ operation: TransferOperation, dryRun: Bool = false) async throws -> TransferResult {
        try await write(dryRun: dryRun) { try $0.perform(operation) }
    }

    /// Performs a library operation (on items, albums or folders) in its own
    /// transaction, rolled back with `dryRun`.
    ///
    /// - Throws: ``LibraryError``: a refusal (nothing written) or a failing file.
    @discardableResult
    public func perform(_ operation: LibraryOperation, dryRun: Bool = false) async throws -> TransferResult {
        try await write(dryRun: dryRun) { try $0.perform(operation) }
    }

    /// Performs `operations` in one transaction: all of them, or, if one is
    /// refused, none.
    ///
    /// - Throws: ``BatchRefusal`` naming the first refused operation, or ``LibraryError``.
    @discardableResult
    public func perform(batch operations: [LibraryOperation], dryRun: Bool = false) async throws -> [TransferResult] {
        try await write(dryRun: dryRun) { try $0.perform(batch: operations) }
    }

    /// Every committed transaction's change sets, from this session, another
    /// connection or another process, as ``principal`` may hear them (see
    /// ``Library/changes(heardBy:pollingInterval:)``): whole for the
    /// holder; for a person or a share link, narrowed to what they see as
    /// each change arrives, and ending once they may open nothing, as the
    /// server's stream is.
    public func changes(pollingInterval: Double = 0.25) async throws -> HeardChanges {
        try await library.changes(heardBy: .acting(principal), pollingInterval: pollingInterval)
    }

    // MARK: - Synchronous

    /// Says what `operation` would do, without writing.
    public func propose(_ operation: TransferOperation) throws -> Proposal {
        try read { try $0.propose(operation) }
    }

    /// Says what a library operation would do, without writing.
    public func propose(_ operation: LibraryOperation) throws -> Proposal {
        try read { try $0.propose(operation) }
    }

    /// Performs `operation` in its own transaction (rolled back with `dryRun`).
    ///
    /// - Throws: ``LibraryError``: a refusal (nothing written) or a failing file.
    @discardableResult
    public func perform(_ operation: TransferOperation, dryRun: Bool = false) throws -> TransferResult {
        try write(dryRun: dryRun) { try $0.perform(operation) }
    }

    /// Performs a library operation (on items, albums or folders) in its own
    /// transaction, rolled back with `dryRun`.
    ///
    /// - Throws: ``LibraryError``: a refusal (nothing written) or a failing file.
    @discardableResult
    public func perform(_ operation: LibraryOperation, dryRun: Bool = false) throws -> TransferResult {
        try write(dryRun: dryRun) { try $0.perform(operation) }
    }

    /// Performs `operations` in one transaction: all of them or none.
    ///
    /// - Throws: ``BatchRefusal`` naming the first refused operation, or ``LibraryError``.
    @discardableResult
    public func perform(batch operations: [LibraryOperation], dryRun: Bool = false) throws -> [TransferResult] {
        try write(dryRun: dryRun) { try $0.perform(batch: operations) }
    }
}

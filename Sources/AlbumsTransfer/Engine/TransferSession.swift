import AlbumsPersistence
import Foundation
import Synchronization

/// A host app's handle on a library for drag and drop: propose while the
/// drag moves, perform on drop, and hear about every committed change.
///
/// ```swift
/// let session = TransferSession(library: try Library.open(at: path))
/// let token = session.observeChanges { changes in
///     // the "conclude drop" moment: animate `changes` in one batch update
/// }
/// if session.propose(drop).isAllowed { try session.perform(drop) }
/// ```
public final class TransferSession: Sendable {
    public let library: Library
    private let state: Mutex<State>

    private struct State {
        var observers: [UUID: @Sendable ([AlbumChangeSet]) -> Void] = [:]
        var lastExternalToken: Int?
    }

    public init(library: Library) {
        self.library = library
        self.state = Mutex(State())
    }

    /// Says what `operation` would do, without writing (see ``LibraryReader/propose(_:)``).
    public func propose(_ operation: TransferOperation) throws -> Proposal {
        try library.read { try $0.propose(operation) }
    }

    /// Performs `operation` in its own transaction and, once it is
    /// committed, hands its change sets to every observer.
    ///
    /// - Throws: ``TransferRefusal`` (nothing written) or ``LibraryError``.
    @discardableResult
    public func perform(_ operation: TransferOperation) throws -> [AlbumChangeSet] {
        let changes = try library.write { try $0.perform(operation) }
        notify(changes)
        return changes
    }

    /// Performs `operations` in one transaction: all of them, or, if one is
    /// refused, none. Observers hear the change sets of each, in order.
    ///
    /// - Throws: ``BatchRefusal`` naming the first refused operation, or ``LibraryError``.
    @discardableResult
    public func perform(batch operations: [TransferOperation]) throws -> [[AlbumChangeSet]] {
        let changes = try library.write { try $0.perform(batch: operations) }
        for operationChanges in changes { notify(operationChanges) }
        return changes
    }

    /// Registers `handler` for the change sets of each committed operation
    /// of this session. Keep the token: the handler stays until it is released.
    public func observeChanges(_ handler: @escaping @Sendable ([AlbumChangeSet]) -> Void) -> ObservationToken {
        let id = UUID()
        state.withLock { $0.observers[id] = handler }
        return ObservationToken { [weak self] in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
    }

    /// Whether another process committed to the file since the previous
    /// call (false on the first call). Reload what you show when it did.
    public func fileChangedElsewhere() throws -> Bool {
        let token = try library.externalChangeToken()
        return state.withLock { state in
            defer { state.lastExternalToken = token }
            return state.lastExternalToken.map { $0 != token } ?? false
        }
    }

    func notify(_ changes: [AlbumChangeSet]) {
        guard !changes.isEmpty else { return }
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { observer(changes) }
    }
}

/// Keeps an observation alive; releasing it (or calling ``cancel()``) ends it.
public final class ObservationToken: Sendable {
    private let cancellation: Mutex<(@Sendable () -> Void)?>

    init(_ cancel: @escaping @Sendable () -> Void) {
        cancellation = Mutex(cancel)
    }

    public func cancel() {
        let cancel = cancellation.withLock { current in
            defer { current = nil }
            return current
        }
        cancel?()
    }

    deinit { cancel() }
}

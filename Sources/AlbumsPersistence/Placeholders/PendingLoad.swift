import Foundation

/// Where a placeholder's load reads from and which process owns it.
public struct PendingLoad: Hashable, Sendable {
    /// What the load reads: a path, or a URL or token a host app's loader understands.
    public var source: String
    /// The process running the load: a placeholder whose owner is gone is stale.
    public var owner: LoadOwner
    /// When the placeholder was inserted (stored to the millisecond).
    public var createdAt: Date
    /// Whether the load keeps a copy of what it reads where the library
    /// keeps its originals (`import --copy`), resumed or not.
    public var keepsCopy: Bool

    /// A load of `source` owned by this process, starting now.
    public init(source: String, keepsCopy: Bool = false) {
        self.init(source: source, owner: .current, createdAt: Date(), keepsCopy: keepsCopy)
    }

    /// A load of `source` by `owner`, begun at `createdAt`.
    public init(source: String, owner: LoadOwner, createdAt: Date, keepsCopy: Bool = false) {
        self.source = source
        self.owner = owner
        self.createdAt = createdAt
        self.keepsCopy = keepsCopy
    }
}

/// The process that runs a load: host name, process id and its start time,
/// so that a reused process id is not taken for the owner.
public struct LoadOwner: Hashable, Sendable {
    /// The machine's host name.
    public var host: String
    /// The process's id on that machine.
    public var processID: Int32
    /// When the process started, so that a reused process id is not taken for it.
    public var processStartedAt: String?

    /// A process, named as the placeholder table records it.
    public init(host: String, processID: Int32, processStartedAt: String?) {
        self.host = host
        self.processID = processID
        self.processStartedAt = processStartedAt
    }
}



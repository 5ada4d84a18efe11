import Foundation

/// Where a placeholder's load reads from and which process owns it.
public struct PendingLoad: Hashable, Sendable {
    /// What the load reads: a path, or a URL or token a host app's loader understands.
    public var source: String
    public var owner: LoadOwner
    /// When the placeholder was inserted (stored to the millisecond).
    public var createdAt: Date

    /// A load of `source` owned by this process, starting now.
    public init(source: String) {
        self.init(source: source, owner: .current, createdAt: Date())
    }

    public init(source: String, owner: LoadOwner, createdAt: Date) {
        self.source = source
        self.owner = owner
        self.createdAt = createdAt
    }
}

/// The process that runs a load: host name, process id and its start time,
/// so that a reused process id is not taken for the owner.
public struct LoadOwner: Hashable, Sendable {
    public var host: String
    public var processID: Int32
    public var processStartedAt: String?

    public init(host: String, processID: Int32, processStartedAt: String?) {
        self.host = host
        self.processID = processID
        self.processStartedAt = processStartedAt
    }
}



import Foundation

/// Where a placeholder's load reads from and which process owns it.
public struct PendingLoad: Hashable, Sendable {
    /// What the load reads: a path, or a URL or token a host app's loader understands.
    public var source: String
    public var owner: LoadOwner
    /// When the placeholder was inserted, as ISO 8601 UTC.
    public var createdAt: String

    /// A load of `source` owned by this process, starting now.
    public init(source: String) {
        self.init(source: source, owner: .current, createdAt: Self.now())
    }

    public init(source: String, owner: LoadOwner, createdAt: String) {
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

extension PendingLoad {
    /// The current time as the schema stores it: ISO 8601 UTC with milliseconds.
    static func now() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}

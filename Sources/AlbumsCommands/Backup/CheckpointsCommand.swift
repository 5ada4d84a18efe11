import AlbumsPersistence
import ArgumentParser

struct CheckpointsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkpoints",
        abstract: "Show or set who checkpoints the library's write-ahead log: albums, or a replicator.",
        discussion: """
            auto (the default): albums checkpoints, as SQLite does.
            external: albums never checkpoints; a replicator such as Litestream,
            which must see every change in the log before it is checkpointed, does.
            Stored in the library, so every albums process that opens it agrees.
            See Documentation/Backups.md, "Replicas with Litestream".

            --json prints {"checkpoints"}.

            Examples:
              albums checkpoints
              albums checkpoints external
            """).parsedOnItsOwn

    @OptionGroup var global: GlobalOptions
    @Argument(help: "auto or external; none shows the current setting.") var policy: CheckpointPolicy?

    func run() throws {
        try show()
    }

    private func show() throws {
        let library = try global.openLibrary(for: policy == nil ? .reading : .writing)
        let current: CheckpointPolicy
        if let policy {
            try library.write { try $0.setCheckpointPolicy(policy) }
            current = policy
        } else {
            current = try library.read { try $0.checkpointPolicy() }
        }
        try library.close()
        if global.json {
            try global.console.result(json: ["checkpoints": current.rawValue])
            return
        }
        switch current {
        case .automatic: global.console.result("checkpoints: auto (albums checkpoints the write-ahead log)")
        case .external: global.console.result("checkpoints: external (albums leaves them to a replicator such as Litestream)")
        }
    }
}

extension CheckpointPolicy: ExpressibleByArgument {}

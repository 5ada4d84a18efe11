import AlbumsCommands
import AlbumsPersistence
import AlbumsServer
import Foundation

/// `albums serve` as the `albums-serve` program runs it: opens the library,
/// starts the server, prints the page's address, and serves until Ctrl-C.
package enum ServeCommandHost: ServeHost {
    package static func serve(_ command: ServeCommand) async throws {
        let (host, port) = try ServeCommand.parse(command.listen)
        let options = ServeOptions(
            host: host, port: port, allowsRemote: command.allowRemote, publicURL: try command.parsedPublicURL(),
            trustedProxies: Set(command.trustedProxy))
        if !options.isLoopback && !command.allowRemote {
            throw CommandFailure(status: ExitStatus.usage, code: "remote_not_allowed", message: ServeRefusal.remoteNotAllowed(host: host).description)
        }
        if !options.isLoopback && options.publicURL == nil {
            let refusal = ServeRefusal.remoteNeedsPublicURL(host: host)
            throw CommandFailure(status: ExitStatus.usage, code: refusal.code, message: refusal.description)
        }
        do {
            try await serve(options, command: command)
        } catch let refusal as ServeRefusal {
            throw CommandFailure(status: ExitStatus.inputOutput, code: refusal.code, message: refusal.description)
        }
    }

    private static func serve(_ options: ServeOptions, command: ServeCommand) async throws {
        let global = command.global
        let library = try global.openLibrary(for: .creating, concurrentReads: true)
        defer { try? library.close() }
        if let reason = AlbumsServer.thumbnailsUnavailableReason {
            global.console.note("albums: warning: the page will show no thumbnails: \(reason)")
        }
        if let reason = AlbumsServer.renditionsUnavailableReason, try await library.read({ try $0.holdsVideos() }) {
            global.console.note("albums: warning: videos browsers cannot play as they are (HEVC, ProRes, AVI, …) will not be converted: \(reason)")
        }
        let hasPeople = try await library.read { try $0.hasPeople() }
        if !options.isLoopback && !hasPeople {
            global.console.note("albums: warning: listening on \(options.host): anyone who can reach it and learns the URL can change this library")
        }
        let console = global.console
        let openBrowser = command.open
        try await AlbumsServer.run(library: library, options: options) { url in
            if console.json {
                console.result(#"{"url":"\#(url)"}"#)
            } else {
                console.result("serving \(library.path) at \(url)")
                console.result("Ctrl-C stops")
            }
            if openBrowser { openInBrowser(url) }
        }
    }

    private static func openInBrowser(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        #if os(macOS)
            process.arguments = ["open", url]
        #else
            process.arguments = ["xdg-open", url]
        #endif
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }
}

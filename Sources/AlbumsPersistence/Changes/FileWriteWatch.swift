import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Hears a file being written, as the kernel reports it (inotify), so that
/// a library's watchers learn of another process's commit when it happens
/// rather than by looking at the file on a timer: an `albums serve` left
/// idle then wakes a few times a second, not fifty.
///
/// It watches the file's folder and picks out the file's name, so a log
/// that is removed and made again is still heard. Where the kernel cannot
/// tell (another system, no inotify instance left), there is no watch and
/// the watcher looks at the file's stamp on a timer, as before.
final class FileWriteWatch: Sendable {
    /// Yields once the file is written (and then once per burst of writes
    /// read together), and at each `tick`; finishes when stopped.
    let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let heard = Mutex(false)
    /// The inotify reader and the tick: cancelled from any thread, as Dispatch allows.
    private let sources: Mutex<[any DispatchSourceProtocol]>

    /// A watch of the file at `path`, waking its reader at least every
    /// `tick` seconds (a finite, positive number of them, as
    /// ``ChangeBroadcaster/pollingInterval(_:)`` makes it); nil where writes cannot be heard.
    init?(file path: String, tick: Double) {
        #if os(Linux)
            let url = URL(fileURLWithPath: path)
            let name = Array(url.lastPathComponent.utf8)
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)
            guard inotify_add_watch(descriptor, url.deletingLastPathComponent().path, mask) >= 0 else {
                close(descriptor)
                return nil
            }
            (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let queue = DispatchQueue(label: "albums.file-write-watch")
            let reader = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            let timer = DispatchSource.makeTimerSource(queue: queue)
            sources = Mutex([reader, timer])
            reader.setEventHandler { [weak self] in
                guard Self.drain(descriptor, naming: name), let self else { return }
                self.heard.withLock { $0 = true }
                self.wake.yield()
            }
            reader.setCancelHandler { close(descriptor) }
            timer.setEventHandler { [weak self] in self?.wake.yield() }
            // A tenth of the tick's slack, at most a minute's.
            timer.schedule(deadline: .now() + tick, repeating: tick, leeway: .milliseconds(Int(min(tick, 600) * 100)))
            reader.resume()
            timer.resume()
        #else
            return nil
        #endif
    }

    deinit { stop() }

    /// Whether the file was written since this was last asked.
    func takeHeard() -> Bool {
        heard.withLock { state in
            defer { state = false }
            return state
        }
    }

    /// Stops watching; ``wakeUps`` finishes.
    func stop() {
        sources.withLock { sources in
            for source in sources where !source.isCancelled { source.cancel() }
        }
        wake.finish()
    }

    #if os(Linux)
        /// Reads every event waiting on `descriptor`; true when one names the file.
        private static func drain(_ descriptor: Int32, naming name: [UInt8]) -> Bool {
            var named = false
            // Room for many events: each is a 16-byte header and its name, padded.
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { return named }
                buffer.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset + 16 <= count {
                        let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        let end = min(count, offset + 16 + length)
                        // The name, up to its first NUL (the kernel pads it with them).
                        let field = bytes[(offset + 16)..<end]
                        if !named, field.prefix(while: { $0 != 0 }).elementsEqual(name) { named = true }
                        offset = end
                    }
                }
            }
        }
    #endif
}

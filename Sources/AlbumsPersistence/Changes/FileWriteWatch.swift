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
/// It watches the file for its writes, and its folder only for a file of
/// its name being made (a log removed and made again is watched anew): the
/// other files of a busy folder (a library kept among downloads, a camera's
/// folder) are written without waking anyone. Where the kernel cannot tell
/// (another system, no inotify instance left), there is no watch and the
/// watcher looks at the file's stamp on a timer, as before.
final class FileWriteWatch: Sendable {
    /// Yields once the file is written (and then once per burst of writes
    /// read together), at each `tick`, and when asked (``wake(after:)``);
    /// finishes when stopped.
    let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let heard = Mutex(false)
    /// How many of the events read were about another file (a neighbour
    /// made beside it): what a busy folder costs, which tests hold to none.
    let othersHeard = Atomic<Int>(0)
    /// The inotify reader, the tick and the one-off wake-up, made inside
    /// their lock and only ever touched through it (cancelled, and the
    /// wake-up rescheduled, from any thread, as Dispatch allows).
    private struct Sources {
        let reader: any DispatchSourceRead
        let tick: any DispatchSourceTimer
        let once: any DispatchSourceTimer
    }
    private let sources: Mutex<Sources>

    /// A watch of the file at `path`, waking its reader at least every
    /// `tick` seconds (a finite, positive number of them, as
    /// ``ChangeBroadcaster/pollingInterval(_:)`` makes it); nil where writes cannot be heard.
    init?(file path: String, tick: Double) {
        #if os(Linux)
            let url = URL(fileURLWithPath: path)
            let name = Array(url.lastPathComponent.utf8)
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            let folder = inotify_add_watch(descriptor, url.deletingLastPathComponent().path, UInt32(IN_CREATE | IN_MOVED_TO))
            guard folder >= 0 else {
                close(descriptor)
                return nil
            }
            // Fails while there is no such file yet: the folder's watch hears it made.
            Self.watchWrites(of: path, on: descriptor)
            (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let queue = DispatchQueue(label: "albums.file-write-watch")
            sources = Mutex(
                Sources(
                    reader: DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue),
                    tick: DispatchSource.makeTimerSource(queue: queue), once: DispatchSource.makeTimerSource(queue: queue)))
            sources.withLock { sources in
                sources.reader.setEventHandler { [weak self] in
                    let (written, others) = Self.drain(descriptor, folder: folder, file: path, named: name)
                    guard let self else { return }
                    if others > 0 { self.othersHeard.add(others, ordering: .relaxed) }
                    guard written else { return }
                    self.heard.withLock { $0 = true }
                    self.wake.yield()
                }
                sources.reader.setCancelHandler { close(descriptor) }
                sources.tick.setEventHandler { [weak self] in self?.wake.yield() }
                sources.once.setEventHandler { [weak self] in self?.wake.yield() }
                // A tenth of the tick's slack, at most a minute's.
                sources.tick.schedule(deadline: .now() + tick, repeating: tick, leeway: .milliseconds(Int(min(tick, 600) * 100)))
                sources.once.schedule(deadline: .distantFuture)
                sources.reader.resume()
                sources.tick.resume()
                sources.once.resume()
            }
        #else
            return nil
        #endif
    }

    deinit { stop() }

    /// Wakes the reader once `delay` seconds from now, besides when the
    /// file is written and at each tick; the last asked replaces any
    /// before it, and nil asks for none.
    func wake(after delay: Double?) {
        sources.withLock { $0.once.schedule(deadline: delay.map { .now() + $0 } ?? .distantFuture) }
    }

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
            if !sources.reader.isCancelled { sources.reader.cancel() }
            if !sources.tick.isCancelled { sources.tick.cancel() }
            if !sources.once.isCancelled { sources.once.cancel() }
        }
        wake.finish()
    }

    #if os(Linux)
        /// Watches `path`'s writes on `descriptor` (again, once it is made
        /// anew); nothing while there is no such file.
        private static func watchWrites(of path: String, on descriptor: Int32) {
            _ = inotify_add_watch(descriptor, path, UInt32(IN_MODIFY))
        }

        /// Reads every event waiting on `descriptor`: whether the file was
        /// written (or made: its new self is then watched), and how many
        /// events were about another file made in `folder`.
        private static func drain(_ descriptor: Int32, folder: Int32, file path: String, named name: [UInt8]) -> (written: Bool, others: Int) {
            var written = false
            var others = 0
            // Room for many events: each is a 16-byte header and its name, padded.
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { return (written, others) }
                buffer.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset + 16 <= count {
                        let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                        let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                        let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        let end = min(count, offset + 16 + length)
                        if watch == folder {
                            // The name, up to its first NUL (the kernel pads it with them).
                            if bytes[(offset + 16)..<end].prefix(while: { $0 != 0 }).elementsEqual(name) {
                                watchWrites(of: path, on: descriptor)
                                written = true
                            } else {
                                others += 1
                            }
                        } else if mask & UInt32(IN_MODIFY) != 0 {
                            written = true
                        }
                        offset = end
                    }
                }
            }
        }
    #endif
}

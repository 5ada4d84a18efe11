#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// stdout or stderr, written with `write(2)`.
///
/// Not `FileHandle`: its `write(_:)` cannot report a failure (it traps), and
/// building the `Data` it takes from a string costs a runtime protocol
/// lookup that every command would pay at start-up.
package enum StandardStream {
    case output
    case error

    private var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }

    /// Writes `text` as UTF-8.
    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` whole, resuming after a signal or a partial write.
    /// A stream that refuses them (its reader gone, a full disk) is given
    /// up on: the text is lost, the command's work is not.
    package func write(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        while !rest.isEmpty {
            let written = systemWrite(descriptor, rest.baseAddress, rest.count)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
    }
}

/// `write(2)`, under a name the stream's own `write` methods do not hide.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

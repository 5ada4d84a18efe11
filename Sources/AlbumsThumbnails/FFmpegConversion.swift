import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Converts a video to one every browser plays (H.264 and AAC in MP4,
/// its index first so that it plays while it downloads) by running
/// FFmpeg's `ffmpeg` program.
///
/// Why a program, where a thumbnail's frame is decoded in process: a
/// conversion decodes all of a file that came from someone's folder or
/// upload, for seconds or minutes. In a process of its own a decoder's
/// crash costs one rendition, not the server; it is stopped with a signal,
/// and runs at the lowest CPU priority with one thread, so requests and
/// thumbnails always come first.
enum FFmpegConversion {
    /// The longer side of a rendition at most: a screen's, not a cinema's.
    static let longestSide = 1920
    /// A conversion that reports no progress for this long is stopped.
    static let stallLimit = Duration.seconds(300)

    /// The `ffmpeg` program on the `PATH`, or nil.
    static func findProgram(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return folders.lazy.map { "\($0)/ffmpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The program's arguments: files only, a video's containers only; the
    /// picture upright (FFmpeg applies the container's rotation), at most
    /// ``longestSide``, in even dimensions and 4:2:0 as every decoder wants.
    static func arguments(input: String, output: String) -> [String] {
        let fit = "scale=w='min(\(longestSide),iw)':h='min(\(longestSide),ih)':force_original_aspect_ratio=decrease:force_divisible_by=2,format=yuv420p"
        return [
            "-nostdin", "-hide_banner", "-v", "error", "-nostats", "-progress", "pipe:1", "-threads", "1",
            "-protocol_whitelist", "file", "-format_whitelist", "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpeg",
            "-i", "file:" + input,
            "-map", "0:v:0", "-map", "0:a:0?", "-map_metadata", "-1", "-sn", "-dn",
            "-vf", fit, "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-profile:v", "high",
            "-c:a", "aac", "-b:a", "160k", "-ac", "2",
            "-threads", "1", "-movflags", "+faststart", "-f", "mp4", "-y", "file:" + output,
        ]
    }

    /// Runs `program` to convert `input` into `output` (written whole or
    /// not at all); blocks until it ends. `progress` hears the fraction done
    /// (of `duration` seconds, where known); `started` the process, so that
    /// it can be stopped.
    static func convert(
        program: String, input: String, output: URL, duration: Double?,
        progress: @escaping @Sendable (Double) -> Void, started: (Process) -> Void
    ) -> Result<Void, RenditionFailure> {
        let folder = output.deletingLastPathComponent()
        let partial = folder.appending(path: ".\(output.lastPathComponent).\(UUID().uuidString).partial")
        let errors = folder.appending(path: ".\(output.lastPathComponent).\(UUID().uuidString).log")
        defer {
            try? FileManager.default.removeItem(at: partial)
            try? FileManager.default.removeItem(at: errors)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments(input: input, output: partial.path)
        let report = Pipe()
        process.standardOutput = report
        process.standardInput = FileHandle.nullDevice
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // What it says on failure goes to a file: a damaged file's many complaints would fill a pipe and stall it.
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            let said = try FileHandle(forWritingTo: errors)
            defer { try? said.close() }
            process.standardError = said
            try process.run()
        } catch {
            return .failure(.conversionFailed(detail: "ffmpeg cannot start (\(error.localizedDescription))"))
        }
        started(process)
        lowerPriority(of: process.processIdentifier)
        let lastProgress = Mutex(ContinuousClock.now)
        let watchdog = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        watchdog.schedule(deadline: .now() + 10, repeating: 10)
        watchdog.setEventHandler {
            if ContinuousClock.now - lastProgress.withLock({ $0 }) > stallLimit, process.isRunning { kill(process) }
        }
        watchdog.resume()
        defer { watchdog.cancel() }
        var pending = Data()
        let reader = report.fileHandleForReading
        while case let chunk = reader.availableData, !chunk.isEmpty {
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                lastProgress.withLock { $0 = .now }
                if let done = fraction(ofProgressLine: line, duration: duration) { progress(done) }
            }
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let said = (try? String(contentsOf: errors, encoding: .utf8))?.split(whereSeparator: \.isNewline).last.map(String.init)
            let why = process.terminationReason == .uncaughtSignal ? "stopped by signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
            return .failure(.conversionFailed(detail: said.map { "\($0) (\(why))" } ?? why))
        }
        guard rename(partial.path, output.path) == 0 else {
            return .failure(.conversionFailed(detail: "cannot keep the rendition in \(folder.path) (\(String(cString: strerror(errno))))"))
        }
        return .success(())
    }

    /// The fraction done that a line of `-progress` output tells
    /// (`out_time_us=…`), or nil for the other lines.
    static func fraction(ofProgressLine line: String, duration: Double?) -> Double? {
        guard line.hasPrefix("out_time_us="), let duration, duration > 0,
            let microseconds = Double(line.dropFirst("out_time_us=".count)), microseconds.isFinite, microseconds >= 0
        else { return nil }
        return min(1, microseconds / 1_000_000 / duration)
    }

    /// Stops a conversion at once (SIGKILL): its partial file is thrown away anyway.
    static func kill(_ process: Process) {
        #if canImport(Glibc)
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        #else
        _ = Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
    }

    /// The lowest CPU priority: a conversion takes what requests leave.
    private static func lowerPriority(of process: Int32) {
        #if canImport(Glibc)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(process), 19)
        #else
        _ = setpriority(PRIO_PROCESS, id_t(process), 19)
        #endif
    }
}

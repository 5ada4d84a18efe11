import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child process ended.
enum Termination: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signaled(let signal): "signal \(signal)"
        }
    }
}

/// A finished run of the albums binary, its output read back from files.
struct CompletedRun {
    let arguments: [String]
    let termination: Termination
    let stdout: String
    let stderr: String
    let seconds: Double

    var status: Int32? {
        if case .exited(let status) = termination { status } else { nil }
    }

    /// The command line, quoted enough to paste into a shell.
    var commandLine: String {
        (["albums"] + arguments).map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }
}

/// A child process started with posix_spawn, its output going to files so
/// that a killed child can never block on a full pipe.
struct ChildProcess {
    let pid: pid_t
    let startedAt: ContinuousClock.Instant

    static func spawn(_ executable: String, _ arguments: [String], stdout: String, stderr: String) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard status == 0 else {
            throw HarnessFailure("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return ChildProcess(pid: pid, startedAt: .now)
    }

    /// Waits for the child; one that outlives `timeout` is killed and reported.
    func wait(timeout: Duration = .seconds(120)) throws -> Termination {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR {
                throw HarnessFailure("waitpid failed: \(String(cString: strerror(errno)))")
            }
            if ContinuousClock.now - startedAt > timeout {
                self.kill(SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw HarnessFailure("process \(pid) still running after \(timeout): a hang")
            }
            usleep(500)
        }
        // WIFEXITED / WTERMSIG are macros Swift cannot import.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    func kill(_ signal: Int32) {
        #if canImport(Glibc)
        _ = Glibc.kill(pid, signal)
        #else
        _ = Darwin.kill(pid, signal)
        #endif
    }
}

/// Runs the albums binary and collects its output, in a scratch folder of its own.
struct AlbumsRunner: Sendable {
    let executable: String
    let scratch: String

    init(executable: String, scratch: String) {
        self.executable = executable
        self.scratch = scratch
    }

    private var outputPaths: (String, String) { ("\(scratch)/stdout", "\(scratch)/stderr") }

    func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.spawn(executable, arguments, stdout: outputPaths.0, stderr: outputPaths.1)
    }

    func collect(_ child: ChildProcess, _ arguments: [String], termination: Termination) -> CompletedRun {
        let seconds = (ContinuousClock.now - child.startedAt) / .seconds(1)
        let out = (try? String(contentsOfFile: outputPaths.0, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: outputPaths.1, encoding: .utf8)) ?? ""
        return CompletedRun(arguments: arguments, termination: termination, stdout: out, stderr: err, seconds: seconds)
    }

    /// Runs to the end.
    func run(_ arguments: [String]) throws -> CompletedRun {
        let child = try start(arguments)
        return collect(child, arguments, termination: try child.wait())
    }

    /// Runs to the end and requires exit status 0.
    @discardableResult
    func succeed(_ arguments: [String]) throws -> CompletedRun {
        let run = try run(arguments)
        guard run.status == 0 else {
            throw HarnessFailure("`\(run.commandLine)` ended with \(run.termination): \(run.stderr)")
        }
        return run
    }
}

/// Why a harness run failed: it names what was expected and what happened.
struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

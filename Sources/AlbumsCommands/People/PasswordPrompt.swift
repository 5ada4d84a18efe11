import AlbumsPersistence
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a password: from the terminal without echo (twice, to catch a
/// typing slip), or the first line of standard input when it is not a
/// terminal (scripts). Never from the command line, where `ps` and the
/// shell's history would show it.
enum PasswordPrompt {
    static func read(for what: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = Swift.readLine(strippingNewline: true) else {
                throw CommandFailure(status: ExitStatus.usage, code: "no_password", message: "no password on standard input: give one line")
            }
            return line
        }
        let first = try readHidden("password for \(what): ")
        let second = try readHidden("the same again: ")
        guard first == second else {
            throw CommandFailure(status: ExitStatus.refused, code: "passwords_differ", message: "the two passwords differ; nothing was changed")
        }
        return first
    }

    /// One line from the terminal with echo off, restored however it ends.
    private static func readHidden(_ prompt: String) throws -> String {
        StandardStream.error.write(prompt)
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            StandardStream.error.write("\n")
        }
        guard let line = Swift.readLine(strippingNewline: true) else {
            throw CommandFailure(status: ExitStatus.usage, code: "no_password", message: "no password was typed")
        }
        return line
    }

    /// A hash of a password read as above, checked before anything is written.
    static func hash(for what: String) throws -> PasswordHash {
        try PasswordHash(password: try read(for: what), cost: cost)
    }

    /// bcrypt's work factor: $ALBUMS_BCRYPT_COST (4…31) lets tests run
    /// fast; people get the default.
    static var cost: UInt8 {
        ProcessEnvironment.value("ALBUMS_BCRYPT_COST").flatMap(UInt8.init).map { min(max($0, 4), 31) } ?? PasswordHash.defaultCost
    }
}

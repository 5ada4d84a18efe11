import AlbumsPersistence
import ArgumentParser
import Foundation

/// The one place where errors become exit statuses (see README, "Exit status").
enum ExitStatus {
    static func code(for error: LibraryError) -> Int32 {
        switch error.kind {
        case .refused: 1
        case .unusableFile: 65
        case .inputOutput: 74
        case .busy: 75
        }
    }
}

extension ParsableCommand {
    /// Runs `body`, turning a ``LibraryError`` into a one-line diagnostic on
    /// stderr and its exit status.
    func reportingErrors(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as LibraryError {
            FileHandle.standardError.write(Data("albums: \(error.description)\n".utf8))
            throw ExitCode(ExitStatus.code(for: error))
        }
    }
}

import AlbumsPersistence
import AlbumsTransfer
import AlbumsWire
import ArgumentParser
import Foundation

/// The one place where errors become exit statuses and JSON error codes
/// (Documentation/Commands.md, "Output, errors and exit status"). The
/// statuses and codes of the errors the libraries throw come from
/// ``FailureOutcome``, the table the API reads too; the CLI adds its own
/// words (``LibraryError/commandHint``).
package enum ExitStatus {
    package static let success: Int32 = 0
    package static let refused = FailureOutcome.ExitStatus.refused
    package static let usage = FailureOutcome.ExitStatus.usage
    package static let unusableFile = FailureOutcome.ExitStatus.unusableFile
    package static let inputOutput = FailureOutcome.ExitStatus.inputOutput
    package static let busy = FailureOutcome.ExitStatus.busy

    /// How a failure is reported: status, stable code, one-line message.
    struct Report {
        let status: Int32
        let code: String
        let message: String

        /// `{"error":{"code":…,"message":…}}` on one line, as `--json` prints errors.
        var json: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = ErrorJSON(error: .init(code: code, message: message))
            return (try? encoder.encode(body)).map { String(decoding: $0, as: UTF8.self) } ?? #"{"error":{"code":"io_failure","message":"cannot encode the error"}}"#
        }
    }

    /// An error as `--json` prints it.
    struct ErrorJSON: Encodable {
        struct Body: Encodable {
            let code: String
            let message: String
        }

        let error: Body
    }

    static func report(for error: any Error) -> Report {
        switch error {
        case let error as ValidationError:
            return Report(status: usage, code: "usage", message: error.message)
        case let error as CommandFailure:
            return Report(status: error.status, code: error.code, message: error.message)
        default:
            let outcome = FailureOutcome(error) ?? FailureOutcome(fileError: error)
            let hint = outcome.libraryError?.commandHintLookingNearby
            return Report(status: outcome.exitStatus, code: outcome.code, message: outcome.message + (hint.map { "; " + $0 } ?? ""))
        }
    }
}

/// A failure a command decides itself, with its status and code.
package struct CommandFailure: Error {
    let status: Int32
    let code: String
    let message: String

    package init(status: Int32, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}

import AlbumsPersistence
import AlbumsTransfer
import ArgumentParser
import Foundation

/// The one place where errors become exit statuses and JSON error codes
/// (Documentation/Commands.md, "Output, errors and exit status").
package enum ExitStatus {
    package static let success: Int32 = 0
    package static let refused: Int32 = 1
    package static let usage: Int32 = 64
    package static let unusableFile: Int32 = 65
    package static let inputOutput: Int32 = 74
    package static let busy: Int32 = 75

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
        case let error as LibraryError:
            let status: Int32 = switch error.kind {
            case .refused: refused
            case .unusableFile: unusableFile
            case .inputOutput: inputOutput
            case .busy: busy
            }
            return Report(status: status, code: error.code, message: error.description)
        case let refusal as BatchRefusal:
            return Report(status: refused, code: refusal.reason.code, message: refusal.description)
        case let error as ReferenceParser.ParseError:
            return Report(status: usage, code: "invalid_reference", message: error.description)
        case let error as TransferBatchFormat.FormatError:
            return Report(status: usage, code: "invalid_batch", message: error.description)
        case let error as ValidationError:
            return Report(status: usage, code: "usage", message: error.message)
        case let error as CommandFailure:
            return Report(status: error.status, code: error.code, message: error.message)
        default:
            // A file system error from Foundation: said in albums' words, never its domain and code.
            return Report(status: inputOutput, code: "io_error", message: LibraryError.describeFileError(error))
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

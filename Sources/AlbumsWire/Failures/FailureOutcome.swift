import AlbumsImporting
import AlbumsPersistence
import AlbumsTransfer
import Foundation

/// How a failure is answered wherever it shows: its stable code, a
/// one-line message of facts (what, which one, why; no front end's words),
/// the exit status the CLI gives it and the HTTP status the API gives it.
///
/// The one table both front ends read, so that their codes and statuses
/// cannot drift apart. The CLI adds its flags and commands to the message
/// and the page its buttons; neither changes the code or the status.
///
/// ```swift
/// if let outcome = FailureOutcome(error) {
///     print(outcome.code, outcome.exitStatus, outcome.httpStatus)   // album_locked 1 422
/// }
/// ```
package struct FailureOutcome: Hashable, Sendable {
    /// The `code` of the JSON error (`album_not_found`).
    package let code: String
    /// The facts, in one line.
    package let message: String
    /// The CLI's exit status (sysexits, as ``ExitStatus`` names them).
    package let exitStatus: Int32
    /// The API's HTTP status code.
    package let httpStatus: Int
    /// The library error behind it, if any, for the words a front end adds.
    package let libraryError: LibraryError?

    /// The exit statuses of the CLI.
    package enum ExitStatus {
        /// Refused or failed: not found, forbidden, conflict, a failed load.
        package static let refused: Int32 = 1
        /// A usage error: unknown option, malformed reference or batch line.
        package static let usage: Int32 = 64
        /// The file is not a usable library.
        package static let unusableFile: Int32 = 65
        /// An I/O error: no library, read-only, disk full.
        package static let inputOutput: Int32 = 74
        /// The library stayed busy past the timeout.
        package static let busy: Int32 = 75
    }

    /// The outcome of an error both front ends know (a ``LibraryError``, a
    /// batch's refusal, a reference or batch line that cannot be read); nil
    /// for any other, which a front end answers itself or, failing that, as
    /// a file error (``init(fileError:)``).
    package init?(_ error: any Error) {
        switch error {
        case let error as LibraryError:
            self.init(error)
        case let refusal as BatchRefusal:
            let reason = FailureOutcome(refusal.reason)
            self.init(code: reason.code, message: refusal.description, exitStatus: reason.exitStatus, httpStatus: reason.httpStatus, libraryError: refusal.reason)
        case let error as ReferenceParser.ParseError:
            // The right form past the parser's limits is refused like the
            // library's other rules; malformed text is a bad request.
            self.init(code: "invalid_reference", message: error.description, exitStatus: ExitStatus.usage, httpStatus: error.isBeyondLimits ? 422 : 400)
        case let error as CatalogFailure:
            // A catalog or archive that is there but cannot be read (not SQLite, damaged, crafted) is an unusable file, as a library would be.
            let unusable =
                switch error {
                case .unreadable(.missing): false
                case .unreadable: true
                case .notACatalog, .extraction: false
                }
            self.init(code: error.code, message: error.description, exitStatus: unusable ? ExitStatus.unusableFile : ExitStatus.refused, httpStatus: 422)
        case let error as CaptureRange.Failure:
            // 422: a date the document's pattern allows may still not be one (2025-02-30).
            self.init(code: "invalid_date", message: error.description, exitStatus: ExitStatus.usage, httpStatus: 422)
        case let error as PathMap.Failure:
            self.init(code: "invalid_path_map", message: error.description, exitStatus: ExitStatus.usage, httpStatus: 400)
        case let error as TreeImportFailure:
            // A root that is not there is refused as a missing file is; one that cannot be listed is an I/O error.
            let unreadable = if case .unreadable = error { true } else { false }
            self.init(
                code: error.code, message: error.description, exitStatus: unreadable ? ExitStatus.inputOutput : ExitStatus.refused,
                httpStatus: unreadable ? 500 : 422)
        case let error as KeepingFailure:
            // A place that cannot be written is an I/O error, as a full disk is; a service that fails
            // is the gateway's failure; a source that changed is refused.
            let (exit, http): (Int32, Int) =
                switch error {
                case .unwritable: (ExitStatus.inputOutput, 500)
                case .unavailable: (ExitStatus.refused, 502)
                case .missing: (ExitStatus.refused, 404)
                case .changed, .unreadable, .unreachable: (ExitStatus.refused, 422)
                }
            self.init(code: error.code, message: error.description, exitStatus: exit, httpStatus: http)
        case let error as TransferBatchFormat.FormatError:
            self.init(
                code: error.isBeyondLimits ? "invalid_reference" : "invalid_batch", message: error.description, exitStatus: ExitStatus.usage,
                httpStatus: error.isBeyondLimits ? 422 : 400)
        default:
            return nil
        }
    }

    /// The outcome of a library error: exit status by its kind, HTTP status
    /// by what the asker can do about it.
    package init(_ error: LibraryError) {
        let exitStatus: Int32 =
            switch error.kind {
            case .refused: ExitStatus.refused
            case .unusableFile: ExitStatus.unusableFile
            case .inputOutput: ExitStatus.inputOutput
            case .busy: ExitStatus.busy
            }
        let httpStatus: Int =
            switch error {
            // Not there, or not for them to see: the same answer.
            case .albumNotFound, .folderNotFound, .itemNotFound, .photoNotFound, .noLibrary, .personNotFound, .shareLinkNotFound: 404
            // Seen, but not theirs to change.
            case .forbidden: 403
            // The album moved on, or the history's state is in the way: look again.
            case .revisionMismatch, .nothingToUndo, .nothingToRedo, .cannotUndo, .cannotRedo: 409
            default:
                switch error.kind {
                case .refused: 422
                case .busy: 503
                case .unusableFile, .inputOutput: 500
                }
            }
        self.init(code: error.code, message: error.description, exitStatus: exitStatus, httpStatus: httpStatus, libraryError: error)
    }

    /// A file system error from Foundation, said in albums' words, never its domain and code.
    package init(fileError error: any Error) {
        self.init(code: "io_failure", message: LibraryError.describeFileError(error), exitStatus: ExitStatus.inputOutput, httpStatus: 500)
    }

    /// An outcome a front end decides itself.
    package init(code: String, message: String, exitStatus: Int32, httpStatus: Int, libraryError: LibraryError? = nil) {
        self.code = code
        self.message = message
        self.exitStatus = exitStatus
        self.httpStatus = httpStatus
        self.libraryError = libraryError
    }
}

import Foundation

/// Why a request to an S3-compatible service did not do what it asked, in
/// one line that says what to do.
package enum S3Failure: Error, Equatable, CustomStringConvertible {
    /// The service refused it and said why (`NoSuchBucket`, `AccessDenied`,
    /// `SignatureDoesNotMatch`, …): asking again will not help.
    case refused(status: Int, code: String, message: String)
    /// The service answered that it is busy or failing, every time it was asked.
    case unavailable(status: Int, attempts: Int)
    /// No answer came, every time it was asked.
    case unreachable(detail: String, attempts: Int)
    /// An answer albums cannot read (a listing without its fields, say).
    case unreadable(detail: String)

    /// Whether the keys are wrong: an unknown access key, or a secret that
    /// does not sign as the service's does.
    package var isWrongKey: Bool {
        if case .refused(_, let code, _) = self { return ["InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken"].contains(code) }
        return false
    }

    /// The failure an error answer describes, from its XML (`<Error><Code>…`).
    static func refusal(_ response: S3Response) -> S3Failure {
        let text = String(decoding: response.body, as: UTF8.self)
        let code = S3XML.value(of: "Code", in: text) ?? (response.status == 404 ? "NotFound" : "HTTP\(response.status)")
        return .refused(status: response.status, code: code, message: S3XML.value(of: "Message", in: text) ?? "")
    }

    package var description: String {
        switch self {
        case .refused(_, let code, let message) where isWrongKey:
            "the object storage refused the keys (\(code)): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY\(message.isEmpty ? "" : "; it says: \(message)")"
        case .refused(_, "NoSuchBucket", _):
            "the bucket does not exist (NoSuchBucket): create it, or name another"
        case .refused(let status, let code, let message):
            "the object storage refused the request (\(status) \(code))\(message.isEmpty ? "" : ": \(message)")"
        case .unavailable(let status, let attempts):
            "the object storage answered \(status) (busy or failing) \(attempts) times in a row; try again later"
        case .unreachable(let detail, let attempts):
            "the object storage did not answer (\(detail)) after \(attempts) attempts; check the endpoint and the network"
        case .unreadable(let detail):
            "the object storage's answer could not be read: \(detail)"
        }
    }
}

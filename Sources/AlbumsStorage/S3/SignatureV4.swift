import AlbumsPersistence
import Crypto
import Foundation

/// AWS Signature Version 4, as S3 and every S3-compatible store (MinIO,
/// Ceph, OpenStack Swift's s3api, Backblaze B2, Wasabi) check it: a request
/// reduced to its canonical form, hashed, and signed with a key derived from
/// the secret, the day, the region and the service.
///
/// S3's flavour: the path is the object's key percent-encoded once, its
/// slashes kept, and the payload's SHA-256 is sent and signed as
/// `x-amz-content-sha256` (or `UNSIGNED-PAYLOAD` for a stream).
package struct SignatureV4: Sendable {
    package let credentials: S3Credentials
    package let region: String
    package let service: String

    package init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// What a request is signed over. Header names are taken in any case;
    /// every header given is signed.
    package struct Request: Sendable {
        package var method: String
        /// The path as sent, already percent-encoded (``SignatureV4/encodedPath(_:)``).
        package var path: String
        /// The query's parameters, not encoded; a parameter without a value has "".
        package var query: [(name: String, value: String)]
        package var headers: [(name: String, value: String)]
        /// The payload's SHA-256 in lowercase hex, or `UNSIGNED-PAYLOAD`.
        package var payloadHash: String

        package init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)], payloadHash: String) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// The SHA-256 of no bytes, the payload hash of a GET.
    package static let emptyPayloadHash = hexSHA256(Data())
    /// The payload hash of a body streamed without being hashed first.
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"

    // MARK: - Signing

    /// The `Authorization` header's value for `request`, made at `time`
    /// (which the request's `x-amz-date` header must say, ``amzDate(_:)``).
    package func authorization(for request: Request, at time: Date) -> String {
        let date = Self.amzDate(time)
        let headers = Self.canonicalHeaders(request.headers)
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(day: Self.day(of: date))), "
            + "SignedHeaders=\(Self.signedNames(headers)), Signature=\(signature(for: request, headers: headers, date: date))"
    }

    /// The hex signature of `request` at `time`.
    package func signature(for request: Request, at time: Date) -> String {
        signature(for: request, headers: Self.canonicalHeaders(request.headers), date: Self.amzDate(time))
    }

    /// What is signed: the algorithm, the time, the scope and the canonical request's hash.
    package func stringToSign(for request: Request, at time: Date) -> String {
        stringToSign(for: request, headers: Self.canonicalHeaders(request.headers), date: Self.amzDate(time))
    }

    private func signature(for request: Request, headers: [(name: String, value: String)], date: String) -> String {
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [Self.day(of: date), region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let code = HMAC<SHA256>.authenticationCode(for: Data(stringToSign(for: request, headers: headers, date: date).utf8), using: key)
        return HexDigits.string(code)
    }

    private func stringToSign(for request: Request, headers: [(name: String, value: String)], date: String) -> String {
        ["AWS4-HMAC-SHA256", date, scope(day: Self.day(of: date)), Self.hexSHA256(Data(Self.canonicalRequest(request, headers: headers).utf8))]
            .joined(separator: "\n")
    }

    /// The day of an `x-amz-date`: `20130524`.
    private static func day(of date: String) -> String { String(date.prefix(8)) }

    private func scope(day: String) -> String {
        "\(day)/\(region)/\(service)/aws4_request"
    }

    // MARK: - The canonical request

    /// The request reduced to the one form both ends compute: method, path,
    /// sorted and encoded query, sorted lowercase headers with their values'
    /// spaces folded, the signed headers' names, and the payload's hash.
    package static func canonicalRequest(_ request: Request) -> String {
        canonicalRequest(request, headers: canonicalHeaders(request.headers))
    }

    /// The canonical request with its headers already in canonical form:
    /// a signature lists them once for the request and its signed names.
    private static func canonicalRequest(_ request: Request, headers canonical: [(name: String, value: String)]) -> String {
        let encoded: [(name: String, value: String)] = request.query.map { parameter in
            (percentEncoded(parameter.name, keepingSlashes: false), percentEncoded(parameter.value, keepingSlashes: false))
        }
        let sorted = encoded.sorted { first, second in first.name == second.name ? first.value < second.value : first.name < second.name }
        let query = sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let headers = canonical.map { "\($0.name):\($0.value)\n" }.joined()
        return [request.method, request.path.isEmpty ? "/" : request.path, query, headers, signedNames(canonical), request.payloadHash]
            .joined(separator: "\n")
    }

    private static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var merged: [String: [String]] = [:]
        for (name, value) in headers {
            // Inner runs of spaces count as one; the ends are trimmed.
            let folded = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            merged[name.lowercased(), default: []].append(trimmed(folded))
        }
        return merged.map { (name: $0.key, value: $0.value.joined(separator: ",")) }.sorted { $0.name < $1.name }
    }

    /// `text` without the tabs and space separators (Unicode's Zs) at its
    /// ends, as Foundation's `.whitespaces` trims: looked at scalar by
    /// scalar, where that went through NSString at every request.
    private static func trimmed(_ text: String) -> String {
        func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(scalars[first...last])
    }

    /// The signed headers' names: `host;x-amz-date`.
    private static func signedNames(_ canonical: [(name: String, value: String)]) -> String {
        canonical.map(\.name).joined(separator: ";")
    }

    // MARK: - Encoding

    /// An object key as S3 takes it in a path: every byte but the unreserved
    /// ones (`A–Z a–z 0–9 - . _ ~`) and the slashes percent-encoded, once.
    package static func encodedPath(_ key: String) -> String {
        "/" + percentEncoded(key.hasPrefix("/") ? String(key.dropFirst()) : key, keepingSlashes: true)
    }

    static func percentEncoded(_ text: String, keepingSlashes: Bool) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlashes:
                encoded.append("/")
            default:
                encoded += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0xF)]
            }
        }
        return encoded
    }

    private static let hexDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]

    /// `time` as `x-amz-date` says it: `20130524T000000Z`, in UTC.
    package static func amzDate(_ time: Date) -> String {
        amzDateStyle.format(time)
    }

    /// ISO 8601's basic form in UTC, whole seconds: one style for the
    /// process, where a Calendar and a time zone made at every request cost
    /// more than the signature.
    private static let amzDateStyle = Date.ISO8601FormatStyle(dateSeparator: .omitted, timeSeparator: .omitted, timeZone: .gmt)

    /// The SHA-256 of `data` in lowercase hex: a payload's hash.
    package static func hexSHA256(_ data: Data) -> String {
        HexDigits.string(SHA256.hash(data: data))
    }
}

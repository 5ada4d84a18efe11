import AlbumsPersistence
import Foundation

/// The keys a request to an S3-compatible service is signed with. They come
/// from the environment or the usual AWS files (``found(in:homeFolder:)``),
/// never from the library file.
package struct S3Credentials: Sendable, Equatable {
    package let accessKeyID: String
    package let secretAccessKey: String
    /// A temporary session's token (`AWS_SESSION_TOKEN`), sent and signed as `x-amz-security-token`.
    package let sessionToken: String?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The keys as the AWS tools find them: `AWS_ACCESS_KEY_ID` and
    /// `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN`) in the
    /// environment; else the profile `AWS_PROFILE` names (`default`
    /// without it) in the shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`,
    /// else `~/.aws/credentials`).
    ///
    /// - Parameter homeFolder: Asked only when the environment holds no key.
    /// - Throws: ``S3CredentialsFailure`` naming what to set.
    package static func found(in environment: [String: String], homeFolder: @autoclosure () -> String) throws(S3CredentialsFailure) -> S3Credentials {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        if let key = value("AWS_ACCESS_KEY_ID") {
            guard let secret = value("AWS_SECRET_ACCESS_KEY") else { throw .secretMissing(source: "the environment") }
            return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN"))
        }
        let path = value("AWS_SHARED_CREDENTIALS_FILE") ?? (homeFolder() as NSString).appendingPathComponent(".aws/credentials")
        let profile = value("AWS_PROFILE") ?? "default"
        guard let data = FileManager.default.contents(atPath: path) else { throw .noKeys(file: path) }
        let sections = Self.sections(ofINI: String(decoding: data, as: UTF8.self))
        guard let section = sections[profile] else { throw .noProfile(profile, file: path) }
        guard let key = section["aws_access_key_id"], !key.isEmpty else { throw .noProfile(profile, file: path) }
        guard let secret = section["aws_secret_access_key"], !secret.isEmpty else { throw .secretMissing(source: "profile '\(profile)' of \(path)") }
        return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: section["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The variables of this process's environment that ``found(in:homeFolder:)``
    /// reads, and nothing else: asked for each request to a bucket, where a
    /// copy of the whole environment would be made each time.
    package static func processEnvironment() -> [String: String] {
        var found: [String: String] = [:]
        for name in ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SHARED_CREDENTIALS_FILE", "AWS_PROFILE"] {
            found[name] = ProcessEnvironment.value(name)
        }
        return found
    }

    /// The home folder `~/.aws` is in: `HOME`, as the AWS tools read it,
    /// else the password database's (which reads a file).
    package static func homeFolder() -> String {
        ProcessEnvironment.value("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// An INI file's sections, each a map of its keys (lowercased) to their
    /// values, as the AWS files are written: `[name]`, `key = value`, and
    /// comments from `#` or `;` at the start of a line.
    static func sections(ofINI text: String) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                let name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                // The config file writes "[profile work]"; the credentials file "[work]".
                current = name.hasPrefix("profile ") ? String(name.dropFirst("profile ".count)).trimmingCharacters(in: .whitespaces) : name
                if let current, sections[current] == nil { sections[current] = [:] }
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            sections[current]?[key] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        return sections
    }
}

/// Why no keys were found for an S3-compatible service; each says what to set.
package enum S3CredentialsFailure: Error, Equatable, CustomStringConvertible {
    /// Neither the environment nor the shared credentials file has keys.
    case noKeys(file: String)
    /// The profile asked for is not in the file.
    case noProfile(String, file: String)
    /// An access key without its secret.
    case secretMissing(source: String)

    package var description: String {
        switch self {
        case .noKeys(let file):
            "no keys for the object storage: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write them in \(file)"
        case .noProfile(let profile, let file):
            "no keys for profile '\(profile)' in \(file): add aws_access_key_id and aws_secret_access_key under [\(profile)], or set AWS_PROFILE"
        case .secretMissing(let source):
            "an access key without its secret in \(source): set AWS_SECRET_ACCESS_KEY (aws_secret_access_key in a file)"
        }
    }
}

import Crypto
import Foundation

/// A photo file the harness made, with the content albums should record for it.
struct PhotoFile: Hashable {
    let path: String
    let sha256: String

    var name: String { (path as NSString).lastPathComponent }
}

/// Makes distinct, valid JPEG files: an example photo with a unique tail,
/// which changes the SHA-256 but not the header albums reads.
struct PhotoFactory {
    let folder: String
    /// Starts every file name, so factories sharing a folder never collide.
    let tag: String
    private let template: Data
    private(set) var made = 0

    init(folder: String, template: String, tag: String) throws {
        self.folder = folder
        self.tag = tag
        self.template = try Data(contentsOf: URL(fileURLWithPath: template))
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    mutating func make(_ count: Int) throws -> [PhotoFile] {
        try (0..<count).map { _ in
            made += 1
            let bytes = template + Data("\(tag)-\(made)".utf8)
            let path = "\(folder)/\(tag)-\(String(format: "%06d", made)).jpg"
            try bytes.write(to: URL(fileURLWithPath: path))
            let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            return PhotoFile(path: path, sha256: digest)
        }
    }
}

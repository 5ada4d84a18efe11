/// Why a folder tree cannot be imported at all (a file or folder inside it
/// that cannot be used is skipped with its reason instead).
public enum TreeImportFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The root is missing or is not a folder.
    case notAFolder(String)
    /// The root cannot be listed.
    case unreadable(String)

    /// The error's stable code.
    public var code: String {
        switch self {
        case .notAFolder: "not_a_folder"
        case .unreadable: "unreadable_folder"
        }
    }

    public var description: String {
        switch self {
        case .notAFolder(let path): "\(path) is not a folder: a tree import takes a folder of folders and photos"
        case .unreadable(let path): "cannot list the folder \(path)"
        }
    }
}

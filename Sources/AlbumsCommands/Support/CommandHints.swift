import AlbumsPersistence

extension LibraryError {
    /// The hint, and first what a name that found nothing probably meant,
    /// where the library the command opened holds something near it.
    var commandHintLookingNearby: String? {
        switch self {
        case .albumNotFound(.named(let name)):
            if let near = OpenedLibrary.read({ try $0.nearbyName(to: name) }) {
                if case .folder(let path) = near {
                    return "\(Self.quoted(path)) is a folder: albums folder rename, move, lock and delete act on folders, and albums album list --tree shows what it holds"
                }
                return "did you mean \(Self.quoted(near.name))?"
            }
        case .folderNotFound(.path(let path)):
            if let near = OpenedLibrary.read({ try $0.nearbyName(to: path, wantsFolder: true) }) {
                if case .album(let name) = near { return "\(Self.quoted(name)) is an album: albums album --help lists what acts on albums" }
                return "did you mean \(Self.quoted(near.name))?"
            }
        default:
            break
        }
        return commandHint
    }

    /// What to type next, in the CLI's words, where there is something to
    /// type: added to the library's message of facts when the CLI reports it
    /// (the page says the same with its buttons).
    var commandHint: String? {
        switch self {
        case .corrupt:
            "albums check says more"
        case .noLibrary:
            "only commands that make something create one: check --library and $ALBUMS_LIBRARY, or run albums init to create it"
        case .albumNotFound(.named):
            "albums album list shows them"
        case .albumLocked(let name):
            "albums album unlock \(Self.shellArgument(name)) unlocks it"
        case .smartAlbum(let name):
            "albums list \(Self.shellArgument(name)) shows its photos (copy them by position or id:P); albums album freeze \(Self.shellArgument(name)) makes an ordinary album of it"
        case .smartAlbumCover(let name):
            "albums album freeze \(Self.shellArgument(name)) makes an ordinary album of it, whose cover you choose"
        case .smartAlbumLink(let name):
            "albums album freeze \(Self.shellArgument(name)) makes an ordinary album of it, holding what you see now; then link that"
        case .albumHasPendingLoads:
            "delete it with --force to cancel them"
        case .folderNotFound(.path):
            "albums folder list shows them"
        case .folderLocked(let name):
            "albums folder unlock \(Self.shellArgument(name)) unlocks it"
        case .folderNotEmpty:
            "delete it with --move-contents (they take its place) or --delete-albums (photos stay in the library)"
        case .ambiguousPhoto:
            "say which with --from ALBUM"
        case .placeholderNotAllowed:
            "wait for it, or cancel its load with albums pending cancel"
        case .sourceMissing:
            "albums relink FOLDER finds moved files"
        case .sourceChanged:
            "--allow-changed exports the bytes as they are now"
        case .fileExists:
            "--force replaces it"
        case .backupFailedCheck:
            "run albums check"
        case .nothingToUndo:
            "albums history lists the changes kept, and which are undone"
        case .personNotFound:
            "albums user list lists them"
        case .shareLinkNotFound:
            "albums link list lists them"
        default:
            nil
        }
    }
}

extension LibraryError {
    /// A name as a POSIX shell takes it back as one argument, for the
    /// commands a hint spells out: `Trip` as it is, `'Ana'\''s book'` quoted.
    static func shellArgument(_ text: String) -> String {
        let isPlain = text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-_./".unicodeScalars.contains($0))
        }
        return isPlain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

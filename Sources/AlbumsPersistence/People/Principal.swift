/// Who is asking: the one whose rights a read or an operation is checked against.
///
/// A ``LibraryReader`` or ``LibraryWriter`` acts for the file's holder
/// unless told otherwise (``LibraryReader/act(as:)``). `albums serve` tells
/// it, for each request, which person or share link is asking.
public enum Principal: Hashable, Sendable {
    /// Whoever holds the file: the CLI, or an app linking the library. Never checked.
    case holder
    /// A signed-in person, as they stood when the request began.
    case person(Person)
    /// Someone holding a share link: they see one album, read-only.
    case shareLink(ShareLinkID, album: AlbumID)

    /// Whether every right is held without looking at roles.
    public var holdsEveryRight: Bool {
        switch self {
        case .holder: true
        case .person(let person): person.isAdmin
        case .shareLink: false
        }
    }
}

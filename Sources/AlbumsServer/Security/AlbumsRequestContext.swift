import AlbumsPersistence
import Hummingbird
import NIOCore

/// What a request carries through the server: who is asking, once the
/// gate has said so, and the address it came from.
package struct AlbumsRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// Whose rights the request is served with (``Gate`` sets it).
    var principal: Principal = .holder
    /// What the request showed to be served as ``principal`` (``Gate`` sets
    /// it): what outlives the request, an event stream, asks it again.
    var credential: Credential = .holder

    /// Whether answers may name paths on the server's disk: only to the
    /// file's holder (the token) and admins, never before the gate has
    /// said who asks, and never to a share link's holder.
    var showsServerPaths: Bool {
        switch credential {
        case .holder, .acting: false  // the gate never sets these: nobody it let in
        case .serverToken, .personSession: principal.holdsEveryRight
        }
    }
    /// The peer's address: the client's, or a trusted proxy's.
    let peer: String?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress
    }
}

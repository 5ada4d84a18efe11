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
    /// The peer's address: the client's, or a trusted proxy's.
    let peer: String?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress
    }
}

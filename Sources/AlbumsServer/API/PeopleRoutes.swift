import AlbumsPersistence
import AlbumsTransfer
import Foundation
import Hummingbird

/// Sharing from the page: who can be given a role, and the roles on an album.
struct PeopleRoutes: Sendable {
    let library: Library

    func register(on router: Router<AlbumsRequestContext>, recording allowed: inout AllowedMethods) {
        router.get("api/people") { _, context in try await people(context) }
        router.get("api/albums/:name/roles") { _, context in try await roles(context) }
        router.put("api/albums/:name/roles") { request, context in try await setRole(request, context) }
        allowed.add(.get, "api/people")
        allowed.add(.get, "api/albums/:name/roles")
        allowed.add(.put, "api/albums/:name/roles")
    }

    private struct DirectoryEntryJSON: Encodable {
        let name: String
    }

    /// `GET /api/people`: the names of everyone who can be given a role, to
    /// those who may share (``LibraryReader/sharingDirectory()``).
    private func people(_ context: AlbumsRequestContext) async throws -> Response {
        let names = try await APIRoutes.session(library, context).read { try $0.sharingDirectory() }
        return JSONResponse.make(["people": names.map(DirectoryEntryJSON.init)])
    }

    private struct RoleJSON: Encodable {
        let person: String
        let role: String
        /// Where the role comes from: `album`, or the folder's path it is given on.
        let givenOn: String

        /// The JSON keys, in snake_case.
        enum CodingKeys: String, CodingKey {
            case person
            case role
            case givenOn = "given_on"
        }
    }

    /// `GET /api/albums/NAME/roles`: who holds which role on the album (its
    /// owners and admins may ask; anyone else is refused as they are for
    /// sharing), and on the folders above it that the asker sees.
    private func roles(_ context: AlbumsRequestContext) async throws -> Response {
        let name = try RequestParts.pathText(context, "name")
        let roles = try await APIRoutes.session(library, context).read { reader -> [RoleJSON] in
            try reader.rolesShown(on: try reader.album(named: name)).map { RoleJSON(person: $0.person, role: $0.role.rawValue, givenOn: $0.givenOn ?? "album") }
        }
        return JSONResponse.make(["roles": roles])
    }

    private struct RoleChange: Decodable {
        let person: String
        /// `viewer`, `editor`, `owner`, or null to take the role away.
        let role: String?
    }

    /// `PUT /api/albums/NAME/roles` with `{"person", "role"}` (null: none).
    private func setRole(_ request: Request, _ context: AlbumsRequestContext) async throws -> Response {
        let name = try RequestParts.pathText(context, "name")
        guard let change = try? JSONDecoder().decode(RoleChange.self, from: Data(try await RequestParts.bodyText(request).utf8)) else {
            throw RequestRefusal.badParameter("send {\"person\": NAME, \"role\": \"viewer\" | \"editor\" | \"owner\" | null}")
        }
        let role = try change.role.map { text in
            guard let role = Role(rawValue: text) else { throw RequestRefusal.badParameter("role must be viewer, editor, owner or null, not '\(text)'") }
            return role
        }
        try await APIRoutes.session(library, context).write { writer in
            // Who may share first, then whom: a refusal tells a non-owner nothing of the people.
            let album = try writer.album(named: name)
            try writer.require(.owner, on: album)
            let person = try writer.personForSharing(named: change.person)
            try writer.setRole(role, of: person.id, on: .album(album.id))
        }
        return try await roles(context)
    }
}

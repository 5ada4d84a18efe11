import AlbumsPersistence

/// A person as both front ends show them: `albums user list --json` and the
/// API's signed-in person.
package struct PersonJSON: Encodable, Sendable {
    package let id: Int64
    package let name: String
    package let admin: Bool
    package let disabled: Bool
    package let createdAt: String

    package init(_ person: Person) {
        id = person.id.rawValue
        name = person.name
        admin = person.isAdmin
        disabled = person.isDisabled
        createdAt = Timestamp.text(person.createdAt)
    }

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case id
        case name
        case admin
        case disabled
        case createdAt = "created_at"
    }
}

/// An optional that JSON writes as `null` when absent, where the
/// synthesized encoding would leave the key out: scripts may rely on every
/// documented key being present (`photo_id`, `position`, `album`, …).
@propertyWrapper
package struct KeptNull<Value: Encodable & Sendable>: Encodable, Sendable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

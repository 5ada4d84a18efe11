/// An optional that JSON writes as `null` when absent, where the
/// synthesized encoding would leave the key out: scripts may rely on every
/// documented key being present (`photo_id`, `position`, `album`, …).
@propertyWrapper
struct KeptNull<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

import Foundation

/// One JSON value of a batch line, with integers, other numbers and booleans
/// kept apart.
///
/// Foundation's `JSONSerialization` returns `NSNumber`, which on Linux casts
/// `1` to `true` and `true` to `1`: `"at": 1` was refused as a boolean.
/// `JSONDecoder` keeps the types the text wrote.
enum BatchJSONValue: Decodable, Equatable {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case array([BatchJSONValue])
    case object([String: BatchJSONValue])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([BatchJSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: BatchJSONValue].self))
        }
    }

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    var integer: Int? {
        if case .integer(let value) = self { value } else { nil }
    }
}

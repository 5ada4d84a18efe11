/// Bytes as lowercase hexadecimal text, by table: listings print a digest
/// for every item, and `String(format:)` per byte costs microseconds.
package enum HexDigits {
    private static let digits = Array("0123456789abcdef".utf8)

    package static func string(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

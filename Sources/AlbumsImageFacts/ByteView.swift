import Foundation

/// Bounds-checked reads of integers from bytes: every read past the end
/// returns nil instead of trapping, so a truncated or lying file can only
/// make a header unreadable, never crash the loader.
struct ByteView {
    let bytes: UnsafeRawBufferPointer

    var count: Int { bytes.count }

    func u8(_ offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    func u16(_ offset: Int, bigEndian: Bool) -> UInt16? {
        guard let a = u8(offset), let b = u8(offset + 1) else { return nil }
        return bigEndian ? UInt16(a) << 8 | UInt16(b) : UInt16(b) << 8 | UInt16(a)
    }

    func u24le(_ offset: Int) -> UInt32? {
        guard let a = u8(offset), let b = u8(offset + 1), let c = u8(offset + 2) else { return nil }
        return UInt32(c) << 16 | UInt32(b) << 8 | UInt32(a)
    }

    func u32(_ offset: Int, bigEndian: Bool) -> UInt32? {
        guard let high = u16(offset, bigEndian: bigEndian), let low = u16(offset + 2, bigEndian: bigEndian) else { return nil }
        return bigEndian ? UInt32(high) << 16 | UInt32(low) : UInt32(low) << 16 | UInt32(high)
    }

    func u64be(_ offset: Int) -> UInt64? {
        u64(offset, bigEndian: true)
    }

    func u64(_ offset: Int, bigEndian: Bool) -> UInt64? {
        guard let first = u32(offset, bigEndian: bigEndian), let second = u32(offset + 4, bigEndian: bigEndian) else { return nil }
        return bigEndian ? UInt64(first) << 32 | UInt64(second) : UInt64(second) << 32 | UInt64(first)
    }

    /// Whether the bytes at `offset` are `expected`.
    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + expected.count <= bytes.count else { return false }
        return expected.indices.allSatisfy { bytes[offset + $0] == expected[$0] }
    }

    /// Whether the bytes at `offset` are `expected`'s UTF-8, without making an array of it.
    func matches(_ expected: StaticString, at offset: Int) -> Bool {
        expected.withUTF8Buffer { expected in
            guard offset >= 0, expected.count <= bytes.count - offset else { return false }
            for index in 0..<expected.count where bytes[offset + index] != expected[index] { return false }
            return true
        }
    }

    func ascii(_ offset: Int, count: Int) -> String? {
        guard offset >= 0, offset <= bytes.count, count >= 0, count <= bytes.count - offset else { return nil }
        return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }

    /// A view of `count` bytes from `offset`, clipped to what exists.
    ///
    /// Sizes come from the file and may be anything up to `Int.max`: they are
    /// compared with what remains, never added to the offset.
    func slice(_ offset: Int, count: Int) -> ByteView? {
        guard offset >= 0, offset <= bytes.count, count >= 0 else { return nil }
        let end = count < bytes.count - offset ? offset + count : bytes.count
        return ByteView(bytes: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
    }
}

import AlbumsTransfer

/// Any bytes, as a reference: parsed or refused with a reason, never a
/// crash; and a parsed position is always a valid index.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReferences(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    do {
        for reference in try ReferenceParser.parse(text, photoAlbum: nil) {
            if case .position(let index, _) = reference, index < 0 { fatalError("negative index from \(text.debugDescription)") }
        }
    } catch {
        if error.description.isEmpty { fatalError("a refusal without a reason for \(text.debugDescription)") }
    }
    return 0
}

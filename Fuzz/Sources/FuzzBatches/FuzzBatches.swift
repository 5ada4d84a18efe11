import AlbumsTransfer

/// Any bytes, as a JSON Lines batch: operations or an error naming its
/// line, never a crash, a hang or a runaway allocation.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatches(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    do {
        _ = try TransferBatchFormat.operations(fromJSONLines: text)
    } catch {
        if !error.description.hasPrefix("line ") { fatalError("an error without its line: \(error.description)") }
    }
    return 0
}

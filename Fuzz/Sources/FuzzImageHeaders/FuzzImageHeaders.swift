import AlbumsImageFacts
import Foundation

/// Any bytes, as an image file and as a video's container: facts or a
/// failure, never a crash or a hang; the facts are always plausible.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageHeaders(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let video = try? VideoHeaderReader.read(data) {
        if let width = video.pixelWidth, let height = video.pixelHeight, width <= 0 || height <= 0 { fatalError("a video of \(width)×\(height) pixels") }
        if let duration = video.duration, !(duration.isFinite && duration >= 0) { fatalError("a video of \(duration) s") }
    }
    guard let facts = try? ImageHeaderReader.read(data) else { return 0 }
    if !facts.mediaType.hasPrefix("image/") { fatalError("media type \(facts.mediaType)") }
    if let width = facts.pixelWidth, let height = facts.pixelHeight {
        if width <= 0 || height <= 0 { fatalError("\(width)×\(height) pixels") }
    } else if (facts.pixelWidth == nil) != (facts.pixelHeight == nil) {
        fatalError("a width without a height")
    }
    return 0
}

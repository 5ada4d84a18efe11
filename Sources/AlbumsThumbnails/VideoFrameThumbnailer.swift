import CFFmpeg
import CVips
import Foundation

/// A video's thumbnail: a frame FFmpeg's libraries pick and decode (one
/// that shows something, not a fade's black first frame), turned upright
/// as the container says and encoded by libvips as a photo's is.
///
/// Why FFmpeg's libraries: they demux and decode every container and codec
/// a phone or a camera writes (H.264, HEVC, VP9, AV1, ProRes, …); a frame
/// is decoded in place, with no `ffmpeg` process started per video.
enum VideoFrameThumbnailer {
    /// Opened on first use; nil once they are, else why they cannot be.
    static let startFailure: String? = albums_ffmpeg_start().map { String(cString: $0) }

    /// Makes the JPEG thumbnail of the video at `path`, `duration` seconds
    /// long (where known), upright by `turn`; blocks while it works.
    static func makeJPEG(
        fromVideoAt path: String, duration: Double?, longerSide: Int, turn: (mirrored: Bool, quarterTurns: Int)
    ) -> Result<Data, VipsFailure> {
        if let startFailure { return .failure(.unavailable(detail: startFailure)) }
        if let startFailure = VipsThumbnailer.startFailure { return .failure(.unavailable(detail: startFailure)) }
        var frame = albums_video_frame_t()
        let status = albums_ffmpeg_frame(path, duration.flatMap { $0.isFinite ? $0 : nil } ?? 0, Int32(longerSide), &frame)
        defer { albums_ffmpeg_release(&frame) }
        guard status == 0, let pixels = frame.pixels else {
            return .failure(.undecodable(detail: frame.error.map { String(cString: $0) } ?? "FFmpeg failed"))
        }
        var result = albums_vips_thumbnail_t()
        let encoded = albums_vips_encode_rgb(
            pixels, frame.width, frame.height, VipsThumbnailer.quality, turn.mirrored ? 1 : 0, Int32(turn.quarterTurns), &result)
        defer { albums_vips_release(&result) }
        guard encoded == 0, let bytes = result.bytes else {
            return .failure(.undecodable(detail: result.error.map { String(cString: $0) } ?? "libvips failed"))
        }
        return .success(Data(bytes: bytes, count: result.length))
    }
}

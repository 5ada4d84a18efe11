import CFFmpeg

/// What a video file holds, in FFmpeg's names, and whether a browser plays
/// it as it is.
package struct VideoStreams: Sendable, Equatable {
    /// The demuxer FFmpeg opened it with (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `avi`, `mpeg`).
    package var container: String
    /// The main picture's codec (`h264`, `hevc`, `prores`, …); nil without one.
    package var videoCodec: String?
    /// The main sound's codec (`aac`, `pcm_s16le`, …); nil without one.
    package var audioCodec: String?

    package init(container: String, videoCodec: String?, audioCodec: String?) {
        self.container = container
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
    }

    /// Reads the streams of the video at `path` through FFmpeg's libraries;
    /// blocks while it reads. Fails with why it cannot.
    package static func read(videoAt path: String) -> Result<VideoStreams, RenditionFailure> {
        if let startFailure = VideoFrameThumbnailer.startFailure { return .failure(.unavailable(detail: startFailure)) }
        var streams = albums_video_streams_t()
        var error = [CChar](repeating: 0, count: 256)
        let status = albums_ffmpeg_streams(path, &streams, &error, Int32(error.count))
        guard status == 0 else {
            return .failure(.unreadable(detail: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        func text<T>(_ field: T) -> String? {
            let value = withUnsafeBytes(of: field) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
            return value.isEmpty ? nil : value
        }
        return .success(VideoStreams(container: text(streams.container) ?? "", videoCodec: text(streams.video_codec), audioCodec: text(streams.audio_codec)))
    }

    /// Whether Chromium, Firefox and Safari all play it from a `<video>`
    /// element as it is: H.264, VP8, VP9 or AV1 pictures with AAC, MP3,
    /// Opus, Vorbis or FLAC sound, in MP4 (QuickTime's family) or Matroska
    /// (WebM). Anything else (HEVC, ProRes, MPEG-2, MPEG-4 Part 2, H.263,
    /// AVI, MPEG program streams, PCM sound) needs a rendition.
    package var playsInBrowsers: Bool {
        let containers: Set = ["mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm"]
        let pictures: Set = ["h264", "vp8", "vp9", "av1"]
        let sounds: Set = ["aac", "mp3", "opus", "vorbis", "flac"]
        guard containers.contains(container), let videoCodec, pictures.contains(videoCodec) else { return false }
        return audioCodec.map(sounds.contains) ?? true
    }
}

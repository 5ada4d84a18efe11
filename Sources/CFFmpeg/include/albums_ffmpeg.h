// A narrow face on FFmpeg's libraries for Swift: one call that picks a
// frame of a video worth showing and hands it back as RGB at a thumbnail's
// size. The libraries are opened at run time by albums_ffmpeg_start, not
// linked, as libvips is.
#ifndef ALBUMS_FFMPEG_H
#define ALBUMS_FFMPEG_H

/// Opens FFmpeg's libraries (libavformat, libavcodec, libavutil,
/// libswscale); call it once per process, before any other function here.
/// Returns NULL on success, else why they cannot be used (not installed,
/// another major version than albums was built against, built without
/// their headers), in a static buffer.
const char *albums_ffmpeg_start(void);

/// A frame as RGB, or the reason there is none.
typedef struct albums_video_frame_t {
    unsigned char *pixels;  // width × height × 3 bytes, rows packed; freed by albums_ffmpeg_release
    int width;
    int height;
    double seconds;         // where in the video it was taken
    char *error;            // freed by albums_ffmpeg_release
} albums_video_frame_t;

/// Decodes a frame of the video at `path` that shows something (not the
/// black of a fade in: a few moments are tried, the first that is neither
/// dark nor flat wins, else the liveliest), scaled so that its longer side
/// is `longer_side`, as stored (the container's rotation is not
/// applied). Only the containers and decoders of a phone's or a camera's
/// video are opened, and only files. `duration` is the video's length in
/// seconds where known (else 0). Returns 0 on success; otherwise
/// `out->error` says why.
int albums_ffmpeg_frame(const char *path, double duration, int longer_side, albums_video_frame_t *out);

void albums_ffmpeg_release(albums_video_frame_t *frame);

/// What a video file holds, in FFmpeg's names: its container (the
/// demuxer's, e.g. "mov,mp4,m4a,3gp,3g2,mj2"), its main picture's codec and
/// its main sound's ("h264", "aac"; empty where it has none).
typedef struct albums_video_streams_t {
    char container[64];
    char video_codec[32];
    char audio_codec[32];
} albums_video_streams_t;

/// Reads which streams the video at `path` holds, with the same limits as
/// albums_ffmpeg_frame (files only, a video's containers only). Returns 0
/// on success, else -1 with `error` (of `error_size` bytes) saying why.
int albums_ffmpeg_streams(const char *path, albums_video_streams_t *out, char *error, int error_size);

#endif

#include "albums_ffmpeg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// FFmpeg is opened on first use, never linked, for the reason libvips is
// (Sources/CVips): only `albums serve` makes thumbnails, and its libraries
// bring dozens of codecs' shared libraries to every process's start.
//
// Unlike libvips' prototypes, FFmpeg's are taken from its own headers
// (libavformat-dev and the rest): a frame is read through the fields of
// its structures, whose layout only the headers know. Those layouts hold
// within a major version, so albums_ffmpeg_start refuses libraries of
// another major version than the headers albums was built with.

#if __has_include(<libavformat/avformat.h>) && __has_include(<libswscale/swscale.h>)

#include <dlfcn.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
#include <math.h>

#define ALBUMS_STRINGIFY(x) #x
#define ALBUMS_TEXT(x) ALBUMS_STRINGIFY(x)

static struct {
    __typeof__(avformat_version) *avformat_version;
    __typeof__(avcodec_version) *avcodec_version;
    __typeof__(avutil_version) *avutil_version;
    __typeof__(swscale_version) *swscale_version;
    __typeof__(av_log_set_level) *log_set_level;
    __typeof__(av_dict_set) *dict_set;
    __typeof__(av_dict_free) *dict_free;
    __typeof__(avformat_open_input) *open_input;
    __typeof__(avformat_find_stream_info) *find_stream_info;
    __typeof__(av_find_best_stream) *find_best_stream;
    __typeof__(avformat_close_input) *close_input;
    __typeof__(av_seek_frame) *seek_frame;
    __typeof__(av_read_frame) *read_frame;
    __typeof__(avcodec_alloc_context3) *alloc_context;
    __typeof__(avcodec_parameters_to_context) *parameters_to_context;
    __typeof__(avcodec_open2) *codec_open;
    __typeof__(avcodec_free_context) *free_context;
    __typeof__(avcodec_send_packet) *send_packet;
    __typeof__(avcodec_receive_frame) *receive_frame;
    __typeof__(avcodec_flush_buffers) *flush_buffers;
    __typeof__(avcodec_get_name) *codec_name;
    __typeof__(av_packet_alloc) *packet_alloc;
    __typeof__(av_packet_unref) *packet_unref;
    __typeof__(av_packet_free) *packet_free;
    __typeof__(av_frame_alloc) *frame_alloc;
    __typeof__(av_frame_unref) *frame_unref;
    __typeof__(av_frame_free) *frame_free;
    __typeof__(sws_getContext) *sws_get_context;
    __typeof__(sws_scale) *sws_scale;
    __typeof__(sws_freeContext) *sws_free_context;
} ff;

static char start_failure[512];

// Where the system keeps the libraries of the major versions albums was built with.
static void *open_library(const char *name, int major, char *error, size_t error_size) {
    char file[64];
#if defined(__APPLE__)
    snprintf(file, sizeof file, "lib%s.%d.dylib", name, major);
#else
    snprintf(file, sizeof file, "lib%s.so.%d", name, major);
#endif
    void *library = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!library && !error[0]) snprintf(error, error_size, "%s", dlerror());
    return library;
}

static int resolve(void *library, void *slot, const char *name) {
    void *symbol = library ? dlsym(library, name) : NULL;
    memcpy(slot, &symbol, sizeof symbol);
    return symbol != NULL;
}

const char *albums_ffmpeg_start(void) {
    char error[256] = "";
    void *format = open_library("avformat", LIBAVFORMAT_VERSION_MAJOR, error, sizeof error);
    void *codec = open_library("avcodec", LIBAVCODEC_VERSION_MAJOR, error, sizeof error);
    void *util = open_library("avutil", LIBAVUTIL_VERSION_MAJOR, error, sizeof error);
    void *scale = open_library("swscale", LIBSWSCALE_VERSION_MAJOR, error, sizeof error);
    if (!format || !codec || !util || !scale) {
        snprintf(start_failure, sizeof start_failure,
            "FFmpeg's libraries cannot be loaded (%s); on Debian or Ubuntu: apt-get install libavformat" ALBUMS_TEXT(
                LIBAVFORMAT_VERSION_MAJOR) " libswscale" ALBUMS_TEXT(LIBSWSCALE_VERSION_MAJOR),
            error);
        return start_failure;
    }
    struct { void *library; void *slot; const char *name; } required[] = {
        {format, &ff.avformat_version, "avformat_version"},
        {codec, &ff.avcodec_version, "avcodec_version"},
        {util, &ff.avutil_version, "avutil_version"},
        {scale, &ff.swscale_version, "swscale_version"},
        {util, &ff.log_set_level, "av_log_set_level"},
        {util, &ff.dict_set, "av_dict_set"},
        {util, &ff.dict_free, "av_dict_free"},
        {format, &ff.open_input, "avformat_open_input"},
        {format, &ff.find_stream_info, "avformat_find_stream_info"},
        {format, &ff.find_best_stream, "av_find_best_stream"},
        {format, &ff.close_input, "avformat_close_input"},
        {format, &ff.seek_frame, "av_seek_frame"},
        {format, &ff.read_frame, "av_read_frame"},
        {codec, &ff.alloc_context, "avcodec_alloc_context3"},
        {codec, &ff.parameters_to_context, "avcodec_parameters_to_context"},
        {codec, &ff.codec_open, "avcodec_open2"},
        {codec, &ff.free_context, "avcodec_free_context"},
        {codec, &ff.send_packet, "avcodec_send_packet"},
        {codec, &ff.receive_frame, "avcodec_receive_frame"},
        {codec, &ff.flush_buffers, "avcodec_flush_buffers"},
        {codec, &ff.codec_name, "avcodec_get_name"},
        {codec, &ff.packet_alloc, "av_packet_alloc"},
        {codec, &ff.packet_unref, "av_packet_unref"},
        {codec, &ff.packet_free, "av_packet_free"},
        {util, &ff.frame_alloc, "av_frame_alloc"},
        {util, &ff.frame_unref, "av_frame_unref"},
        {util, &ff.frame_free, "av_frame_free"},
        {scale, &ff.sws_get_context, "sws_getContext"},
        {scale, &ff.sws_scale, "sws_scale"},
        {scale, &ff.sws_free_context, "sws_freeContext"},
    };
    for (size_t index = 0; index < sizeof required / sizeof *required; index++)
        if (!resolve(required[index].library, required[index].slot, required[index].name)) {
            snprintf(start_failure, sizeof start_failure, "the installed FFmpeg lacks %s, which video thumbnails need", required[index].name);
            return start_failure;
        }
    // The structures' layout is the headers'; the version in the library's name should say so, and this makes sure.
    if (ff.avformat_version() >> 16 != LIBAVFORMAT_VERSION_MAJOR || ff.avcodec_version() >> 16 != LIBAVCODEC_VERSION_MAJOR
        || ff.avutil_version() >> 16 != LIBAVUTIL_VERSION_MAJOR || ff.swscale_version() >> 16 != LIBSWSCALE_VERSION_MAJOR) {
        snprintf(start_failure, sizeof start_failure, "the installed FFmpeg is another version than albums was built with (libavformat %u)",
            ff.avformat_version() >> 16);
        return start_failure;
    }
    // A damaged clip's complaints are not the user's business on albums' stderr; failures come back as errors.
    ff.log_set_level(AV_LOG_QUIET);
    return NULL;
}

static int fail(albums_video_frame_t *out, const char *reason) {
    free(out->pixels);
    out->pixels = NULL;
    out->error = strdup(reason);
    return -1;
}

// How much a frame shows: its mean brightness and how much it varies, on a
// sample of its pixels (0-255). A fade's first frame is dark and flat.
static void measure(const unsigned char *pixels, int width, int height, double *mean, double *deviation) {
    double sum = 0, squares = 0;
    long count = 0;
    int step = width * height > 4096 ? 7 : 1;
    for (long index = 0; index < (long)width * height; index += step, count++) {
        const unsigned char *pixel = pixels + index * 3;
        double luma = 0.299 * pixel[0] + 0.587 * pixel[1] + 0.114 * pixel[2];
        sum += luma;
        squares += luma * luma;
    }
    *mean = count ? sum / count : 0;
    double variance = count ? squares / count - *mean * *mean : 0;
    *deviation = variance > 0 ? sqrt(variance) : 0;
}

// Decodes the first frame at or after `seconds` into `out` (RGB, fit to
// `longer_side`); 0 on success.
static int frame_at(AVFormatContext *format, AVCodecContext *decoder, AVStream *stream, double seconds, int longer_side,
    AVPacket *packet, AVFrame *frame, albums_video_frame_t *out) {
    int64_t target = stream->time_base.num > 0 ? (int64_t)(seconds * stream->time_base.den / stream->time_base.num) : 0;
    // Backward: to the key frame before the moment, from which it decodes.
    // A stream that cannot seek is read from where it stands, for the start only.
    if (ff.seek_frame(format, stream->index, target, AVSEEK_FLAG_BACKWARD) < 0 && seconds > 0) return -1;
    ff.flush_buffers(decoder);
    int found = 0, packets = 0, ended = 0;
    // A bound on the packets read: a key frame every few seconds is usual; a file that never yields a frame must not hold a thread.
    while (!found && packets < 2000) {
        int read = ended ? AVERROR_EOF : ff.read_frame(format, packet);
        if (read < 0) {
            if (ended) break;
            ended = 1;
            ff.send_packet(decoder, NULL);  // drain: the decoder may hold the last frames
        } else {
            packets++;
            int sent = packet->stream_index == stream->index ? ff.send_packet(decoder, packet) : 0;
            ff.packet_unref(packet);
            if (sent < 0 && sent != AVERROR(EAGAIN)) continue;
        }
        while (!found) {
            int received = ff.receive_frame(decoder, frame);
            if (received < 0) break;
            int64_t at = frame->best_effort_timestamp;
            // The frame the seek aimed at, or the last one there is.
            if (at == AV_NOPTS_VALUE || at >= target || seconds <= 0) {
                found = 1;
                break;
            }
            ff.frame_unref(frame);
        }
        if (ended && !found) break;
    }
    if (!found) return -1;
    if (frame->width <= 0 || frame->height <= 0 || frame->width > 16384 || frame->height > 16384) {
        ff.frame_unref(frame);
        return -1;
    }
    // Up or down to the size asked, as a photo's thumbnail is.
    double scale = (double)longer_side / (frame->width > frame->height ? frame->width : frame->height);
    int width = (int)lround(frame->width * scale), height = (int)lround(frame->height * scale);
    if (width < 1) width = 1;
    if (height < 1) height = 1;
    struct SwsContext *scaler = ff.sws_get_context(frame->width, frame->height, frame->format, width, height, AV_PIX_FMT_RGB24,
        SWS_AREA, NULL, NULL, NULL);
    unsigned char *pixels = scaler ? malloc((size_t)width * height * 3) : NULL;
    if (!pixels) {
        if (scaler) ff.sws_free_context(scaler);
        ff.frame_unref(frame);
        return -1;
    }
    uint8_t *planes[4] = {pixels, NULL, NULL, NULL};
    int strides[4] = {width * 3, 0, 0, 0};
    int rows = ff.sws_scale(scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
    ff.sws_free_context(scaler);
    double shown = frame->best_effort_timestamp == AV_NOPTS_VALUE ? seconds
        : (double)frame->best_effort_timestamp * stream->time_base.num / stream->time_base.den;
    ff.frame_unref(frame);
    if (rows != height) {
        free(pixels);
        return -1;
    }
    free(out->pixels);
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    out->seconds = shown < 0 ? 0 : shown;
    return 0;
}

// The decoders of the pictures phones and cameras record.
#define ALBUMS_VIDEO_DECODERS \
    "h264,hevc,vp8,vp9,av1,libdav1d,mpeg4,h263,h263p,mpeg1video,mpeg2video,mjpeg,prores,dvvideo,theora,msmpeg4v2,msmpeg4v3,wmv2,wmv3,vc1"

// Opens `path` with only files, and only the containers albums recognizes
// a video by, and only `decoders`: the bytes come from people's folders
// and uploads. NULL when FFmpeg cannot open it.
static AVFormatContext *open_video(const char *path, const char *decoders) {
    AVDictionary *options = NULL;
    ff.dict_set(&options, "protocol_whitelist", "file", 0);
    ff.dict_set(&options, "format_whitelist", "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpeg", 0);
    ff.dict_set(&options, "codec_whitelist", decoders, 0);
    AVFormatContext *format = NULL;
    int opened = ff.open_input(&format, path, NULL, &options);
    ff.dict_free(&options);
    return opened < 0 ? NULL : format;
}

int albums_ffmpeg_streams(const char *path, albums_video_streams_t *out, char *error, int error_size) {
    memset(out, 0, sizeof *out);
    // Sound decoders too: finding a stream's parameters may decode a little of it.
    AVFormatContext *format = open_video(path, ALBUMS_VIDEO_DECODERS ",aac,mp3,mp2,opus,vorbis,flac,alac,ac3,eac3,amrnb,amrwb,pcm_s16le,pcm_s16be,pcm_s24le,pcm_u8,pcm_f32le,adpcm_ima_qt");
    if (!format) {
        snprintf(error, error_size, "FFmpeg cannot open it as a video");
        return -1;
    }
    if (ff.find_stream_info(format, NULL) < 0) {
        ff.close_input(&format);
        snprintf(error, error_size, "FFmpeg cannot read its streams");
        return -1;
    }
    snprintf(out->container, sizeof out->container, "%s", format->iformat && format->iformat->name ? format->iformat->name : "");
    int video = ff.find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    int audio = ff.find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, video, NULL, 0);
    if (video >= 0) snprintf(out->video_codec, sizeof out->video_codec, "%s", ff.codec_name(format->streams[video]->codecpar->codec_id));
    if (audio >= 0) snprintf(out->audio_codec, sizeof out->audio_codec, "%s", ff.codec_name(format->streams[audio]->codecpar->codec_id));
    ff.close_input(&format);
    return 0;
}

int albums_ffmpeg_frame(const char *path, double duration, int longer_side, albums_video_frame_t *out) {
    memset(out, 0, sizeof *out);
    if (longer_side < 1) return fail(out, "no size asked for");
    AVFormatContext *format = open_video(path, ALBUMS_VIDEO_DECODERS);
    if (!format) return fail(out, "FFmpeg cannot open it as a video");
    const AVCodec *codec = NULL;
    int index = ff.find_stream_info(format, NULL) >= 0 ? ff.find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0) : -1;
    if (index < 0 || !codec) {
        ff.close_input(&format);
        return fail(out, "it holds no picture FFmpeg decodes");
    }
    AVStream *stream = format->streams[index];
    AVCodecContext *decoder = ff.alloc_context(codec);
    AVDictionary *decoder_options = NULL;
    ff.dict_set(&decoder_options, "codec_whitelist", ALBUMS_VIDEO_DECODERS, 0);
    // One thread: the thumbnail store runs as many jobs as there are processors.
    ff.dict_set(&decoder_options, "threads", "1", 0);
    int ready = decoder && ff.parameters_to_context(decoder, stream->codecpar) >= 0 && ff.codec_open(decoder, codec, &decoder_options) >= 0;
    ff.dict_free(&decoder_options);
    if (!ready) {
        ff.free_context(&decoder);
        ff.close_input(&format);
        return fail(out, "FFmpeg cannot decode its picture");
    }
    AVPacket *packet = ff.packet_alloc();
    AVFrame *frame = ff.frame_alloc();
    // Moments tried in turn: past a fade in, then a third in, then the
    // middle; a clip of unknown length from its first frame on.
    double moments[4];
    int moment_count = 0;
    if (duration > 0.5) {
        // A second in (a fade in is seldom longer), a tenth in for a long clip (up to 5 s), a short clip's middle at most.
        double first = duration * 0.1 < 1 ? 1 : (duration * 0.1 > 5 ? 5 : duration * 0.1);
        moments[moment_count++] = first < duration / 2 ? first : duration / 2;
        moments[moment_count++] = duration / 3;
        moments[moment_count++] = duration / 2;
    }
    moments[moment_count++] = 0;
    albums_video_frame_t best = {0};
    double best_score = -1;
    for (int attempt = 0; attempt < moment_count && packet && frame; attempt++) {
        albums_video_frame_t candidate = {0};
        if (frame_at(format, decoder, stream, moments[attempt], longer_side, packet, frame, &candidate) != 0) continue;
        double mean, deviation;
        measure(candidate.pixels, candidate.width, candidate.height, &mean, &deviation);
        if (mean >= 24 && deviation >= 12) {
            free(best.pixels);
            best = candidate;
            break;
        }
        double score = deviation + mean / 8;
        if (score > best_score) {
            free(best.pixels);
            best = candidate;
            best_score = score;
        } else {
            free(candidate.pixels);
        }
    }
    ff.frame_free(&frame);
    ff.packet_free(&packet);
    ff.free_context(&decoder);
    ff.close_input(&format);
    if (!best.pixels) return fail(out, "FFmpeg decoded no frame of it");
    *out = best;
    return 0;
}

#else

const char *albums_ffmpeg_start(void) {
    return "albums was built without FFmpeg's headers (libavformat-dev, libavcodec-dev, libswscale-dev): it makes no video thumbnails";
}

int albums_ffmpeg_frame(const char *path, double duration, int longer_side, albums_video_frame_t *out) {
    (void)path; (void)duration; (void)longer_side;
    memset(out, 0, sizeof *out);
    out->error = strdup(albums_ffmpeg_start());
    return -1;
}

int albums_ffmpeg_streams(const char *path, albums_video_streams_t *out, char *error, int error_size) {
    (void)path;
    memset(out, 0, sizeof *out);
    snprintf(error, error_size, "%s", albums_ffmpeg_start());
    return -1;
}

#endif

void albums_ffmpeg_release(albums_video_frame_t *frame) {
    free(frame->pixels);
    free(frame->error);
    frame->pixels = NULL;
    frame->error = NULL;
}

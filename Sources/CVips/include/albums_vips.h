// A narrow, non-variadic face on libvips for Swift, which cannot call C's
// variadic functions (vips_thumbnail_buffer, vips_jpegsave_buffer, ...).
// libvips is opened at run time by albums_vips_start, not linked.
#ifndef ALBUMS_VIPS_H
#define ALBUMS_VIPS_H

#include <stddef.h>

/// Opens and starts libvips; call it once per process, before any other
/// function here. Returns NULL on success, else why libvips cannot be used
/// (not installed, too old, failed to start), in a static buffer. `jobs`
/// bounds the threads one operation uses; untrusted loaders (PDF, SVG,
/// Magick, ...) are blocked, since only photos albums recognised reach it.
const char *albums_vips_start(const char *program, int jobs);

/// An encoded thumbnail, or the reason there is none.
typedef struct albums_vips_thumbnail_t {
    unsigned char *bytes;  // freed by albums_vips_release
    size_t length;
    char *error;           // freed by albums_vips_release
} albums_vips_thumbnail_t;

/// Decodes `bytes`, turns the image upright per its orientation, converts
/// it to sRGB, scales it so that its longer side is `longer_side`, then
/// mirrors it left to right if `mirrored` and turns it `quarter_turns`
/// clockwise (a turn kept apart from the file), flattens any transparency
/// onto white and encodes it as a JPEG of `quality`.
/// Returns 0 on success; otherwise `out->error` says why.
int albums_vips_thumbnail(const void *bytes, size_t length, int longer_side, int quality, int mirrored, int quarter_turns,
    albums_vips_thumbnail_t *out);

/// Encodes a picture already at its thumbnail's size (a video's frame:
/// `width` × `height` pixels of 8-bit RGB, rows packed) as a JPEG of
/// `quality`, after mirroring it if `mirrored` and turning it
/// `quarter_turns` clockwise. The pixels are only read, during the call.
/// Returns 0 on success; otherwise `out->error` says why.
int albums_vips_encode_rgb(const unsigned char *pixels, int width, int height, int quality, int mirrored, int quarter_turns,
    albums_vips_thumbnail_t *out);

void albums_vips_release(albums_vips_thumbnail_t *thumbnail);

#endif

#include "albums_vips.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libvips is opened on first use (`albums serve` asks at start), never
// linked: linked, it brings about a hundred shared libraries (GLib,
// libheif, ImageMagick, poppler, ...) that the dynamic loader maps,
// relocates and initialises at the start of every albums process, about
// 28 ms here (BENCHMARKS.md, "Why the process targets are short"). Only
// `albums serve` makes thumbnails.
//
// The prototypes below are those of libvips' ABI 42 (libvips.so.42,
// versions 8.x), written out because its headers cannot be included
// without linking it; albums_vips_start checks that ABI before any call.

typedef struct VipsImage VipsImage;
typedef struct VipsArea VipsArea;
typedef int gboolean;

// Enumerations of libvips and GLib, as their headers number them.
enum { vips_size_both = 0 };             // VipsSize: VIPS_SIZE_BOTH
enum { vips_foreign_keep_none = 0 };     // VipsForeignKeep: VIPS_FOREIGN_KEEP_NONE (8.15+)
enum { glib_log_level_warning = 1 << 4 };  // GLogLevelFlags: G_LOG_LEVEL_WARNING
enum { vips_abi = 42 };
enum { vips_direction_horizontal = 0 };  // VipsDirection: VIPS_DIRECTION_HORIZONTAL
enum { vips_format_uchar = 0 };          // VipsBandFormat: VIPS_FORMAT_UCHAR
// VipsAngle numbers quarter turns clockwise: VIPS_ANGLE_D0, D90, D180, D270.

typedef void (*glib_log_function)(const char *domain, int level, const char *message, void *data);

static struct {
    int (*init)(const char *argv0);
    int (*version)(int flag);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    void (*concurrency_set)(int concurrency);
    void (*cache_set_max)(int max);
    void (*block_untrusted_set)(gboolean state);  // 8.13 and later
    int (*thumbnail_buffer)(void *buffer, size_t length, VipsImage **out, int width, ...);
    gboolean (*image_hasalpha)(VipsImage *image);
    int (*flatten)(VipsImage *in, VipsImage **out, ...);
    int (*flip)(VipsImage *in, VipsImage **out, int direction, ...);
    int (*rot)(VipsImage *in, VipsImage **out, int angle, ...);
    VipsArea *(*array_double_new)(const double *array, int count);
    void (*area_unref)(VipsArea *area);
    int (*jpegsave_buffer)(VipsImage *in, void **buffer, size_t *length, ...);
    VipsImage *(*image_new_from_memory)(const void *data, size_t size, int width, int height, int bands, int format);
    void (*object_unref)(void *object);
    void (*free)(void *memory);
    unsigned (*log_set_handler)(const char *domain, int levels, glib_log_function function, void *data);
    // 8.15 replaced jpegsave's "strip" with "keep".
    gboolean has_keep_option;
} vips;

// Where the system keeps libvips: the loader's own search on Linux;
// on macOS also Homebrew's folders, which dyld does not search.
static const char *const library_names[] = {
    "libvips.so.42",
    "libvips.42.dylib",
    "/opt/homebrew/lib/libvips.42.dylib",
    "/usr/local/lib/libvips.42.dylib",
};

static char start_failure[512];

static const char *failed_start(const char *format, const char *detail) {
    snprintf(start_failure, sizeof start_failure, format, detail);
    return start_failure;
}

static void discard(const char *domain, int level, const char *message, void *data) {
    (void)domain; (void)level; (void)message; (void)data;
}

// Resolves `name` into `*slot`; false if libvips (or GLib under it) lacks it.
static gboolean resolve(void *library, void *slot, const char *name) {
    void *symbol = dlsym(library, name);
    memcpy(slot, &symbol, sizeof symbol);
    return symbol != NULL;
}

const char *albums_vips_start(const char *program, int jobs) {
    void *library = NULL;
    // The first name's error says most (the later ones are other systems').
    char first_error[256] = "";
    for (size_t index = 0; index < sizeof library_names / sizeof *library_names && !library; index++) {
        library = dlopen(library_names[index], RTLD_NOW | RTLD_LOCAL);
        const char *error = library ? NULL : dlerror();
        if (error && !first_error[0]) snprintf(first_error, sizeof first_error, "%s", error);
    }
    if (!library)
        return failed_start("libvips cannot be loaded (%s); on Debian or Ubuntu: apt-get install libvips42",
            first_error[0] ? first_error : "libvips.so.42 not found");
    struct { void *slot; const char *name; } required[] = {
        {&vips.init, "vips_init"},
        {&vips.version, "vips_version"},
        {&vips.error_buffer, "vips_error_buffer"},
        {&vips.error_clear, "vips_error_clear"},
        {&vips.concurrency_set, "vips_concurrency_set"},
        {&vips.cache_set_max, "vips_cache_set_max"},
        {&vips.thumbnail_buffer, "vips_thumbnail_buffer"},
        {&vips.image_hasalpha, "vips_image_hasalpha"},
        {&vips.flatten, "vips_flatten"},
        {&vips.flip, "vips_flip"},
        {&vips.rot, "vips_rot"},
        {&vips.array_double_new, "vips_array_double_new"},
        {&vips.area_unref, "vips_area_unref"},
        {&vips.jpegsave_buffer, "vips_jpegsave_buffer"},
        {&vips.image_new_from_memory, "vips_image_new_from_memory"},
        {&vips.object_unref, "g_object_unref"},
        {&vips.free, "g_free"},
        {&vips.log_set_handler, "g_log_set_handler"},
    };
    for (size_t index = 0; index < sizeof required / sizeof *required; index++)
        if (!resolve(library, required[index].slot, required[index].name))
            return failed_start("the installed libvips lacks %s, which albums' thumbnails need", required[index].name);
    resolve(library, &vips.block_untrusted_set, "vips_block_untrusted_set");

    // What VIPS_INIT checks: the library's ABI (current - age) is the one
    // the prototypes above describe.
    if (vips.version(3) - vips.version(5) != vips_abi)
        return failed_start("the installed libvips has another ABI than libvips.so.42%s", "");
    if (vips.init(program) != 0) {
        failed_start("libvips could not start: %s", vips.error_buffer());
        vips.error_clear();
        return start_failure;
    }
    vips.has_keep_option = vips.version(0) > 8 || (vips.version(0) == 8 && vips.version(1) >= 15);
    // Decoders' warnings ("ignoring nclx profile") are not the user's
    // business on albums' stderr; failures still come back as errors.
    vips.log_set_handler("VIPS", glib_log_level_warning, discard, NULL);
    if (jobs > 0) vips.concurrency_set(jobs);
    // Operations are one-shot: caching their results only holds memory.
    vips.cache_set_max(0);
    // Only photos albums recognised reach libvips: PDF, SVG, ImageMagick
    // and the other untrusted loaders are never needed.
    if (vips.block_untrusted_set) vips.block_untrusted_set(1);
    return NULL;
}

static int finish(VipsImage *thumbnail, int quality, int mirrored, int quarter_turns, albums_vips_thumbnail_t *out);

static int fail(albums_vips_thumbnail_t *out) {
    const char *message = vips.error_buffer();
    out->error = strdup(message && *message ? message : "libvips failed");
    vips.error_clear();
    return -1;
}

int albums_vips_thumbnail(const void *bytes, size_t length, int longer_side, int quality, int mirrored, int quarter_turns,
    albums_vips_thumbnail_t *out) {
    memset(out, 0, sizeof *out);
    VipsImage *thumbnail = NULL;
    // The longer side fits `longer_side` whichever way the photo stands;
    // orientation is applied (the default) before the fit.
    if (vips.thumbnail_buffer((void *)bytes, length, &thumbnail, longer_side,
            "height", longer_side, "size", (int)vips_size_both, NULL) != 0)
        return fail(out);
    return finish(thumbnail, quality, mirrored, quarter_turns, out);
}

int albums_vips_encode_rgb(const unsigned char *pixels, int width, int height, int quality, int mirrored, int quarter_turns,
    albums_vips_thumbnail_t *out) {
    memset(out, 0, sizeof *out);
    if (width <= 0 || height <= 0) {
        out->error = strdup("an empty frame");
        return -1;
    }
    VipsImage *image = vips.image_new_from_memory(pixels, (size_t)width * (size_t)height * 3, width, height, 3, vips_format_uchar);
    if (!image) return fail(out);
    return finish(image, quality, mirrored, quarter_turns, out);
}

// Turns, flattens and encodes `thumbnail` (taking it over) into `out`.
static int finish(VipsImage *thumbnail, int quality, int mirrored, int quarter_turns, albums_vips_thumbnail_t *out) {
    // The turn kept apart from the file, on the small image: a quarter
    // turn keeps the longer side.
    if (mirrored) {
        VipsImage *flipped = NULL;
        int failed = vips.flip(thumbnail, &flipped, vips_direction_horizontal, NULL);
        vips.object_unref(thumbnail);
        if (failed) return fail(out);
        thumbnail = flipped;
    }
    if (quarter_turns % 4 != 0) {
        VipsImage *turned = NULL;
        int failed = vips.rot(thumbnail, &turned, ((quarter_turns % 4) + 4) % 4, NULL);
        vips.object_unref(thumbnail);
        if (failed) return fail(out);
        thumbnail = turned;
    }
    VipsImage *opaque = thumbnail;
    if (vips.image_hasalpha(thumbnail)) {
        double white[] = {255, 255, 255};
        VipsArea *background = vips.array_double_new(white, 3);
        int failed = vips.flatten(thumbnail, &opaque, "background", background, NULL);
        vips.area_unref(background);
        vips.object_unref(thumbnail);
        if (failed) return fail(out);
    }
    void *encoded = NULL;
    size_t encoded_length = 0;
    int failed = vips.has_keep_option
        ? vips.jpegsave_buffer(opaque, &encoded, &encoded_length, "Q", quality, "keep", (int)vips_foreign_keep_none, NULL)
        : vips.jpegsave_buffer(opaque, &encoded, &encoded_length, "Q", quality, "strip", (gboolean)1, NULL);
    vips.object_unref(opaque);
    if (failed) return fail(out);
    out->bytes = encoded;
    out->length = encoded_length;
    return 0;
}

void albums_vips_release(albums_vips_thumbnail_t *thumbnail) {
    if (thumbnail->bytes) vips.free(thumbnail->bytes);
    free(thumbnail->error);
    thumbnail->bytes = NULL;
    thumbnail->error = NULL;
}

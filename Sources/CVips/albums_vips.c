#include "albums_vips.h"

#include <string.h>
#include <vips/vips.h>

static void discard(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

int albums_vips_start(const char *program, int jobs) {
    if (VIPS_INIT(program) != 0) return -1;
    // Decoders' warnings ("ignoring nclx profile") are not the user's
    // business on albums' stderr; failures still come back as errors.
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, discard, NULL);
    if (jobs > 0) vips_concurrency_set(jobs);
    // Operations are one-shot: caching their results only holds memory.
    vips_cache_set_max(0);
#if VIPS_MAJOR_VERSION > 8 || (VIPS_MAJOR_VERSION == 8 && VIPS_MINOR_VERSION >= 13)
    vips_block_untrusted_set(TRUE);
#endif
    return 0;
}

static int fail(albums_vips_thumbnail_t *out) {
    out->error = g_strdup(vips_error_buffer());
    vips_error_clear();
    return -1;
}

int albums_vips_thumbnail(const void *bytes, size_t length, int longer_side, int quality, albums_vips_thumbnail_t *out) {
    memset(out, 0, sizeof *out);
    VipsImage *thumbnail = NULL;
    // The longer side fits `longer_side` whichever way the photo stands;
    // orientation is applied (the default) before the fit.
    if (vips_thumbnail_buffer((void *)bytes, length, &thumbnail, longer_side,
            "height", longer_side, "size", VIPS_SIZE_BOTH, NULL) != 0)
        return fail(out);
    VipsImage *opaque = thumbnail;
    if (vips_image_hasalpha(thumbnail)) {
        double white[] = {255, 255, 255};
        VipsArrayDouble *background = vips_array_double_new(white, 3);
        int failed = vips_flatten(thumbnail, &opaque, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        g_object_unref(thumbnail);
        if (failed) return fail(out);
    }
    void *encoded = NULL;
    size_t encoded_length = 0;
#if VIPS_MAJOR_VERSION > 8 || (VIPS_MAJOR_VERSION == 8 && VIPS_MINOR_VERSION >= 15)
    int failed = vips_jpegsave_buffer(opaque, &encoded, &encoded_length, "Q", quality, "keep", VIPS_FOREIGN_KEEP_NONE, NULL);
#else
    int failed = vips_jpegsave_buffer(opaque, &encoded, &encoded_length, "Q", quality, "strip", TRUE, NULL);
#endif
    g_object_unref(opaque);
    if (failed) return fail(out);
    out->bytes = encoded;
    out->length = encoded_length;
    return 0;
}

void albums_vips_release(albums_vips_thumbnail_t *thumbnail) {
    g_free(thumbnail->bytes);
    g_free(thumbnail->error);
    thumbnail->bytes = NULL;
    thumbnail->error = NULL;
}

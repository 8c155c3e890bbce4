#include <zlib.h>

/* deflateInit2/inflateInit2 are function-like macros: wrap them. windowBits 15 + 16 selects gzip framing. */
static inline int cjoryio_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
static inline int cjoryio_inflate_init_gzip(z_streamp stream) { return inflateInit2(stream, 15 + 16); }

#pragma once
#include <zlib.h>

/// inflateInit2 and deflateInit2 are macros; Swift can only call functions.
static inline int czlib_inflate_init2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

static inline int czlib_deflate_init2(z_streamp stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

/* stb_truetype compiled into fuzz_font with coverage and sanitizers, from the
   same header libstb-dev builds Debian's libstb from. Its asserts stop the
   program whatever NDEBUG says, as they do in Debian's build: an input that
   reaches one is a crash the font check let through. */
#include <stdlib.h>
#define STBTT_assert(x) \
    do {                \
        if (!(x)) abort(); \
    } while (0)
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb_truetype.h>

/* stb_image compiled into the fuzzers with coverage and sanitizers, from the
   same header libstb-dev builds Debian's libstb from. */
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

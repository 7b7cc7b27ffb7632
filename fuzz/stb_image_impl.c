/* stb_image compiled into the fuzzers with coverage and sanitizers, from the
   same header libstb-dev builds Debian's libstb from. */
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
/* stb_image_write too: the training run's samples (vit/train/run_folder.cpp)
   are linked in wherever the session's Learning lab is. */
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

// Must compile (ctest vit_downward_include_builds): the model level sees its
// own headers and those of the level below. The control for
// upward_include_probe.cpp, which must fail only for its upward include.
#include "vit/base/error.h"
#include "vit/model/model.h"

int vit_downward_include_probe() { return 0; }

// Must not compile (ctest vit_upward_include_fails): this file builds as part
// of the model level, below the forward pass, so vit/forward is not on its
// include path. The build, not only tests/structure/layering_test.py, keeps the levels
// in order.
#include "vit/forward/forward.h"

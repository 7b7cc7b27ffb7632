// The class-token page's section on its corners: the token norms per layer
// (vit/analysis/token_norms.h), which patches are high-norm and how much
// weight CLS and the patch queries put on them, with what the literature
// says they are. Its own file so the page's other sections stay as they are.
#pragma once
#include "ui/widgets/frame.h"

namespace ui {

void cls_token_norms_section(const Frame& f);

}  // namespace ui

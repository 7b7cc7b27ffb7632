// The second photo (File > Compare with…) that the "dynamic" and "cross"
// pages put beside the open one.
#pragma once
#include <string>

#include "ui/widgets/frame.h"
#include "vit/forward/forward.h"

namespace ui {

// Its trace, when a second photo has run through the model and has the open
// photo's grid. Otherwise null, after a line saying why and a button that
// opens the file browser to choose one.
const vit::Trace* second_photo(const Frame& f);

// The file name of a path, for captions.
std::string file_name(const std::string& path);

}  // namespace ui

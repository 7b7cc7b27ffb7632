// The model's input back as a picture: a vit::Input holds normalised floats in
// model space; the pages that show a rearranged input (the shuffled mosaic,
// the shifted photo) need its pixels. Undoes the normalisation and the
// rescale that preprocess applied; the resize and crop cannot be undone, so
// the picture is the input square itself, size x size.
#pragma once
#include "vit/image/image.h"
#include "vit/image/preprocess.h"
#include "vit/model/config.h"

namespace vit {

// Every value x of channel c becomes round((x * std[c] + mean[c]) / rescale),
// clamped to 0..255, with the normalisation and rescale cfg states (timm:
// 1/255 and mean/std; a Hugging Face processor: only the steps it does). For
// an input that preprocess made, this gives back the 8-bit pixels it read.
// Throws vit::Error when chw does not hold 3 x size x size values.
Image input_as_image(const Input& input, const PreprocessConfig& cfg);

}  // namespace vit

// Class names vitscope ships as data, for checkpoints whose config names none
// (timm's hub configs never carry label_names).
#pragma once
#include <string>
#include <vector>

namespace vit {

struct Model;

inline constexpr int kImageNet1kClasses = 1000;
inline constexpr int kImageNet21kClasses = 21843;  // the ImageNet-21k ("fall11") heads; no names shipped

// The one place shipped names are looked up: $VITSCOPE_LABELS_DIR when set,
// else share/vitscope/labels of an installed copy (vit::resource_dir), else
// the source tree's assets/labels the library was built from.
std::string shipped_labels_dir();

// One name per line (a trailing newline, CR LF too). Throws vit::Error naming
// the file when it cannot be read.
std::vector<std::string> read_label_file(const std::string& path);

// A timm model with 1000 classes and no names of its own gets ImageNet-1k's
// from dir/imagenet-1k.txt (config.labels and labels_source are set). When
// that file is missing or does not hold 1000 names, the model keeps "class N"
// and labels_source says why.
void add_shipped_labels(Model& model, const std::string& dir);

}  // namespace vit

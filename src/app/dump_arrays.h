// The arrays `vitscope dump` can write, each with its axes and units (for
// meta.json), built from one photo's run.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "app/pipeline.h"
#include "vit/forward/backward.h"

namespace app {

struct DumpArray {
    std::string name;               // the file is NAME.npy
    std::vector<std::string> axes;  // one name per dimension
    std::string units;
    std::vector<int64_t> shape;
    std::vector<float> values;   // C order
    std::vector<uint8_t> bytes;  // photo.npy only
    bool is_photo = false;
};

// --arrays "attn,q" (empty: the default set; with --class also the
// gradients), in the order given; throws vit::Error naming an unknown name,
// a repeated one, or a gradient without --class.
std::vector<std::string> dump_array_names(const std::string& wanted, bool with_class);
// Every array name dump knows, in order.
const std::vector<std::string>& all_dump_array_names();

// `gradients` is null without --class.
DumpArray make_dump_array(const std::string& name, const Pipeline& p, const vit::Gradients* gradients);
std::string encode_dump_array(const DumpArray& a, bool float16);

}  // namespace app

// vitscope dump IMAGE... -o DIR [--arrays NAME,...] [--float16] [--class LABEL|INDEX]:
// the trace as NumPy .npy files plus meta.json, for research and the
// reference tests. The arrays (dump_arrays.h) are chosen with --arrays; the
// default set is the one dump always wrote (with --class also the gradients).
// meta.json names the model and photo paths, the class, vitscope's version,
// the kernel set and each array's axes and units; it holds no timing, so two
// runs of one photo give the same files. Several photos: one folder per photo
// inside DIR, named after the photo.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/subcommands.h"
#include "app/cli_output_rules.h"
#include "app/dump_arrays.h"
#include "app/photo_list.h"
#include "app/pipeline.h"
#include "app/version.h"
#include "vit/base/error.h"
#include "vit/base/output_file.h"
#include "vit/forward/backward.h"
#include "vit/forward/classes.h"
#include "vit/kernels/kernels.h"

namespace app {
namespace {

namespace fs = std::filesystem;

std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') out += '\\', out += c;
        else if (static_cast<unsigned char>(c) < 0x20) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", static_cast<unsigned char>(c));
            out += esc;
        } else out += c;
    }
    return out + "\"";
}

std::string absolute(const std::string& path) {
    std::error_code ec;
    const fs::path p = fs::absolute(path, ec);
    return ec ? path : p.lexically_normal().string();
}

// One folder per photo: its file name without the extension, "-2", "-3"... after a name already taken.
std::vector<std::string> photo_folders(const std::string& dir, const std::vector<std::string>& photos) {
    if (photos.size() == 1) return {dir};
    std::vector<std::string> out;
    std::set<std::string> taken;
    for (const std::string& photo : photos) {
        const std::string stem = fs::path(photo).stem().string();
        std::string name = stem.empty() ? "photo" : stem;
        for (int n = 2; !taken.insert(name).second; ++n) name = stem + "-" + std::to_string(n);
        out.push_back((fs::path(dir) / name).string());
    }
    return out;
}

std::string meta_json(const CliArgs& args, const Pipeline& p, const std::string& photo, const std::optional<int>& cls,
                      const std::vector<DumpArray>& arrays, bool half) {
    const vit::Trace& t = p.trace;
    char numbers[512];
    std::snprintf(numbers, sizeof numbers,
                  "  \"grid\": %d,\n  \"prefix\": %d,\n  \"registers\": %d,\n  \"tokens\": %d,\n  \"layers\": %zu,\n"
                  "  \"heads\": %zu,\n  \"head_dim\": %d,\n  \"dim\": %d,\n  \"input_size\": %d,\n"
                  "  \"crop\": [%.6f, %.6f, %.6f, %.6f],\n",
                  t.grid, t.prefix, t.registers, t.tokens, t.layers.size(), t.layers[0].heads.size(), t.head_dim,
                  p.model.dim, p.input.size, p.input.crop.x, p.input.crop.y, p.input.crop.w, p.input.crop.h);
    std::string j = "{\n";
    j += "  \"vitscope_version\": " + json_string(version()) + ",\n";
    j += "  \"kernels\": " + json_string(vit::kernel_isa()) + ",\n";
    j += "  \"model\": " + json_string(absolute(resolve_model_dir(args))) + ",\n";
    j += "  \"architecture\": " + json_string(p.model.config.name) + ",\n";
    j += "  \"scheme\": " + json_string(p.model.scheme) + ",\n";
    j += "  \"photo\": " + json_string(absolute(photo)) + ",\n";
    j += numbers;
    if (cls) {
        j += "  \"class\": " + std::to_string(*cls) + ",\n";
        j += "  \"class_label\": " + json_string(vit::label_of(p.model, *cls)) + ",\n";
    }
    j += "  \"float16\": " + std::string(half ? "true" : "false") + ",\n";
    j += "  \"arrays\": {";
    for (size_t i = 0; i < arrays.size(); ++i) {
        const DumpArray& a = arrays[i];
        j += std::string(i ? "," : "") + "\n    " + json_string(a.name + std::string(".npy")) + ": {\"axes\": [";
        for (size_t k = 0; k < a.axes.size(); ++k) j += (k ? ", " : "") + json_string(a.axes[k]);
        j += "], \"dtype\": " + json_string(a.is_photo ? "uint8" : half ? "float16" : "float32");
        j += ", \"units\": " + json_string(a.units) + "}";
    }
    j += "\n  }\n}\n";
    return j;
}

// One photo's files, whole: a new folder is written beside its name and renamed
// into place; into an existing one (its files replaced only with --force) every
// file goes to a temporary first and all are moved into place at the end,
// meta.json last, so a folder without meta.json is never a finished dump. A
// signal or a full disk meanwhile leaves no temporary.
void write_dump_folder(const std::string& folder, const std::vector<DumpArray>& arrays, bool half,
                       const std::string& meta, const vit::OutputRules& rules) {
    std::error_code ec;
    if (!fs::exists(folder, ec)) {
        if (const fs::path parent = fs::path(folder).parent_path(); !parent.empty()) fs::create_directories(parent, ec);
        vit::OutputFolder out(folder, rules);
        for (const DumpArray& a : arrays) out.write(a.name + std::string(".npy"), encode_dump_array(a, half));
        out.write("meta.json", meta);
        out.commit();
        return;
    }
    std::vector<std::unique_ptr<vit::OutputTemp>> files;
    auto add = [&](const std::string& name, const std::string& bytes) {
        const std::string path = (fs::path(folder) / name).string();
        vit::check_output(path, rules);
        files.push_back(std::make_unique<vit::OutputTemp>(path, rules));
        files.back()->write(bytes);
    };
    for (const DumpArray& a : arrays) add(a.name + std::string(".npy"), encode_dump_array(a, half));
    add("meta.json", meta);
    for (auto& file : files) file->commit();
}

}  // namespace

int cmd_dump(const CliArgs& args) {
    const std::string dir = args.get("--output");
    if (dir.empty()) throw vit::Error("dump needs -o DIR");
    if (dir == "-") throw vit::Error("-o -: dump writes a folder of files, not a stream; name a folder");
    const bool with_class = args.has("--class");
    const std::vector<std::string> names = dump_array_names(args.get("--arrays"), with_class);
    const bool half = args.has("--float16");
    const std::vector<std::string> photos = photo_paths(args);
    const std::vector<std::string> folders = photo_folders(dir, photos);
    // The output rule, before any work: its files replace earlier ones only with --force.
    const vit::OutputRules rules = cli_output_rules(args);
    std::error_code ec;
    if (photos.size() > 1 && fs::exists(dir, ec) && !fs::is_directory(dir, ec))
        throw vit::Error(dir + " is a file; dump writes a folder");
    for (const std::string& folder : folders)
        if (fs::exists(folder, ec)) {
            for (const std::string& name : names)
                vit::check_output((fs::path(folder) / (name + ".npy")).string(), rules);
            vit::check_output((fs::path(folder) / "meta.json").string(), rules);
        }
    size_t cursor = 0;  // for_each_photo goes through `photos` in order, skipping those that fail
    auto check_class = [&](const vit::Model& model) {
        if (with_class) vit::find_class(model, args.get("--class"));  // an unknown class fails once, not per photo
    };
    return for_each_photo(
        args, {},
        [&](Pipeline& p, const std::string& photo) {
            std::optional<vit::Gradients> gradients;  // computed before anything is written
            std::optional<int> cls;
            if (with_class) {
                cls = vit::find_class(p.model, args.get("--class"));
                gradients = vit::class_gradients(p.model, p.trace, *cls);
            }
            // Every array made before the first is written: a failure writes none.
            std::vector<DumpArray> arrays;
            for (const std::string& name : names) {
                // A model without a classifier has no logits: left out unless asked for.
                if (name == "logits" && p.trace.logits.size() == 0) {
                    if (args.has("--arrays")) throw vit::Error("--arrays logits: this model has no classifier head");
                    continue;
                }
                arrays.push_back(make_dump_array(name, p, gradients ? &*gradients : nullptr));
            }
            while (photos[cursor] != photo) ++cursor;
            write_dump_folder(folders[cursor++], arrays, half, meta_json(args, p, photo, cls, arrays, half), rules);
        },
        check_class);
}

}  // namespace app

#include "app/environment.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gfx/font_check.h"
#include "vit/base/error.h"
#include "vit/base/memory_budget.h"
#include "vit/base/read_file.h"

namespace app {
namespace {

namespace fs = std::filesystem;

// The variable's value; empty when unset or empty (both mean "the default").
std::string value_of(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

[[noreturn]] void refuse(const char* name, const std::string& value, const std::string& expected) {
    throw vit::Error(std::string(name) + "=" + value.substr(0, 200) + ": expected " + expected);
}

void check_folder(const char* name, const char* of_what) {
    const std::string v = value_of(name);
    std::error_code ec;
    if (!v.empty() && !fs::is_directory(v, ec)) refuse(name, v, std::string("an existing folder of ") + of_what);
}

// The font is read and checked whole here, so that neither a figure drawn
// later nor the window takes a file that is no usable font.
void check_font(const std::string& v) {
    std::error_code ec;
    if (!fs::is_regular_file(v, ec)) refuse("VITSCOPE_FONT", v, "an existing font file (.ttf)");
    std::string bytes;
    try {
        bytes = vit::read_whole_file(v, gfx::kMaxFontBytes, "a font");
    } catch (const vit::Error& e) {
        throw vit::Error(std::string("VITSCOPE_FONT: ") + e.what());
    }
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    if (const std::string problem = gfx::font_problem(data, bytes.size()); !problem.empty())
        throw vit::Error("VITSCOPE_FONT=" + v.substr(0, 200) + ": not a usable TrueType font (" + problem + ")");
}

}  // namespace

void check_environment() {
    if (const std::string v = value_of("VITSCOPE_THREADS"); !v.empty()) {
        char* end = nullptr;
        errno = 0;
        const long n = std::strtol(v.c_str(), &end, 10);
        if (errno != 0 || *end != '\0' || n < 1 || n > 256)
            refuse("VITSCOPE_THREADS", v, "a whole number from 1 to 256");
    }
    if (const std::string v = value_of("VITSCOPE_ISA"); !v.empty() && v != "v4" && v != "v3" && v != "eigen")
        refuse("VITSCOPE_ISA", v, "v4, v3 or eigen (the fastest the CPU runs, at most the one named)");
    if (const std::string v = value_of("VITSCOPE_MEMORY_BUDGET"); !v.empty()) vit::parse_memory_budget(v);
    check_folder("VITSCOPE_LABELS_DIR", "class names");
    check_folder("VITSCOPE_SHADER_DIR", "shaders");
    check_folder("VITSCOPE_WEB_DIR", "the lesson page's files");
    if (const std::string v = value_of("VITSCOPE_FONT"); !v.empty()) check_font(v);
    if (const std::string v = value_of("VITSCOPE_MODEL_MIRROR"); !v.empty()) {
        std::error_code ec;
        const bool url = v.rfind("file://", 0) == 0 || v.rfind("http://", 0) == 0 || v.rfind("https://", 0) == 0;
        if (!url && !fs::is_directory(v, ec))
            refuse("VITSCOPE_MODEL_MIRROR", v, "a folder, or a file://, http:// or https:// URL");
    }
}

}  // namespace app

#include "app/commands/cli_variants.h"

#include <cctype>

#include "session/homework/variants.h"
#include "vit/base/error.h"
#include "vit/base/read_file.h"

namespace app {

Handouts read_handouts(const CliArgs& args) {
    Handouts h;
    int n = 0;
    if (args.has("--variants")) {
        const std::string v = args.get("--variants");
        try {
            size_t used = 0;
            n = std::stoi(v, &used);
            if (used != v.size()) n = 0;
        } catch (const std::exception&) {
            n = 0;
        }
        if (n < 1 || n > 1000) throw vit::Error("--variants '" + v + "' is not a number of variants from 1 to 1000");
    }
    if (args.has("--students")) {
        const std::string path = args.get("--students");
        const auto names = session::read_roster(vit::read_whole_file(path, 1u << 20, "a roster"), path);
        h.variants = n > 0 ? n : static_cast<int>(names.size());
        for (size_t i = 0; i < names.size(); ++i)
            h.pages.push_back({names[i], static_cast<int>(i % static_cast<size_t>(h.variants)) + 1});
    } else if (n > 0) {
        h.variants = n;
        for (int v = 1; v <= n; ++v) h.pages.push_back({"", v});
    }
    return h;
}

std::string handout_file_name(const Handout& h) {
    if (h.student.empty()) return "homework-variant-" + std::to_string(h.variant) + ".html";
    std::string safe;
    for (unsigned char c : h.student) {
        if (std::isalnum(c) || c == '-' || c == '_') safe += static_cast<char>(c);
        else if (c < 0x80 && !safe.empty() && safe.back() != '_') safe += '_';
    }
    while (!safe.empty() && safe.back() == '_') safe.pop_back();
    if (safe.empty()) safe = "student";
    return "homework-" + safe + "-v" + std::to_string(h.variant) + ".html";
}

}  // namespace app

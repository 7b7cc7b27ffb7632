#include "session/core/core_names.h"

#include <cctype>
#include <filesystem>

namespace session {

const char* theme_name(CoreRoom::Theme theme) { return theme == CoreRoom::Theme::Light ? "light" : "dark"; }

std::optional<CoreRoom::Theme> theme_from_name(const std::string& name) {
    if (name == "dark") return CoreRoom::Theme::Dark;
    if (name == "light") return CoreRoom::Theme::Light;
    return std::nullopt;
}

const char* tab_name(CoreRoom::Tab tab) {
    switch (tab) {
        case CoreRoom::Tab::Math: return "math";
        case CoreRoom::Tab::WhatIfs: return "whatifs";
        case CoreRoom::Tab::Questions: return "questions";
    }
    return "";
}

std::optional<CoreRoom::Tab> tab_from_name(const std::string& name) {
    for (CoreRoom::Tab tab : {CoreRoom::Tab::Math, CoreRoom::Tab::WhatIfs, CoreRoom::Tab::Questions})
        if (name == tab_name(tab)) return tab;
    return std::nullopt;
}

std::string selection_slug(const CoreRoom& s) {
    namespace fs = std::filesystem;
    std::string stem = s.loaded.image_path.empty() ? "vitscope" : fs::path(s.loaded.image_path).stem().string();
    const vit::Trace* t = s.trace();
    std::string slug = stem + "_L" + std::to_string(s.sel.layer);
    slug += s.sel.source == MapSource::MeanOfVisible ? "_Hmean" : "_H" + std::to_string(s.sel.head);
    if (t && t->is_patch(s.sel.query))
        slug += "_r" + std::to_string(t->row_of(s.sel.query)) + "c" + std::to_string(t->col_of(s.sel.query));
    else slug += s.sel.query == 0 ? "_cls" : "_t" + std::to_string(s.sel.query);
    // Keep file names portable: photo names may hold spaces or odd characters.
    for (char& ch : slug)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-' && ch != '.') ch = '_';
    return slug;
}

}  // namespace session

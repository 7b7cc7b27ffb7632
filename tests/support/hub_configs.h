// The config files the Hugging Face hub serves (../shared/hub_configs beside
// the checkout, or $VITSCOPE_HUB_CONFIGS; README there). A missing file is a
// failure, never a skip.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "vit/base/error.h"

namespace vit::testing {

inline std::string hub_configs_dir() {
    if (const char* env = std::getenv("VITSCOPE_HUB_CONFIGS"); env && *env) return env;
    return (std::filesystem::path(VITSCOPE_SOURCE_DIR).parent_path() / "shared" / "hub_configs").string();
}

// The text of hub_configs/REPO/FILE, e.g. hub_config("facebook__dinov2-small").
inline std::string hub_config(const std::string& repo, const std::string& file = "config.json") {
    const std::filesystem::path path = std::filesystem::path(hub_configs_dir()) / repo / file;
    std::ifstream in(path);
    if (!in) throw vit::Error(path.string() + " is not there (set VITSCOPE_HUB_CONFIGS to the hub config fixtures)");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace vit::testing

// A fresh, uniquely named temporary folder, removed with everything in it
// when the object goes out of scope.
#pragma once
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

namespace vit::testing {

class ScratchDir {
public:
    explicit ScratchDir(const std::string& tag = "vitscope") {
        static std::atomic<int> counter{0};
        path_ = std::filesystem::temp_directory_path() /
                (tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    std::string str() const { return path_.string(); }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

}  // namespace vit::testing

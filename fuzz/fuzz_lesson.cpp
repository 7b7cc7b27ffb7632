// libFuzzer target: a lesson file (*.vitscope) through session::read_lesson,
// from a file as the window and the command line read it. Its relative paths
// lead into the scratch folder, which holds a photo and a model folder, so
// inputs can get past the path checks. Anything but a vit::Error escaping, or
// a lesson read that does not read back the same after lesson_json, is a crash.
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "scratch_dir.h"
#include "session/files/lesson.h"
#include "vit/base/error.h"

namespace {

void require(bool holds) {
    if (!holds) std::abort();
}

void write(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// What the seeds name: photo.jpg, and model/ with config.json and weights (checked for presence, not loaded).
void make_files(const std::filesystem::path& dir) {
    write(dir / "photo.jpg", "\xFF\xD8\xFF not decoded here");
    std::filesystem::create_directories(dir / "model");
    write(dir / "model" / "config.json", "{}");
    write(dir / "model" / "model.safetensors", "weights");
}

bool same(const session::Lesson& a, const session::Lesson& b) {
    return a.photo == b.photo && a.photo_embedded == b.photo_embedded && a.model == b.model &&
           a.input_size == b.input_size && a.selection == b.selection && a.tab == b.tab && a.question == b.question &&
           a.classroom == b.classroom && a.math_step == b.math_step && a.compare_photo == b.compare_photo &&
           a.temperature == b.temperature && a.style.colormap == b.style.colormap &&
           a.style.normalization == b.style.normalization && a.style.opacity == b.style.opacity &&
           a.style.fade == b.style.fade && a.style.bilinear == b.style.bilinear &&
           a.style.show_grid == b.style.show_grid;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::filesystem::path dir = [] {
        make_files(vitscope_fuzz::scratch_dir());
        return vitscope_fuzz::scratch_dir();
    }();
    const std::string in = (dir / "in.vitscope").string(), again = (dir / "again.vitscope").string();
    write(in, std::string(reinterpret_cast<const char*>(data), size));
    session::Lesson first;
    try {
        first = session::read_lesson(in);
    } catch (const vit::Error&) {
        return 0;
    }
    // A lesson that opens is one vitscope can write: the same lesson must come back.
    session::Lesson copy = first;
    copy.photo_embedded.clear();  // lesson_json embeds from the photo's path, not from these bytes
    write(again, session::lesson_json(copy, false));
    try {
        require(same(copy, session::read_lesson(again)));
    } catch (const vit::Error&) {
        std::abort();
    }
    return 0;
}

// File > Open image / Open model / Compare with…: an in-app browser over std::filesystem.
// Which dialog is open and the folder it lists live in the AppState; the
// listing and the text being typed are this widget's own.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ui/widgets/frame.h"

namespace ui {

class FileBrowser {
public:
    void draw(const Frame& f);

private:
    struct Entry {
        std::string name;
        bool dir = false;
        bool model = false;  // a folder with config.json: a model
        std::uintmax_t size = 0;
    };
    void list(const std::string& dir, bool images_only);
    void open_path(const Frame& f, const std::string& path);

    std::string listed_dir_;
    bool lessons_ = false;    // File > Open lesson…: lists *.vitscope instead of photos
    bool runs_ = false;       // the Learning lab's Browse…: opens a training run's folder (log.csv) as a model's
    bool exercises_ = false;  // File > Exercises in class, from a file…: lists *.exercises
    bool listed_images_only_ = true;
    std::vector<Entry> entries_;
    std::string list_error_;
    std::string path_text_;
    bool keep_typing_ = false;  // Enter went into a folder: the path field keeps the keyboard
    std::string selected_;
    bool all_files_ = false;
};

// Whether a file name looks like a photo the loader reads.
bool is_image_name(const std::string& name);
// Whether a folder holds a model (config.json).
bool is_model_dir(const std::string& dir);

}  // namespace ui

#include "ui/panels/file_browser.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

#include <imgui_stdlib.h>

#include "session/files/lesson.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/theme.h"
#include "vit/formats/model_files.h"

namespace ui {
namespace fs = std::filesystem;

bool is_image_name(const std::string& name) {
    std::string ext = fs::path(name).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".jpg" || ext == ".jpeg" || ext == ".png" || ext == ".webp" || ext == ".bmp" || ext == ".gif";
}

namespace {

// The model browser's line on what a model folder is.
const std::string& model_folder_text() {
    static const std::string text = std::string("A model is a folder with ")
                                        .append(vit::kConfigFileName)
                                        .append(" and ")
                                        .append(vit::weight_file_names())
                                        .append(".");
    return text;
}

}  // namespace

bool is_model_dir(const std::string& dir) {
    std::error_code ec;
    return fs::is_regular_file(fs::path(dir) / vit::kConfigFileName, ec);
}

// The folder the browser opens: a model, or for the Learning lab a training run (its log.csv).
static bool openable_dir(const std::string& dir, bool runs) {
    std::error_code ec;
    return runs ? fs::is_regular_file(fs::path(dir) / "log.csv", ec) : is_model_dir(dir);
}

void FileBrowser::list(const std::string& dir, bool images_only) {
    listed_dir_ = dir;
    listed_images_only_ = images_only;
    entries_.clear();
    list_error_.clear();
    std::error_code ec;
    for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.') continue;  // hidden files stay hidden
        Entry e;
        e.name = name;
        std::error_code ec2;
        e.dir = it->is_directory(ec2);
        if (e.dir) {
            e.model = openable_dir(it->path().string(), runs_);
        } else {
            const bool wanted = lessons_     ? session::is_lesson_path(name)
                                : exercises_ ? fs::path(name).extension() == ".exercises"
                                             : is_image_name(name);
            if (images_only && !wanted) continue;
            e.size = it->file_size(ec2);
        }
        entries_.push_back(std::move(e));
    }
    if (ec) list_error_ = dir + ": " + ec.message();
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return a.dir != b.dir ? a.dir : a.name < b.name; });
}

void FileBrowser::open_path(const Frame& f, const std::string& path) {
    using Mode = session::BrowserState::Mode;
    ImGui::CloseCurrentPopup();
    const Mode mode = f.s.browser.mode;
    if (mode == Mode::OpenRun) f.emit(session::cmd::Lab{session::lab::OpenRun{path}});
    else if (mode == Mode::OpenModel) f.emit(session::cmd::OpenModel{path});
    else if (mode == Mode::OpenCompare) f.emit(session::cmd::OpenCompare{path});
    else if (mode == Mode::OpenLesson) f.emit(session::cmd::OpenLesson{path});
    else if (mode == Mode::OpenExercises) f.emit(session::cmd::OpenExercises{path});
    else f.emit(session::cmd::OpenImage{path});
    f.emit(session::act::OpenBrowser{session::BrowserState::Mode::Closed, fs::path(path).parent_path().string()});
}

void FileBrowser::draw(const Frame& f) {
    using Mode = session::BrowserState::Mode;
    const session::BrowserState& b = f.s.browser;
    const char* title = "Open##browser";
    if (b.mode == Mode::Closed) {
        listed_dir_.clear();
        return;
    }
    if (runs_ != (b.mode == Mode::OpenRun)) listed_dir_.clear();  // runs, not models: list again
    runs_ = b.mode == Mode::OpenRun;
    const bool model_mode = b.mode == Mode::OpenModel || runs_;  // both open a folder
    const bool compare_mode = b.mode == Mode::OpenCompare;
    if (lessons_ != (b.mode == Mode::OpenLesson)) listed_dir_.clear();  // another filter: list again
    lessons_ = b.mode == Mode::OpenLesson;
    if (exercises_ != (b.mode == Mode::OpenExercises)) listed_dir_.clear();
    exercises_ = b.mode == Mode::OpenExercises;
    std::error_code ec;
    // Without a folder of its own, the browser starts where the current photo (or model) is.
    std::string start = b.dir;
    if (start.empty()) {
        const std::string& current = model_mode                           ? f.s.loaded.model_dir
                                     : compare_mode && f.s.compared.image ? f.s.compared.image_path
                                                                          : f.s.loaded.image_path;
        start = current.empty() ? "." : fs::path(current).parent_path().string();
        if (start.empty()) start = ".";
    }
    const std::string dir = fs::absolute(start, ec).lexically_normal().string();
    if (dir != listed_dir_ || listed_images_only_ == all_files_) {
        list(dir, !all_files_ && !model_mode);
        path_text_ = dir;
        selected_.clear();
    }
    auto go = [&](const std::string& d) { f.emit(session::act::OpenBrowser{b.mode, d}); };

    if (!ImGui::IsPopupOpen(title)) ImGui::OpenPopup(title);
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowSize(ImVec2(std::min(display.x * 0.9f, f.px(760)), std::min(display.y * 0.85f, f.px(560))),
                             ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    bool open = true;
    if (!ImGui::BeginPopupModal(title, &open, ImGuiWindowFlags_NoSavedSettings)) return;

    ImGui::PushFont(f.fonts.title);
    ImGui::TextUnformatted(runs_          ? "Open a training run (Learning lab)"
                           : model_mode   ? "Open a model folder"
                           : compare_mode ? "Compare with a second photo"
                           : lessons_     ? "Open a lesson"
                           : exercises_   ? "Run an exercises file in class"
                                          : "Open an image");
    ImGui::PopFont();
    ImGui::TextColored(colors::muted,
                       runs_ ? "A run is a folder with log.csv, step_NNNNNN checkpoints and samples/ (vitscope train "
                               "-o RUN, or the lab's Train)."
                       : model_mode   ? model_folder_text().c_str()
                       : compare_mode ? "It runs through the same model beside the open photo, for the "
                                        "Questions pages that compare two photos."
                       : lessons_     ? "A .vitscope file saved by File > Save lesson: photo, model, selection, page "
                                        "and style. The window stays as it is if the lesson cannot open."
                       : exercises_   ? "A .exercises file (the format: assets/exercises/first-look.exercises). It is "
                                        "set on the open photo; a file with an error is one line and changes nothing."
                                      : "JPEG, PNG, WebP, BMP or GIF. The current photo stays if this one fails.");
    if (ImGui::Button("Up")) go(fs::path(dir).parent_path().string());
    ImGui::SameLine();
    if (ImGui::Button("Home")) go(std::getenv("HOME") ? std::getenv("HOME") : "/");
    const std::string shortcut = runs_ ? std::string() : model_mode ? f.s.models_dir : f.s.photos_dir;
    if (!shortcut.empty()) {
        ImGui::SameLine();
        if (ImGui::Button(model_mode ? "Sample models" : "Sample photos")) go(shortcut);
    }
    if (model_mode && !runs_ && fs::is_directory(f.s.get_model.dir, ec)) {
        ImGui::SameLine();
        if (ImGui::Button("Downloaded models")) go(f.s.get_model.dir);
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::IsWindowAppearing() || keep_typing_) ImGui::SetKeyboardFocusHere();  // type a path right away
    keep_typing_ = false;
    if (ImGui::InputText("##path", &path_text_, ImGuiInputTextFlags_EnterReturnsTrue)) {
        if (fs::is_directory(path_text_, ec) && !(model_mode && openable_dir(path_text_, runs_))) {
            go(path_text_);
            keep_typing_ = true;  // the next path is typed on, as in a shell, without a click
        } else {
            open_path(f, path_text_);
        }
    }

    const float footer = ImGui::GetFrameHeightWithSpacing() * 1.6f;
    if (ImGui::BeginChild("##list", ImVec2(0, -footer), true)) {
        if (!list_error_.empty()) ImGui::TextColored(colors::error, "%s", bounded(list_error_).c_str());
        for (const Entry& e : entries_) {
            std::string label = bounded(e.dir ? "▸ " + e.name + "/" : "   " + e.name);
            if (e.model) label += runs_ ? "   (run)" : "   (model)";
            const std::string path = (fs::path(dir) / e.name).string();
            if (ImGui::Selectable(label.c_str(), selected_ == e.name, ImGuiSelectableFlags_AllowDoubleClick)) {
                selected_ = e.name;
                path_text_ = path;
                if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
                    if (e.dir && !(model_mode && e.model)) go(path);
                    else if (e.dir == model_mode) open_path(f, path);
                }
            }
            if (!e.dir) {
                ImGui::SameLine(ImGui::GetWindowWidth() - f.px(100));
                ImGui::TextColored(colors::muted, "%8.1f kB", e.size / 1000.0);
            }
        }
    }
    ImGui::EndChild();

    if (!model_mode) {
        ImGui::Checkbox("show all files", &all_files_);
        ImGui::SameLine();
    }
    const bool can_open = model_mode ? openable_dir(path_text_, runs_) : fs::is_regular_file(path_text_, ec);
    ImGui::SetCursorPosX(ImGui::GetWindowWidth() - f.px(190));
    ImGui::BeginDisabled(!can_open);
    if (ImGui::Button("Open", ImVec2(f.px(85), 0))) open_path(f, path_text_);
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(f.px(85), 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
        open = false;
    if (!open) {
        ImGui::CloseCurrentPopup();
        f.emit(session::act::OpenBrowser{Mode::Closed, dir});
    }
    ImGui::EndPopup();
}

}  // namespace ui

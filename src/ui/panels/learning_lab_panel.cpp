#include "ui/panels/learning_lab_panel.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <imgui_stdlib.h>

#include "session/lab/lab_view.h"
#include "ui/panels/lab_curves.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/color_bar.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/map_data.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"
#include "vit/train/tasks.h"

namespace fs = std::filesystem;

namespace ui {
namespace {

using LabAction = session::act::Lab;
using LabCommand = session::cmd::Lab;
namespace lab = session::lab;

// "What is this?": the lab, then each task of vit/train/task_list.inc, what it asks and needs.
const std::string& about() {
    static const std::string text = [] {
        std::string t =
            "A Vision Transformer of 4 layers and 4 heads (64 x 64 px images in 8 x 8 patches) starts from random "
            "weights "
            "and learns a task on synthetic pictures of two squares.";
        for (const vit::train::TaskSpec& task : vit::train::all_tasks())
            t.append(" ").append(task.name).append(": ").append(task.question).append(" ").append(task.needs);
        return t.append(
            " Drag the timeline to watch the query (outlined) learn where to look: each map is one head's "
            "attention weights at that checkpoint, computed by that checkpoint's own model on the sample.");
    }();
    return text;
}

std::string run_label(const session::LabRun& r) {
    return fs::path(r.dir).filename().string() + " (" + r.task + (r.position ? "" : ", no position embeddings") + ")";
}

// Folders of `dir` holding a log.csv: the runs to offer.
std::vector<std::string> runs_in(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        // Hidden names are skipped: a run being written is a hidden temporary folder beside it.
        if (it->path().filename().string().rfind('.', 0) != 0 && it->is_directory(ec) &&
            fs::is_regular_file(it->path() / "log.csv", ec))
            out.push_back(it->path().string());
    std::sort(out.begin(), out.end());
    if (out.size() > 50) out.resize(50);
    return out;
}

}  // namespace

void LearningLabPanel::draw(const Frame& f, const PanelRect& area) {
    const session::LabState& l = f.s.lab;
    rects_.clear();
    ImGui::SetNextWindowPos(area.pos);
    ImGui::SetNextWindowSize(area.size);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                   ImGuiWindowFlags_NoTitleBar;
    if (ImGui::Begin("Learning lab", nullptr, flags)) {
        ImGui::PushFont(f.fonts.title);
        ImGui::TextUnformatted("Learning lab");
        ImGui::PopFont();
        ImGui::SameLine(0, f.px(16));
        if (ImGui::Button("Back to the explorer")) f.emit(LabAction{lab::Show{false}});
        ImGui::SameLine(0, f.px(16));
        ImGui::TextColored(colors::muted, "watch attention being learned: a tiny ViT trained from scratch");
        if (ImGui::CollapsingHeader("What is this?")) {
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(about().c_str());
            ImGui::PopTextWrapPos();
        }
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const float left_w = std::clamp(avail.x * 0.26f, f.px(280), f.px(420));
        if (ImGui::BeginChild("##lab_left", ImVec2(left_w, avail.y), false)) {
            // Folded when the lab opens on a run (its room goes to the curves), open when it opens empty; never
            // folded by itself later: opening a run does not move Open a run's buttons under the mouse.
            ImGui::SetNextItemOpen(!f.s.lab.run, ImGuiCond_Appearing);
            if (ImGui::CollapsingHeader("Train a model", ImGuiTreeNodeFlags_DefaultOpen)) train_section(f);
            ImGui::Separator();
            runs_section(f);
            ImGui::Separator();
            lab_curves(f, std::max(f.px(240), ImGui::GetContentRegionAvail().y - f.px(4)));
        }
        ImGui::EndChild();
        ImGui::SameLine(0, f.px(12));
        if (ImGui::BeginChild("##lab_right", ImVec2(0, avail.y), false)) {
            if (!l.error.empty()) ImGui::TextColored(colors::error, "%s", bounded(l.error).c_str());
            if (l.run) {
                timeline(f);
                maps(f, ImGui::GetContentRegionAvail().y);
            } else {
                ImGui::PushTextWrapPos(0);
                ImGui::TextColored(colors::muted,
                                   "No run open. Train one on the left (a few minutes), or open a finished run: "
                                   "a folder made by Train or by `vitscope train --task NAME -o RUN`.");
                ImGui::PopTextWrapPos();
            }
        }
        ImGui::EndChild();
    }
    ImGui::End();
    f.drawn.lab_maps = rects_;
}

void LearningLabPanel::train_section(const Frame& f) {
    const session::LabState& l = f.s.lab;
    const session::LabTraining& t = l.training;
    std::string task = l.train_task;
    bool position = l.train_position;
    int steps = l.train_steps;
    bool changed = false;
    ImGui::BeginDisabled(t.running);
    for (const std::string& name : vit::train::task_names()) {
        if (ImGui::RadioButton(name.c_str(), task == name)) task = name, changed = true;
        ImGui::SameLine();
    }
    ImGui::NewLine();
    changed |= ImGui::Checkbox("position embeddings", &position);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(f.px(90));
    if (ImGui::InputInt("steps", &steps, 100, 1000)) {
        steps = std::clamp(steps, 1, session::kMaxLabSteps);
        changed = true;
    }
    if (changed) f.emit(LabCommand{lab::SetTraining{task, position, steps, l.train_dir}});
    ImGui::EndDisabled();
    if (const std::string warning = session::short_run_warning(l.train_task, l.train_position, l.train_steps);
        !warning.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(colors::error, "%s", warning.c_str());
        ImGui::PopTextWrapPos();
    }
    if (!t.running) {
        if (ImGui::Button("Train")) f.emit(LabCommand{lab::Train{}});
        ImGui::SameLine();
        ImGui::TextUnformatted("into");
        ImGui::SameLine();
        // The folder runs go in: typed, Enter to keep it (a folder that does not exist is refused in one line).
        std::error_code ec;
        const std::string into =
            fs::absolute(l.train_dir.empty() ? f.s.export_dir : l.train_dir, ec).lexically_normal().string();
        if (!train_dir_editing_ && train_dir_shown_ != into) train_dir_text_ = train_dir_shown_ = into;
        ImGui::SetNextItemWidth(-1);
        if (ImGui::InputText("##train_dir", &train_dir_text_, ImGuiInputTextFlags_EnterReturnsTrue)) {
            f.emit(LabCommand{lab::SetTraining{task, position, steps, train_dir_text_}});
            train_dir_shown_.clear();  // shows the folder in use next frame: the new one, or the old one when refused
        }
        train_dir_editing_ = ImGui::IsItemActive();
    } else {
        char text[96];
        std::snprintf(text, sizeof text, "step %d of %d", t.step, t.steps);
        ImGui::ProgressBar(t.steps ? static_cast<float>(t.step) / t.steps : 0.f, ImVec2(-f.px(90), 0), text);
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) f.emit(LabCommand{lab::CancelTraining{}});
        ImGui::TextColored(
            colors::muted, "%s",
            bounded("writing " + fs::path(t.run).filename().string() + "; Cancel keeps nothing").c_str());
    }
    if (!t.stopped.empty()) ImGui::TextColored(colors::muted, "%s", bounded(t.stopped).c_str());
}

void LearningLabPanel::runs_section(const Frame& f) {
    const session::LabState& l = f.s.lab;
    const std::string dir = l.train_dir.empty() ? f.s.export_dir : l.train_dir;
    const double now = ImGui::GetTime();
    // Listed again when the folder or the last finished run changes, and every few seconds.
    if (dir != listed_ || l.training.finished != listed_finished_ || now - listed_at_ > 3) {
        runs_ = runs_in(dir);
        listed_ = dir;
        listed_finished_ = l.training.finished;
        listed_at_ = now;
    }
    ImGui::PushFont(f.fonts.bold);
    ImGui::TextUnformatted("Open a run");
    ImGui::PopFont();
    std::error_code ec;
    if (runs_.empty())
        ImGui::TextColored(colors::muted, "none in %s yet",
                           bounded(fs::absolute(dir, ec).lexically_normal().string()).c_str());
    const float list_h =
        std::min(f.px(110), ImGui::GetTextLineHeightWithSpacing() * (static_cast<float>(runs_.size()) + 0.5f));
    if (!runs_.empty() && ImGui::BeginChild("##runs", ImVec2(0, list_h), false)) {
        for (const std::string& r : runs_) {
            const bool open = l.run && fs::path(l.run->dir) == fs::path(r).lexically_normal();
            if (ImGui::Selectable(bounded(fs::path(r).filename().string()).c_str(), open))
                f.emit(LabCommand{lab::OpenRun{r}});
            f.drawn.lab_open.push_back(last_item_target("run:" + fs::path(r).filename().string()));
        }
    }
    if (!runs_.empty()) ImGui::EndChild();
    ImGui::SetNextItemWidth(-f.px(70));
    const bool enter =
        ImGui::InputTextWithHint("##run_path", "a run's folder", &open_path_, ImGuiInputTextFlags_EnterReturnsTrue);
    f.drawn.lab_open.push_back(last_item_target("path"));
    ImGui::SameLine();
    const bool open = ImGui::Button("Open");
    f.drawn.lab_open.push_back(last_item_target("open"));
    if ((open || enter) && !open_path_.empty()) f.emit(LabCommand{lab::OpenRun{open_path_}});
    if (ImGui::Button("Browse…")) f.emit(session::act::OpenBrowser{session::BrowserState::Mode::OpenRun, dir});
    f.drawn.lab_open.push_back(last_item_target("browse"));
}

void LearningLabPanel::timeline(const Frame& f) {
    const session::LabState& l = f.s.lab;
    const session::LabRun& run = *l.run;
    ImGui::PushFont(f.fonts.bold);
    ImGui::TextUnformatted(bounded(run_label(run)).c_str());
    ImGui::PopFont();
    if (l.pair) {
        ImGui::SameLine();
        ImGui::TextColored(colors::muted, "%s", bounded("beside: " + run_label(*l.pair)).c_str());
    }
    int index = l.checkpoint;
    const int last = static_cast<int>(run.log.size()) - 1;
    if (ImGui::ArrowButton("##back", ImGuiDir_Left)) index = std::max(0, index - 1);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-f.px(230));
    char label[64];
    std::snprintf(label, sizeof label, "step %s", session::with_thousands(run.log[l.checkpoint].step).c_str());
    ImGui::SliderInt("##timeline", &index, 0, last, label);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next", ImGuiDir_Right)) index = std::min(last, index + 1);
    ImGui::SameLine();
    ImGui::Text("checkpoint %d of %d", l.checkpoint + 1, last + 1);
    if (index != l.checkpoint) f.emit(LabAction{lab::SetCheckpoint{index}});

    int sample = l.sample;
    ImGui::SetNextItemWidth(f.px(120));
    if (ImGui::SliderInt("sample", &sample, 0, static_cast<int>(run.samples.size()) - 1))
        f.emit(LabAction{lab::SetSample{sample}});
    ImGui::SameLine();
    if (ImGui::Button("next wrong")) f.emit(LabCommand{lab::NextWrongSample{}});
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The next sample the checkpoint shown answers wrongly");
    ImGui::SameLine(0, f.px(16));
    int layer = l.shown_layer;
    ImGui::SetNextItemWidth(f.px(100));
    if (ImGui::SliderInt("layer", &layer, 0, l.now.trace ? static_cast<int>(l.now.trace->layers.size()) - 1 : 0))
        f.emit(LabAction{lab::SetLayer{layer}});
    ImGui::SameLine();
    bool chosen = l.layer < 0;
    if (ImGui::Checkbox("auto", &chosen)) f.emit(LabAction{lab::SetLayer{chosen ? -1 : l.shown_layer}});
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "The layer and head that single out the task's squares most at the step shown, for the query chosen");
    ImGui::SameLine(0, f.px(16));
    if (ImGui::Button("Open in the explorer")) f.emit(LabCommand{lab::Explore{}});
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", (fs::path(run.checkpoint_dir(l.checkpoint)).filename().string() + " on " +
                                 run.samples[l.sample] + ": the checkpoint in the explorer, with every panel and page")
                                    .c_str());
    if (l.squares.size() == 2) {
        ImGui::TextUnformatted("query on");
        ImGui::SameLine();
        // A run of a task this build does not know (its config names another): the first task's plain names.
        const vit::train::TaskSpec* task = vit::train::find_task(run.task);
        const auto& squares = (task ? *task : vit::train::all_tasks().front()).squares;
        if (ImGui::RadioButton(squares[0], l.query_square == session::kQuerySquare1))
            f.emit(LabAction{lab::SetQuerySquare{session::kQuerySquare1}});
        ImGui::SameLine();
        if (ImGui::RadioButton(squares[1], l.query_square == session::kQuerySquare2))
            f.emit(LabAction{lab::SetQuerySquare{session::kQuerySquare2}});
        ImGui::SameLine();
        if (ImGui::RadioButton("class token", l.query_square == session::kQueryCls))
            f.emit(LabAction{lab::SetQuerySquare{session::kQueryCls}});
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("The class token: where a ViT's answer is read out (its output goes to the classifier)");
        ImGui::SameLine(0, f.px(16));
        bool swap = l.swap;
        if (ImGui::Checkbox("swap the squares", &swap)) f.emit(LabAction{lab::ShowSwap{swap}});
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "Runs the checkpoint on the sample with its two squares' places exchanged: both answers, and how "
                "much the class token's output changes");
    }
}

namespace {

// A token's cell outlined on a drawn map (a square of the task on the sample or a head's map).
void outline_cell(const Frame& f, const MapHit& hit, const vit::Trace& t, int token, const ImVec4& colour) {
    if (!t.is_patch(token)) return;
    const float cell = (hit.max.x - hit.min.x) / t.grid;
    const ImVec2 a(hit.min.x + cell * t.col_of(token), hit.min.y + cell * t.row_of(token));
    ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x - f.px(2), a.y - f.px(2)),
                                        ImVec2(a.x + cell + f.px(2), a.y + cell + f.px(2)), ImGui::GetColorU32(colour),
                                        0, 0, f.px(2.5f));
}

}  // namespace

void LearningLabPanel::maps(const Frame& f, float height) {
    const session::LabState& l = f.s.lab;
    if (!l.sample_image || !l.now.trace) return;
    if (sample_generation_ != l.sample_generation) {
        // Nearest: a 64 px sample magnified shows its pixels, squares with sharp edges.
        sample_.upload(*l.sample_image, gfx::PhotoTexture::Filter::Nearest);
        sample_generation_ = l.sample_generation;
    }
    const bool cls = l.query_square == session::kQueryCls;
    const int heads = static_cast<int>(l.now.heads.size());
    if (heads == 0) return;
    const int rows = l.pair_now ? 2 : 1;
    const float gap = f.px(8);
    const float text_h = ImGui::GetTextLineHeightWithSpacing();
    // From the bottom up: the sentences (their wrapped height), the colour bar's row; the maps take the rest,
    // beside the position embeddings' grid.
    const float full_w = ImGui::GetContentRegionAvail().x;
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    const float below = sentences_height(f, full_w) + color_bar_height(f) + spacing;
    const float for_maps = std::max(f.px(120), height - below - text_h * 0.5f);  // half a line to spare
    const float sample_w = ImGui::CalcTextSize("step 10,000 · acc. 0.00").x;
    // The rows' heights beside their tiles: the main row's sample column has 2 caption lines, a blank and 2 verdict
    // lines; the row beside it 2 caption lines; each row a group, with the spacing after it.
    const float captions = text_h * 5.f + spacing * 2 + (rows - 1) * (text_h * 2.f + spacing * 2);
    // The position grid: its heading, its side and its caption's lines (wrapped in its width) in the maps' height.
    // A narrower grid wraps its caption into more lines: measured again at the side found.
    float grid_side = std::clamp(for_maps - text_h * 3.f, f.px(100), full_w * 0.32f);
    for (int pass = 0; pass < 2; ++pass) {
        const size_t caption_lines = wrapped_lines(kLabGridCaption, ImGui::GetFont(), grid_side).size();
        grid_side =
            std::clamp(for_maps - text_h * static_cast<float>(1 + caption_lines) - spacing * 2, f.px(100), grid_side);
    }
    // The sample's column is as wide as its tile, or as its caption when that is wider.
    const float maps_w = full_w - grid_side - f.px(24) - gap * (heads + 1);
    const float even_w = maps_w / static_cast<float>(heads + 1);
    const float by_width = even_w >= sample_w ? even_w : (maps_w - sample_w) / static_cast<float>(heads);
    // The run beside it, for comparison, at a smaller size.
    constexpr float kPairScale = 0.7f;
    const float tile =
        std::max(f.px(40), std::min(by_width, (for_maps - captions) / (1 + kPairScale * static_cast<float>(rows - 1))));
    const float pair_tile = std::max(f.px(32), tile * kPairScale);

    gfx::OverlayStyle style = f.s.style;
    style.normalization = gfx::Normalization::Absolute;  // every head and step on one 0..1 scale
    style.colormap = gfx::Colormap::Viridis;
    style.opacity = session::kLabMapOpacity;
    style.fade = false;
    MapPhoto photo;
    photo.texture = &sample_;
    photo.generation = 1000000 + l.sample_generation;
    photo.crop =
        vit::CropRect{0, 0, static_cast<double>(l.sample_image->width), static_cast<double>(l.sample_image->height)};

    auto row_of_maps = [&](const session::LabCheckpoint& c, bool position, int first_view, bool main_row) {
        photo.trace = c.trace.get();
        // A square's query outlined, and the other square as a pinned key is; the class token's: both squares.
        const gfx::Marks marks = cls ? gfx::Marks{} : marks_for(*c.trace, l.query, -1, l.other);
        ImGui::BeginGroup();
        ImGui::PushFont(f.fonts.bold);
        ImGui::TextUnformatted(position ? "with positions" : "without positions");
        ImGui::PopFont();
        ImGui::TextColored(colors::muted, "step %s · acc. %.2f", session::with_thousands(c.step).c_str(), c.accuracy);
        if (main_row) ImGui::TextUnformatted("");  // level with the heads' third caption line
        std::string id = "##sample" + std::to_string(first_view);
        const float side = main_row ? tile : pair_tile;
        const MapHit sample_hit = views_[first_view]->show(f, id.c_str(), nullptr, marks, ImVec2(side, side), &photo);
        if (cls) {
            outline_cell(f, sample_hit, *c.trace, l.square1, colors::accent);
            outline_cell(f, sample_hit, *c.trace, l.square2, colors::accent);
        } else {
            outline_cell(f, sample_hit, *c.trace, l.query, colors::accent);
        }
        if (main_row) {
            // The sample judged: its true label, the model's answer, right or wrong.
            const bool right = !c.predicted.empty() && c.predicted == l.sample_label;
            ImGui::TextColored(colors::muted, "%s", bounded("true: " + l.sample_label).c_str());
            ImGui::TextColored(right ? colors::ok : colors::error, "%s",
                               bounded(std::string(right ? "right: " : "wrong: ") + c.predicted).c_str());
        }
        ImGui::EndGroup();
        for (size_t h = 0; h < c.heads.size(); ++h) {
            ImGui::SameLine(0, gap);
            ImGui::BeginGroup();
            const session::LabHeadRow& r = c.heads[h];
            const bool chosen = main_row && static_cast<int>(h) == l.shown_head;
            ImGui::PushFont(f.fonts.bold);
            if (chosen) ImGui::TextColored(colors::accent, "head %zu · L%d", h, c.layer);
            else ImGui::Text("head %zu", h);
            ImGui::PopFont();
            // Short, so a column is as wide as its tile: the colour bar's row says what they are.
            if (l.other >= 0 || cls) ImGui::TextColored(colors::strong, "%.1f %%", 100 * r.on_task);
            else ImGui::TextColored(colors::muted, "largest %.3f", r.largest);
            if (main_row) {
                if (cls)
                    ImGui::TextColored(colors::muted, "%.0f · %.0f · %.0f", 100 * r.shares.square1,
                                       100 * r.shares.square2, 100 * r.shares.background);
                else ImGui::TextUnformatted("");
            }
            vit::Vec row(static_cast<Eigen::Index>(r.weights.size()));
            for (size_t j = 0; j < r.weights.size(); ++j) row[static_cast<Eigen::Index>(j)] = r.weights[j];
            const MapData map = weights_map(*c.trace, row, style);
            id = "##head" + std::to_string(first_view + 1 + h);
            const MapHit hit = views_[first_view + 1 + h]->show(f, id.c_str(), &map, marks, ImVec2(side, side), &photo);
            if (cls) {
                outline_cell(f, hit, *c.trace, l.square1, colors::pinned);
                outline_cell(f, hit, *c.trace, l.square2, colors::pinned);
            }
            if (chosen)
                ImGui::GetWindowDrawList()->AddRect(ImVec2(hit.min.x - f.px(4), hit.min.y - f.px(4)),
                                                    ImVec2(hit.max.x + f.px(4), hit.max.y + f.px(4)),
                                                    ImGui::GetColorU32(colors::accent), 0, 0, f.px(2));
            if (main_row) rects_.push_back({hit.min.x, hit.min.y, hit.max.x - hit.min.x, hit.max.y - hit.min.y});
            if (hit.hovered && hit.token >= 0) {
                ImGui::BeginTooltip();
                ImGui::Text("patch (%d, %d) · weight %.4f", hit.row, hit.col, r.weights[hit.token]);
                ImGui::EndTooltip();
            }
            ImGui::EndGroup();
        }
    };
    while (views_.size() < static_cast<size_t>((heads + 1) * rows)) views_.push_back(std::make_unique<MapView>());
    ImGui::BeginGroup();
    row_of_maps(l.now, l.run->position, 0, true);
    if (l.pair_now) row_of_maps(*l.pair_now, l.pair->position, heads + 1, false);
    ImGui::EndGroup();
    ImGui::SameLine(0, f.px(24));
    ImGui::BeginGroup();
    lab_position_grid(f, grid_side);
    ImGui::EndGroup();

    MapData bar;
    bar.grid = 1;
    bar.style = style;
    color_bar(f, bar, std::min(full_w * 0.3f, f.px(300)), "attention weight, 0 to 1");
    ImGui::SameLine(0, f.px(16));
    ImGui::TextColored(colors::muted, "%s",
                       cls ? "per head: % on the two squares (outlined); square 1 · 2 · background"
                           : "per head: % on the other square (orange); white: the query");
    sentences(f, full_w);
}

// The sentences' height at this width, as sentences() wraps them (at spaces: a number is never split).
float LearningLabPanel::sentences_height(const Frame& f, float width) const {
    const session::LabState& l = f.s.lab;
    const float indent = ImGui::GetTreeNodeToLabelSpacing(), line = ImGui::GetTextLineHeightWithSpacing();
    size_t lines = l.notice.empty() ? 0 : wrapped_lines(l.notice, ImGui::GetFont(), width).size();
    for (const session::LabSentence& s : l.sentences)
        lines += wrapped_lines(s.text, ImGui::GetFont(), width - indent).size();
    return static_cast<float>(lines) * line;
}

void LearningLabPanel::sentences(const Frame& f, float width) {
    const session::LabState& l = f.s.lab;
    const float indent = ImGui::GetTreeNodeToLabelSpacing();
    if (!l.notice.empty()) text_wrapped_at_spaces(colors::muted, l.notice.c_str(), width);
    for (const session::LabSentence& s : l.sentences) {
        ImGui::Bullet();
        const bool wrong = s.kind == "sample" && !s.holds;
        text_wrapped_at_spaces(wrong ? colors::error : ImGui::GetStyleColorVec4(ImGuiCol_Text), s.text.c_str(),
                               width - indent);
    }
}

}  // namespace ui

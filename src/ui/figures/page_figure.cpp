#include "ui/figures/page_figure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "gfx/figure.h"
#include "gfx/render_target.h"
#include "ui/panels/questions_panel.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/draw_frame.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/gl_cache.h"
#include "ui/widgets/offscreen_imgui.h"
#include "ui/widgets/print_text.h"
#include "ui/widgets/theme.h"
#include "vit/analysis/questions.h"
#include "vit/base/error.h"

namespace ui {
namespace {

constexpr float kWidth = 1024;        // logical pixels: the page a little wider than in a wide window
constexpr float kDensity = 2;         // pixels per logical pixel: 2048 px wide, sharp on a slide
constexpr float kPadding = 24;        // the figure's margin, logical pixels
constexpr float kFirstHeight = 4000;  // the first frame's height, before the content is measured
constexpr int kLayoutFrames = 3;      // frames drawn before one may be kept: tables and wrapped text settle
constexpr int kMaxFrames = 8;         // then the one whose content fits its height, or the last

// The state the figure shows: s's page, without what the mouse is over.
session::AppState figure_state(const session::AppState& s, const std::string& page) {
    session::AppState f = s;
    f.tab = session::AppState::Tab::Questions;
    f.question = page;
    f.sel.hovered_key = -1;
    return f;
}

// The model and the photo (and the second photo, on the pages that show it).
std::string model_line(const session::AppState& s, const vit::QuestionPage& page) {
    const std::string model = gfx::model_title(s.loaded.model_dir, s.loaded.model ? s.loaded.model->config.name : "");
    const auto name = [](const std::string& path) { return std::filesystem::path(path).filename().string(); };
    std::string line = model + " \u00b7 " + name(s.loaded.image_path);
    if (page.two_photos && s.compared.ready()) line += " and " + name(s.compared.image_path);
    return bounded(line);  // two file names of up to 255 bytes and a folder name
}

// Pages whose numbers do not depend on the layer, head and query on show (the
// relevance page explains a class): their figures name no selection.
bool uses_selection(const vit::QuestionPage& page) { return std::string(page.name) != "relevance"; }

std::string selection_line(const session::AppState& s) {
    const vit::Trace& t = *s.trace();
    return gfx::attention_caption(s.sel.layer, s.sel.head, s.sel.query, t.row_of(s.sel.query), t.col_of(s.sel.query));
}

struct Drawn {
    float content_height = 0;  // logical pixels, margins included
    std::vector<session::Request> requests;
    session::DrawnReport drawn;  // its cells, for tests that sample them
};

// The cells as JSON in the PNG's pixels: [{"name":..,"x0":..,"y0":..,"cell":..,"step":..,"grid":..,"maps":..}].
std::string cells_json(const std::vector<session::DrawnCells>& cells) {
    std::string out = "[";
    for (const session::DrawnCells& c : cells) {
        char item[320];
        std::snprintf(item, sizeof item,
                      "%s{\"name\":\"%s\",\"x0\":%.3f,\"y0\":%.3f,\"cell\":%.3f,\"step\":%.3f,\"grid\":%d,\"maps\":%d,"
                      "\"rows\":%d,\"cell_h\":%.3f}",
                      out.size() > 1 ? "," : "", c.name.c_str(), c.x0 * kDensity, c.y0 * kDensity, c.cell * kDensity,
                      c.step * kDensity, c.grid, c.maps, c.rows ? c.rows : c.grid,
                      (c.cell_h > 0 ? c.cell_h : c.cell) * kDensity);
        out += item;
    }
    return out + "]";
}

// One ImGui frame of the figure, display `height` logical pixels tall.
Drawn draw_frame(const session::AppState& s, const vit::QuestionPage& page, QuestionView& view, GlCache& gpu,
                 const Fonts& fonts, float height) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(kWidth, height);
    const PrintScope for_print;  // the pages' notes leave out what to click
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    Drawn d;
    d.drawn.record_cells = true;
    const Frame f{s, d.requests, d.drawn, gpu, fonts, 1.f, kDensity, true};
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(kPadding, kPadding));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.f);
    constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse |
                                       ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoNav;
    ImGui::Begin("##figure", nullptr, flags);
    ImGui::PopStyleVar(2);  // the window keeps its own; the page's children get the theme's
    // The caption: which model, photo and selection the page's numbers are of.
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(model_line(s, page).c_str());
    ImGui::PopFont();
    if (uses_selection(page)) ImGui::TextColored(colors::muted, "%s", selection_line(s).c_str());
    ImGui::Separator();
    ImGui::Spacing();
    draw_question_page(f, page, view);
    d.content_height = std::ceil(ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y + kPadding);
    ImGui::End();
    ImGui::Render();
    return d;
}

}  // namespace

PageFigure render_page_figure(const session::AppState& state, const std::string& name) {
    const vit::QuestionPage* page = vit::find_question_page(name);
    std::unique_ptr<QuestionView> view = make_question_view(name);
    if (!page || !view) throw vit::Error("no Questions page '" + name + "' to draw a figure of");
    if (!state.trace() || !state.loaded.image) throw vit::Error("nothing to draw yet: no model has run on a photo");
    const session::AppState s = figure_state(state, name);

    gfx::FramebufferScope keep;                                        // the window's GL state, when the window asks
    OffscreenImGui imgui(kFontSize, kDensity, Theme::Light);           // for print and slides
    ImGui::GetStyle().Colors[ImGuiCol_WindowBg] = ImVec4(1, 1, 1, 1);  // the white page of `vitscope export`'s figures
    GlCache gpu;
    if (!gpu.error().empty()) throw vit::Error("figure: " + gpu.error());
    gpu.sync(s);

    // The same number of frames for the same state: the picture is a function of it.
    float height = kFirstHeight;
    Drawn last;
    for (int frame = 0; frame < kMaxFrames; ++frame) {
        last = draw_frame(s, *page, *view, gpu, imgui.fonts(), height);
        if (frame >= kLayoutFrames && last.content_height == height) break;
        if (frame + 1 < kMaxFrames) height = std::max(1.f, last.content_height);
    }

    PageFigure out;
    const int w = static_cast<int>(std::lround(kWidth * kDensity));
    const int h = static_cast<int>(std::lround(ImGui::GetIO().DisplaySize.y * kDensity));
    out.image = read_back_frame(w, h);

    out.metadata = {{"Title", page->title},
                    {"Description",
                     model_line(s, *page) + (uses_selection(*page) ? " \u00b7 " + selection_line(s) : "")},
                    {"Software", "vitscope"},
                    {"vitscope:question", name},
                    {"vitscope:cells", cells_json(last.drawn.cells)}};
    // What the page asked for and has not got: its experiments, and its
    // analyses (numbers too slow for one frame), both run before it is drawn again.
    auto ask = [&](const std::string& key, const session::ExperimentJob& job) {
        const bool seen = std::any_of(out.missing.begin(), out.missing.end(),
                                      [&](const session::cmd::RunExperiment& m) { return m.key == key; });
        if (!seen) out.missing.push_back({key, job});
    };
    for (const session::Request& r : last.requests) {
        const auto* c = std::get_if<session::Command>(&r);
        if (auto* x = c ? std::get_if<session::cmd::RunExperiment>(c) : nullptr) ask(x->key, x->job);
        if (auto* x = c ? std::get_if<session::cmd::RunAnalysis>(c) : nullptr) ask(x->key, x->job);
    }
    return out;
}

}  // namespace ui

#include "ui/questions/question_widgets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/widgets/bounded_text.h"
#include "ui/widgets/color_bar.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/print_text.h"
#include "ui/widgets/theme.h"

namespace ui {

void evidence_heading(const Frame& f, const char* text) {
    ImGui::Spacing();
    ImGui::PushFont(f.fonts.bold);
    // Narrow windows: the heading wraps between words rather than running off the page.
    text_wrapped_at_spaces(text);
    ImGui::PopFont();
}

void whatif_note(const Frame& f, const char* text) {
    whatif_badge(f, "WHAT-IF");
    ImGui::SameLine();
    text_wrapped_at_spaces(colors::whatif, text);
}

namespace {
FoldedNotes* folding = nullptr;  // the page being drawn folds its notes (classroom mode)
}  // namespace

FoldedNotes::FoldedNotes() : outer_(folding) { folding = this; }
FoldedNotes::~FoldedNotes() { folding = outer_; }

void FoldedNotes::draw(const char* lead) {
    folding = outer_;  // what the header shows is drawn, not kept
    ImGui::Spacing();
    if (!ImGui::CollapsingHeader("Read more")) return;
    text_wrapped_at_spaces(lead);
    for (const std::string& text : texts_) text_wrapped_at_spaces(colors::muted, text.c_str());
}

void note(const char* text) {
    // A figure for print keeps what is shown and leaves out what to click.
    const std::string shown = drawing_for_print() ? without_mouse_hints(text) : text;
    if (shown.empty()) return;
    if (folding) folding->add(shown);
    else text_wrapped_at_spaces(colors::muted, shown.c_str());
}

float height_above_fold(const Frame& f, float wanted, float least) {
    if (!f.s.classroom || f.figure) return wanted;
    return std::min(wanted,
                    std::max(least, std::floor(ImGui::GetContentRegionAvail().y - ImGui::GetStyle().ItemSpacing.y)));
}

float maps_height_above_fold(const Frame& f, float wanted, const std::function<float(float)>& caption_at) {
    if (!f.s.classroom || f.figure) return wanted;
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    const float below = 2 * spacing + color_bar_height(f);
    float h = wanted;
    // Smaller maps can take taller captions: a few rounds settle it (h only shrinks).
    for (int round = 0; round < 4; ++round) {
        const float room = std::floor(ImGui::GetContentRegionAvail().y - caption_at(h) - below);
        const float fits = std::min(wanted, std::max(f.px(kSmallestMap), room));
        if (h <= fits) break;
        h = fits;
    }
    return h;
}

void computing_note(const char* what) {
    // Wrapped: "how the heads of this layer differ" is wider than the panel in classroom type at 1024 px.
    text_wrapped_at_spaces(colors::muted, (std::string("Computing ") + what + "…").c_str());
}

float table_height(int lines) {
    const ImGuiStyle& st = ImGui::GetStyle();
    return lines * (ImGui::GetTextLineHeight() + 2 * st.CellPadding.y) + st.ScrollbarSize + st.CellPadding.y;
}

bool begin_table_fitting(const Frame& f, const char* id, int columns, ImGuiTableFlags flags, float min_width, int lines,
                         bool* narrow) {
    const bool scrolls = ImGui::GetContentRegionAvail().x < f.px(min_width);
    if (narrow) *narrow = scrolls;
    flags |= scrolls ? ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX : ImGuiTableFlags_SizingStretchProp;
    return ImGui::BeginTable(id, columns, flags, ImVec2(0, scrolls ? table_height(lines) : 0));
}

std::string experiment_key(const Frame& f, const std::string& name) {
    return name + "#" + std::to_string(f.s.loaded.generation);
}

void start_once(const Frame& f, std::string& started, const std::string& key, const session::ExperimentJob& job) {
    const session::ExperimentsView& x = f.s.experiments;
    if (started == key || x.results.count(key) || !x.running.empty()) return;
    started = key;
    f.emit(session::cmd::RunExperiment{key, job});
}

bool experiment_controls(const Frame& f, const char* label, const std::string& key, const session::ExperimentJob& job) {
    const session::ExperimentsView& x = f.s.experiments;
    const bool done = x.results.count(key) != 0;
    if (f.figure) {
        // A figure has no buttons: it asks for the result, and whoever draws
        // it runs the experiment and draws again (page_figure.h).
        if (!done) {
            f.emit(session::cmd::RunExperiment{key, job});
            ImGui::TextColored(colors::muted, "(%s: not run)", label);
        }
        return done;
    }
    ImGui::PushID(key.c_str());
    if (x.is_running(key)) {
        char text[64];
        std::snprintf(text, sizeof text, "%d of %d", x.done, x.total);
        ImGui::ProgressBar(x.total ? static_cast<float>(x.done) / x.total : 0.f, ImVec2(f.px(220), 0), text);
        ImGui::SameLine();
        if (ImGui::SmallButton("Cancel")) f.emit(session::cmd::CancelExperiment{});
    } else if (!done) {
        if (ImGui::Button(label)) f.emit(session::cmd::RunExperiment{key, job});
        if (!x.running.empty()) {
            ImGui::SameLine();
            ImGui::TextColored(colors::muted, "(another experiment is running: starting this one stops it)");
        }
        if (!x.error.empty()) ImGui::TextColored(colors::error, "%s", bounded(x.error).c_str());
    }
    ImGui::PopID();
    return done;
}

}  // namespace ui

// "Why does a ViT need position embeddings?": the what-if that shuffles the
// photo's patches and runs it again. Without position embeddings the shuffled
// run, put back in order, is the unshuffled run up to float rounding; with
// them it is not. Shows the numbers, the mosaic with its map, that map put
// back onto the photo, and what the classifier makes of the photo without
// position embeddings.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "ui/questions/question_view.h"
#include "ui/questions/question_widgets.h"
#include "ui/widgets/figure_probe.h"
#include "ui/widgets/bounded_text.h"
#include "ui/widgets/imgui_helpers.h"
#include "ui/widgets/input_picture.h"
#include "ui/widgets/map_card.h"
#include "ui/widgets/map_view.h"
#include "ui/widgets/number_table.h"
#include "ui/widgets/theme.h"
#include "vit/analysis/attention_rows.h"
#include "vit/analysis/permutation.h"
#include "vit/forward/classes.h"
#include "vit/image/input_image.h"

namespace ui {
namespace {

// Differences below this are float32 rounding, not a change.
constexpr double kRounding = 1e-3;

struct ShuffleResult {
    vit::PermutationExperiment e;
    vit::PatchPermutation back;  // inverse(e.shuffle)
    vit::Image mosaic;           // the shuffled input as a picture
    std::vector<vit::ClassScore> top5_without_pos;
};

class PermutationView : public QuestionView {
public:
    void draw(const Frame& f) override;

private:
    void shuffle_button(const Frame& f);
    void differences(const Frame& f, const ShuffleResult& r);
    void maps(const Frame& f, const std::shared_ptr<const ShuffleResult>& r, float w);
    void classes(const Frame& f, const ShuffleResult& r);

    bool with_pos_ = false;  // which runs the maps come from
    std::string started_;    // the shuffle this page started by itself
    MapView mosaic_, put_back_, unshuffled_;
    InputPicture picture_;
};

std::string key_of(const Frame& f, uint32_t seed) { return experiment_key(f, "shuffle seed " + std::to_string(seed)); }

session::ExperimentJob shuffle_job(const Frame& f, uint32_t seed) {
    const auto model = f.s.loaded.model;
    const auto input = f.s.loaded.input;
    const auto trace = f.s.loaded.trace;
    return [=](const vit::TaskControl& c) {
        c.report(0, 1);
        vit::TraceOptions options;  // the comparison needs the weights and the final states only
        options.keep_qkv = false;
        options.keep_states = false;
        auto r = std::make_shared<ShuffleResult>();
        r->e = vit::run_permutation_experiment(*model, *input, *trace, seed, options);
        r->back = vit::inverse(r->e.shuffle);
        r->mosaic = vit::input_as_image(r->e.runs.input, model->config.pre);
        r->top5_without_pos = vit::top_classes(*model, r->e.runs.original_without_pos, 5);
        c.report(1, 1);
        return std::static_pointer_cast<const void>(std::shared_ptr<const ShuffleResult>(r));
    };
}

void PermutationView::shuffle_button(const Frame& f) {
    const uint32_t seed = f.s.permutation_seed;
    const std::string key = key_of(f, seed);
    if (f.s.experiments.results.count(key) && !f.figure) {
        // A new seed per click.
        if (ImGui::Button("Shuffle again")) {
            f.emit(session::act::SetPermutationSeed{seed + 1});
            f.emit(session::cmd::RunExperiment{key_of(f, seed + 1), shuffle_job(f, seed + 1)});
        }
        ImGui::SameLine();
        ImGui::TextColored(colors::muted, "a new seed each time");
    }
    char label[64];
    std::snprintf(label, sizeof label, "Shuffle (seed %u; 3 forward passes)", seed);
    const session::ExperimentJob job = shuffle_job(f, seed);
    start_once(f, started_, key, job);  // the page opens with a shuffle done
    experiment_controls(f, label, key, job);
}

void PermutationView::differences(const Frame& f, const ShuffleResult& r) {
    ImGui::TextWrapped(
        "Seed %u: patches shuffled by std::mt19937(%u), Fisher–Yates. The shuffled run's attention weights "
        "and final tokens, put back in the original order, against the unshuffled run's:",
        r.e.seed, r.e.seed);
    if (NumberTable table{
            f, "##diff", "largest |difference|", {"weights", "tokens"}, ImGuiTableFlags_RowBg, "0.000e-00"}) {
        const auto row = [&](const char* what, const vit::UnpermutedDifference& d, ImVec4 colour) {
            table.row(what, colour);
            table.number("%.3g", d.attention);
            table.number("%.3g", d.final_tokens);
        };
        row("without position embeddings", r.e.without_pos, colors::whatif);
        row("with position embeddings (the model)", r.e.with_pos, colors::accent);
    }
    // "float rounding" only when the numbers above are that small (float32 through every layer: under 1e-3).
    const bool rounding = r.e.without_pos.attention < kRounding && r.e.without_pos.final_tokens < kRounding;
    note(rounding
             ? "weights: every attention weight of every layer and head; tokens: the final token states. Without "
               "position embeddings the differences here are float rounding: shuffling the patches only shuffled "
               "the outputs (attention is permutation-equivariant). With them the shuffled photo is another "
               "input: each patch gets another place's embedding."
             : "weights: every attention weight of every layer and head; tokens: the final token states. Attention "
               "is permutation-equivariant, so without position embeddings shuffling the patches should only "
               "shuffle the outputs; the differences above are larger than float rounding. With position "
               "embeddings the shuffled photo is another input: each patch gets another place's embedding.");
}

void PermutationView::maps(const Frame& f, const std::shared_ptr<const ShuffleResult>& r, float w) {
    const session::AppState& s = f.s;
    const vit::Trace& t = *s.trace();
    const int l = s.sel.layer, h = s.sel.head, q = s.sel.query;
    const vit::RearrangedRuns& runs = r->e.runs;
    const bool projector = s.classroom && !f.figure;  // the maps first: which ones is chosen under them
    const auto which_maps = [&] {
        if (ImGui::RadioButton("maps without position embeddings", !with_pos_)) with_pos_ = false;
        same_line_if_fits(check_width("with them"));
        if (ImGui::RadioButton("with them", with_pos_)) with_pos_ = true;
    };
    if (f.figure)  // print: which maps, in words
        ImGui::TextUnformatted(with_pos_ ? "Maps with position embeddings" : "Maps without position embeddings");
    else if (!projector) which_maps();
    const vit::Trace& shuffled = with_pos_ ? runs.rearranged : runs.rearranged_without_pos;
    const vit::Trace& unshuffled = with_pos_ ? t : runs.original_without_pos;
    const int moved_q = vit::moved_token(t, r->e.shuffle, q);
    const vit::Vec mosaic_row = vit::attention_row(shuffled, l, h, moved_q);

    // Three maps in a row when they fit, else two.
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    const int cols = w > f.px(600) ? 3 : 2;
    const float card = std::floor((w - gap * (cols - 1)) / cols);
    const MapPhoto mosaic_photo = picture_.photo(r, r->mosaic, shuffled);
    const char* mosaic_caption = "the shuffled photo and its map (the query moved with its patch)";
    const char* back_caption = "that map put back in order, on the photo";
    const char* own_caption =
        with_pos_ ? "the photo's own map (the model)" : "the photo's own map, without position embeddings";
    if (projector) {  // short captions over the maps, naming the what-ifs; the long ones folded with the notes
        note((std::string("The maps: ") + mosaic_caption + "; " + back_caption + "; " + own_caption + ".").c_str());
        mosaic_caption = "what-if: shuffled";
        back_caption = "what-if: put back in order";
        own_caption = with_pos_ ? "the photo's own (the model)" : "what-if: no position embeddings";
    }
    const auto mosaic_at = [&](float h) { return fit_size(r->mosaic.width, r->mosaic.height, ImVec2(card, h)); };
    const auto photo_at = [&](float h) { return fit_photo(s, ImVec2(card, h)); };
    const auto captions_at = [&](float h) {
        return caption_height({mosaic_caption, back_caption, own_caption}, std::min(mosaic_at(h).x, photo_at(h).x));
    };
    const float maps_h = maps_height_above_fold(f, card, captions_at);
    const ImVec2 mosaic_size = mosaic_at(maps_h), photo_size = photo_at(maps_h);
    const float caption_h = captions_at(maps_h);
    int card_index = 0;
    auto card_map = [&](MapView& view, const char* id, const char* caption, const vit::Trace& trace,
                        const vit::Vec& row, int query, ImVec2 size, const MapPhoto* photo, bool on_mosaic) {
        if (card_index++ % cols) ImGui::SameLine(0, gap);
        const MapHit hit = map_card(f, view, id, {caption, caption_h}, weights_map(trace, row, s.style),
                                    marks_for(trace, query, -1, -1), size, photo, "weight");
        weight_hover(f, hit, trace, row, "weight", true, on_mosaic ? &t : nullptr, on_mosaic ? &r->back : nullptr);
    };
    card_map(mosaic_, "mosaic", mosaic_caption, shuffled, mosaic_row, moved_q, mosaic_size, &mosaic_photo, true);
    card_map(put_back_, "back", back_caption, t, vit::move_row(shuffled, r->back, mosaic_row), q, photo_size, nullptr,
             false);
    card_map(unshuffled_, "own", own_caption, unshuffled, vit::attention_row(unshuffled, l, h, q), q, photo_size,
             nullptr, false);
    if (projector) which_maps();
    // What the two maps beside each other show, by their largest difference.
    const vit::Vec back_row = vit::move_row(shuffled, r->back, mosaic_row);
    const double apart = (back_row - vit::attention_row(unshuffled, l, h, q)).cwiseAbs().maxCoeff();
    char said[320];
    if (apart >= kRounding)
        std::snprintf(said, sizeof said,
                      "%s the map put back differs from the photo's own (by up to %.3g in a weight): "
                      "%s",
                      with_pos_ ? "With position embeddings" : "Without position embeddings", apart,
                      with_pos_ ? "where a patch sits changes what it attends to." : "more than float rounding.");
    else
        std::snprintf(said, sizeof said,
                      "%s the map put back is the photo's own map (largest difference %.2g, within "
                      "float rounding): %s",
                      with_pos_ ? "With position embeddings" : "Without position embeddings", apart,
                      with_pos_ ? "for this query and head the shuffle changed nothing but the order."
                                : "the shuffle changed nothing but the order.");
    note(said);
}

void PermutationView::classes(const Frame& f, const ShuffleResult& r) {
    evidence_heading(f, "What the classifier makes of this photo, with and without position embeddings");
    const auto& with = f.s.loaded.top5;
    const auto& without = r.top5_without_pos;
    if (with.empty()) {
        note("This model has no classifier.");
        return;
    }
    if (ImGui::BeginTable("##classes", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableSetupColumn("the model");
        ImGui::TableSetupColumn("no position embeddings");
        wrapped_headers_row();
        for (size_t i = 0; i < std::max(with.size(), without.size()); ++i) {
            ImGui::TableNextRow();
            for (const auto* list : {&with, &without}) {
                ImGui::TableNextColumn();
                if (i < list->size())
                    ImGui::TextWrapped("%.1f %%  %s", 100.0 * (*list)[i].probability,
                                       bounded((*list)[i].label).c_str());
            }
        }
        end_figure_table();
    }
    note("The photo is not shuffled here: the difference is what the position embeddings are worth to the classifier.");
}

void PermutationView::draw(const Frame& f) {
    const float w = ImGui::GetContentRegionAvail().x;
    evidence_heading(f, "On this photo: shuffle the patches");
    // The projector leads with the maps (their captions name the what-ifs); the banner, the shuffle and the
    // table of differences follow them.
    const bool maps_first = f.s.classroom && !f.figure;
    const auto r = f.s.experiments.result<ShuffleResult>(key_of(f, f.s.permutation_seed));
    if (maps_first && r) maps(f, r, w);
    whatif_note(f, "The photo's patches shuffled, and runs without position embeddings: not what the model computes.");
    shuffle_button(f);
    if (!r) return;
    if (maps_first) {
        ImGui::Spacing();
        differences(f, *r);
    } else {
        differences(f, *r);
        ImGui::Spacing();
        maps(f, r, w);
    }
    classes(f, *r);
}

}  // namespace

std::unique_ptr<QuestionView> make_permutation_view() { return std::make_unique<PermutationView>(); }

}  // namespace ui

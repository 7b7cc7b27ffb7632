#include "session/tour/tour_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "session/core/shown_rows.h"
#include "session/tour/tour_query.h"
#include "vit/analysis/content_reach.h"
#include "vit/analysis/global.h"
#include "vit/analysis/heads.h"
#include "vit/analysis/high_norm_distance.h"
#include "vit/analysis/step_explanation.h"
#include "vit/analysis/token_norms.h"
#include "vit/base/error.h"
#include "vit/forward/token_name.h"

namespace session {
namespace {

const std::set<std::string>& plain_names() {
    static const std::set<std::string> names = {"grid",
                                                "patch",
                                                "input",
                                                "patches",
                                                "tokens",
                                                "layers",
                                                "heads",
                                                "d_k",
                                                "layer",
                                                "head",
                                                "query",
                                                "key",
                                                "score",
                                                "scaled",
                                                "weight",
                                                "unscaled_weight",
                                                "key_rank",
                                                "key_match",
                                                "top_key",
                                                "top_weight",
                                                "cls_weight",
                                                "beyond_3x3",
                                                "far_quarter",
                                                "distance",
                                                "distance_note",
                                                "claim_value",
                                                "claim_baseline",
                                                "claim_ratio",
                                                "claim_even",
                                                "claim_times",
                                                "neighbourhood",
                                                "high_norm_tokens",
                                                "high_norm_times",
                                                "high_norm_cls",
                                                "high_norm_cls_head",
                                                "high_norm_queries",
                                                "high_norm_first",
                                                "top1",
                                                "top1_probability",
                                                "classes",
                                                "query_rank",
                                                "relevant_quarter",
                                                "reach_relevant"};
    return names;
}

// Calls found(name) for each {name} in text, in order.
template <class F>
void each_placeholder(const std::string& text, F found) {
    for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
        const size_t close = text.find('}', open);
        if (close == std::string::npos) return found(text.substr(open + 1));
        found(text.substr(open + 1, close - open - 1));
    }
}

std::string format(const char* fmt, double v) {
    char text[64];
    std::snprintf(text, sizeof text, fmt, v);
    return text;
}
// "83%"; "0.2%" below one per cent, where a rounded 0 would say nothing.
std::string percent(double share) { return format(share < 0.01 ? "%.1f%%" : "%.0f%%", 100 * share); }

constexpr const char* kNone = "—";

// The high-norm placeholders' values for the selected layer (and head).
std::string high_norm_value(const std::string& name, const vit::Trace& t, int layer, int head) {
    if (t.last_block_out.rows() != t.tokens) return kNone;
    const std::vector<vit::LayerNorms> norms = vit::token_norms(t);
    const vit::LayerNorms& n = norms[layer];
    if (name == "high_norm_cls_head") {
        double on_high = 0;
        for (int j : n.high) on_high += t.layers[layer].heads[head].attn(0, j);
        return percent(on_high);
    }
    if (name == "high_norm_first") {
        const int first = vit::first_high_norm_layer(norms);
        return first < 0 ? "none" : std::to_string(first);
    }
    if (name == "high_norm_times") return n.median_patch_norm > 0 ? format("%.0f×", n.top_over_median) : kNone;
    if (name == "high_norm_cls") return percent(n.cls_weight_on_high);
    if (name == "high_norm_queries") return percent(n.patch_weight_on_high);
    if (n.high.empty()) return "none";
    std::string out = std::to_string(n.high.size()) + (n.high.size() == 1 ? " patch: " : " patches: ");
    for (size_t i = 0; i < n.high.size(); ++i) {
        char at[32];
        std::snprintf(at, sizeof at, "%s(%d, %d)", i ? ", " : "", t.row_of(n.high[i]), t.col_of(n.high[i]));
        out += at;
    }
    return out;
}

// ", or 93 px with the 4 high-norm tokens left out (...)" where high-norm
// tokens enter the layer; "" where none do, or the trace kept no states.
std::string distance_note(const vit::Trace& t, int layer, int head, int patch_px) {
    vit::HighNormDistance d;
    try {
        d = vit::distance_without_high_norm(t, layer, head, patch_px);
    } catch (const vit::Error&) {
        return "";
    }
    if (d.left_out.empty()) return "";
    char text[200];
    std::snprintf(text, sizeof text,
                  ", or %.0f px with the %zu high-norm token%s entering the layer left out (%s of its queries' "
                  "weight goes to %s)",
                  d.distance_px, d.left_out.size(), d.left_out.size() == 1 ? "" : "s",
                  percent(d.high_norm_share).c_str(), d.left_out.size() == 1 ? "it" : "them");
    return text;
}

// The weight the explained key would get had the scores not been divided by
// sqrt(d_k): the softmax of the raw scores, in double.
double unscaled_weight(const vit::StepExplanation& e) {
    const double top = e.raw.maxCoeff();
    double z = 0;
    for (int j = 0; j < e.raw.size(); ++j) z += std::exp(double(e.raw[j]) - top);
    return std::exp(double(e.raw[e.key]) - top) / z;
}

// The explained key's place among the row's keys by raw score ("2 of 197"; 1: the best match).
int rank_of(const vit::StepExplanation& e) { return 1 + static_cast<int>((e.raw.array() > e.raw[e.key]).count()); }
std::string key_rank(const vit::StepExplanation& e) {
    return std::to_string(rank_of(e)) + " of " + std::to_string(e.raw.size());
}

// How the explained key stands in the row, said so it stays true: the best
// match, or the best after the query's own key, or its rank after another.
std::string key_match(const vit::Trace& t, const vit::StepExplanation& e) {
    vit::Vec::Index top = 0;
    e.raw.maxCoeff(&top);
    if (top == e.key) return "the key this query's q matches best in this head";
    const std::string rank = key_rank(e);
    if (top == e.query && rank_of(e) == 2)
        return "the key this query's q matches best after its own key, which ranks first (" + rank + ")";
    const std::string first = top == e.query ? "the query's own key" : vit::token_name(t, static_cast<int>(top));
    return "ranked " + rank + " by this query's q in this head (" + first + " ranks first)";
}

// The placeholders that read the relevance the tour's query was chosen by
// (tour_query.h): "—" until a step has chosen a query on this photo.
std::string relevance_value(const std::string& name, const AppState& s, int layer, int head, int query) {
    const vit::RelevantQueryChoice* c = relevant_choice(s);
    const vit::Trace& t = *s.trace();
    if (!c) return kNone;
    if (name == "relevant_quarter") return std::to_string(c->query.quarter);
    if (!t.is_patch(query)) return kNone;
    if (name == "query_rank") {  // 1 + the patches more relevant than the query
        const double mine = c->relevance[query - t.prefix];
        return std::to_string(1 + (c->relevance.array() > mine).count());
    }
    if (t.layers[layer].x_in.rows() != t.tokens) return kNone;
    const vit::ContentReach reach = vit::content_reach(t, layer, head, query);
    int on_relevant = 0;
    for (int j : reach.patches)
        on_relevant += std::find(c->query.relevant.begin(), c->query.relevant.end(), j) != c->query.relevant.end();
    return std::to_string(on_relevant) + " of the " + std::to_string(reach.patches.size());
}

int photo_index(const AppState& s, const Tour& tour) { return own_photo(s, tour) ? 0 : 1; }

bool paragraph_shows(const TourParagraph& p, int photo, const std::optional<TourClaimCheck>& claim) {
    if (p.photo != TourPhoto::Any && (p.photo == TourPhoto::Own) != (photo == 0)) return false;
    if (p.when == TourWhen::Always) return true;
    return claim && claim->holds == (p.when == TourWhen::Holds);
}

}  // namespace

bool own_photo(const AppState& s, const Tour& tour) {
    const vit::Trace* t = s.trace();
    if (!t || std::filesystem::path(s.loaded.image_path).filename().string() != tour.photo) return false;
    return tour.regions.empty() ? true : regions_apply(s, tour);
}

std::optional<TourClaimCheck> tour_claim(const AppState& s) {
    const vit::Trace* t = s.trace();
    if (!s.tour.tour || !t) return std::nullopt;
    const Tour& tour = *s.tour.tour;
    const std::optional<TourCriterion>& c = tour.steps[s.tour.step].claim[photo_index(s, tour)];
    const int layer = s.sel.layer, head = s.sel.head, query = s.sel.query;
    if (!c || (!t->is_patch(query) && c->kind != vit::ClaimKind::HighNormTokens) ||
        layer >= static_cast<int>(t->layers.size()) || head >= static_cast<int>(t->layers[layer].heads.size()) ||
        t->layers[layer].heads[head].attn.rows() != t->tokens)
        return std::nullopt;
    TourClaimCheck out;
    out.kind = c->kind;
    out.region = c->region;
    out.layer = layer, out.head = head, out.query = query;
    out.ratio = c->ratio;
    if (c->kind == vit::ClaimKind::HighNormTokens) {  // about the layer: any query, any head
        if (t->last_block_out.rows() != t->tokens) return std::nullopt;
        const vit::LayerNorms n = vit::token_norms(*t)[layer];
        out.value = vit::high_norm_claim(n);
        out.holds = !n.high.empty();
        return out;
    }
    const std::optional<vit::GridRegion> found = tour_region(s, c->region);
    if (!found) return std::nullopt;  // the automatic region is not known here
    const vit::GridRegion& region = *found;
    const vit::Vec row = t->layers[layer].heads[head].attn.row(query).transpose();
    out.split = vit::neighbourhood_split(*t, row, query, region);
    try {
        out.value = vit::head_claim(*t, layer, head, query, c->kind, region);
    } catch (const vit::Error&) {
        return std::nullopt;  // a trace without the states or Q and K the claim reads
    }
    out.holds = vit::claim_holds(c->kind, out.value, c->ratio);
    return out;
}

std::string unknown_placeholder(const std::string& text, const Tour& tour) {
    std::string bad;
    each_placeholder(text, [&](const std::string& name) {
        if (!bad.empty()) return;
        const size_t colon = name.find(':');
        const std::string kind = name.substr(0, colon);
        if (colon == std::string::npos
                ? plain_names().count(name)
                : (kind == "share" || kind == "area") && tour.regions.count(name.substr(colon + 1)))
            return;
        bad = name;
    });
    return bad;
}

bool names_region(const std::string& text) {
    return text.find("{share:") != std::string::npos || text.find("{area:") != std::string::npos;
}

namespace {

bool uses_any(const std::string& text, std::initializer_list<const char*> names) {
    bool found = false;
    each_placeholder(text, [&](const std::string& name) {
        for (const char* n : names) found |= name == n;
    });
    return found;
}

}  // namespace

bool needs_answer(const std::string& text) { return uses_any(text, {"top1", "top1_probability", "classes"}); }

bool needs_relevance(const std::string& text) {
    return uses_any(text, {"query_rank", "relevant_quarter", "reach_relevant"});
}

bool regions_apply(const AppState& s, const Tour& tour) {
    const vit::Trace* t = s.trace();
    if (!t || tour.regions.empty()) return false;
    if (std::filesystem::path(s.loaded.image_path).filename().string() != tour.photo) return false;
    for (const auto& [name, patches] : tour.regions)
        for (const auto& [r, c] : patches)
            if (r >= t->grid || c >= t->grid) return false;
    return s.loaded.model && t->grid == s.loaded.model->pos_grid;  // drawn at the model's own input size
}

std::string fill_tour_text(const std::string& text, const AppState& s, const Tour& tour) {
    const vit::Trace* t = s.trace();
    if (!t || !s.loaded.model) return text;
    const vit::Model& m = *s.loaded.model;
    const int layer = s.sel.layer, head = s.sel.head, query = s.sel.query;
    const std::optional<vit::Vec> row = shown_row(s, layer);
    const bool patch_query = t->is_patch(query);

    auto value = [&](const std::string& name) -> std::string {
        const size_t colon = name.find(':');
        if (colon != std::string::npos) {
            const auto it = tour.regions.find(name.substr(colon + 1));
            if (it == tour.regions.end()) return kNone;
            const auto& patches = it->second;
            if (name.compare(0, colon, "area") == 0) return percent(double(patches.size()) / (t->grid * t->grid));
            if (!row) return kNone;
            double on_region = 0, on_patches = 0;
            for (int k = t->prefix; k < t->tokens; ++k) on_patches += (*row)[k];
            for (const auto& [r, c] : patches)
                if (r < t->grid && c < t->grid) on_region += (*row)[t->token_of(r, c)];
            return on_patches > 0 ? percent(on_region / on_patches) : kNone;
        }
        if (name == "grid") return std::to_string(t->grid);
        if (name == "patch") return std::to_string(m.patch);
        if (name == "input") return std::to_string(t->grid * m.patch);
        if (name == "patches") return std::to_string(t->grid * t->grid);
        if (name == "tokens") return std::to_string(t->tokens);
        if (name == "layers") return std::to_string(t->layers.size());
        if (name == "heads") return std::to_string(s.heads());
        if (name == "d_k") return std::to_string(t->head_dim);
        if (name == "layer") return std::to_string(layer);
        if (name == "head") return std::to_string(head);
        if (name == "query") return vit::token_name(*t, query);
        if (name == "distance") return format("%.0f px", vit::mean_attention_distance(*t, layer, head, m.patch));
        if (name == "distance_note") return distance_note(*t, layer, head, m.patch);
        if (name.rfind("high_norm_", 0) == 0) return high_norm_value(name, *t, layer, head);
        if (name == "top1") return s.loaded.top5.empty() ? kNone : s.loaded.top5[0].label;
        if (name == "top1_probability")
            return s.loaded.top5.empty() ? kNone : format("%.1f%%", 100.0 * s.loaded.top5[0].probability);
        if (name == "classes") return m.num_classes() > 0 ? std::to_string(m.num_classes()) : kNone;
        if (name == "query_rank" || name == "relevant_quarter" || name == "reach_relevant")
            return relevance_value(name, s, layer, head, query);
        if (name == "claim_value" || name == "claim_baseline" || name == "neighbourhood" || name == "claim_ratio" ||
            name == "claim_even" || name == "claim_times") {
            const std::optional<TourClaimCheck> c = tour_claim(s);
            if (!c) return kNone;
            if (name == "claim_ratio") return format("%g", c->ratio);
            if (name == "claim_times")  // the value over its baseline, as "6.1×"
                return c->value.baseline > 0 ? format("%.1f×", c->value.value / c->value.baseline) : kNone;
            if (name == "claim_even") return c->kind == vit::ClaimKind::ContentReach ? percent(c->value.even) : kNone;
            if (c->kind == vit::ClaimKind::HighNormTokens)  // norms, not shares
                return name == "neighbourhood"
                           ? kNone
                           : format("%.1f", name == "claim_value" ? c->value.value : c->value.baseline);
            if (c->kind == vit::ClaimKind::UnscaledTopWeight &&
                name != "neighbourhood")  // weights, as the panel shows them
                return format("%.3f", name == "claim_value" ? c->value.value : c->value.baseline);
            return percent(name == "claim_value"      ? c->value.value
                           : name == "claim_baseline" ? c->value.baseline
                                                      : c->split.within);
        }
        if (name == "key" || name == "score" || name == "scaled" || name == "weight" || name == "unscaled_weight" ||
            name == "key_rank" || name == "key_match") {
            const vit::StepExplanation e = vit::explain_step(*t, layer, head, query, explained_key(s).token);
            if (name == "key") return vit::token_name(*t, e.key);
            if (name == "score") return format("%.2f", e.score);
            if (name == "scaled") return format("%.2f", e.scaled_score);
            if (name == "weight") return format("%.3f", e.model_weight);
            if (name == "unscaled_weight") return format("%.3f", unscaled_weight(e));
            return name == "key_rank" ? key_rank(e) : key_match(*t, e);
        }
        if (!row) return kNone;
        if (name == "top_key" || name == "top_weight") {
            vit::Vec::Index top = 0;
            row->maxCoeff(&top);
            return name == "top_key" ? vit::token_name(*t, static_cast<int>(top)) : format("%.3f", (*row)[top]);
        }
        if (name == "cls_weight") return percent((*row)[0]);
        if (!patch_query) return kNone;
        const vit::DistanceMass d = vit::distance_mass(*t, *row, query);
        if (name == "beyond_3x3") return percent(d.beyond_3x3);
        if (name == "far_quarter") return percent(d.far_quarter);
        return kNone;
    };

    std::string out;
    size_t from = 0;
    for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', from)) {
        const size_t close = text.find('}', open);
        if (close == std::string::npos) break;
        out += text.substr(from, open - from) + value(text.substr(open + 1, close - open - 1));
        from = close + 1;
    }
    return out + text.substr(from);
}

namespace {

// The step's paragraphs that show on what is open, unfilled.
std::vector<const TourParagraph*> shown_paragraphs(const AppState& s, bool* left_out) {
    std::vector<const TourParagraph*> out;
    if (left_out) *left_out = false;
    if (!s.tour.tour) return out;
    const Tour& tour = *s.tour.tour;
    const int photo = photo_index(s, tour);
    const std::optional<TourClaimCheck> claim = tour_claim(s);
    for (const TourParagraph& paragraph : tour.steps[s.tour.step].text) {
        if (!paragraph_shows(paragraph, photo, claim)) continue;
        const bool no_answer = (needs_answer(paragraph.text) && s.loaded.top5.empty()) ||
                               (needs_relevance(paragraph.text) && !relevant_choice(s));
        if ((names_region(paragraph.text) && !regions_apply(s, tour)) || no_answer) {
            if (left_out) *left_out = true;
            continue;
        }
        out.push_back(&paragraph);
    }
    return out;
}

// Where the next sentence starts: after ". " (or "! ", "? ") before a capital, a digit or a placeholder.
bool sentence_ends(const std::string& text, size_t i) {
    if (i + 2 >= text.size() || (text[i] != '.' && text[i] != '!' && text[i] != '?') || text[i + 1] != ' ')
        return false;
    const unsigned char next = static_cast<unsigned char>(text[i + 2]);
    return std::isupper(next) || std::isdigit(next) || next == '{';
}

}  // namespace

std::vector<std::string> tour_sentences(const std::string& text) {
    std::vector<std::string> out;
    size_t from = 0;
    for (size_t i = 0; i < text.size(); ++i)
        if (sentence_ends(text, i)) {
            out.push_back(text.substr(from, i + 1 - from));
            from = i + 2;
        }
    if (from < text.size()) out.push_back(text.substr(from));
    return out;
}

std::string unfilled_placeholder(const AppState& s) {
    if (!s.tour.tour || !s.trace()) return {};
    const Tour& tour = *s.tour.tour;
    const int photo = photo_index(s, tour);
    const std::optional<TourClaimCheck> claim = tour_claim(s);
    std::string unfilled;
    for (const TourParagraph& paragraph : tour.steps[s.tour.step].text) {
        if (!paragraph_shows(paragraph, photo, claim) || (names_region(paragraph.text) && !regions_apply(s, tour)))
            continue;
        each_placeholder(paragraph.text, [&](const std::string& name) {
            if (!unfilled.empty()) return;
            const std::string alone = "{" + name + "}";
            if ((needs_answer(alone) && s.loaded.top5.empty()) || (needs_relevance(alone) && !relevant_choice(s)) ||
                fill_tour_text(alone, s, tour) == kNone)
                unfilled = name;
        });
        if (!unfilled.empty()) break;
    }
    return unfilled;
}

std::vector<std::string> shown_tour_text(const AppState& s, bool* left_out) {
    std::vector<std::string> out;
    for (const TourParagraph* paragraph : shown_paragraphs(s, left_out))
        out.push_back(fill_tour_text(paragraph->text, s, *s.tour.tour));
    return out;
}

TourCardText tour_card_text(const AppState& s) {
    TourCardText card;
    if (s.tour.tour && s.tour.pending_step >= 0)
        card.status = std::string(s.trace() ? "Finding the patch the model uses for its answer (one backward pass)"
                                            : "Running the model on the photo") +
                      ": step " + std::to_string(s.tour.pending_step + 1) + " shows once its query is known.";
    else if (tour_query_fell_back(s))
        card.status =
            "This model gives no answer to choose a query by (it has no classifier, or the choice did not fit in "
            "memory), so the steps use the patches the tour file names for its own photo.";
    const std::vector<const TourParagraph*> shown = shown_paragraphs(s, &card.left_out);
    if (shown.empty()) return card;
    const Tour& tour = *s.tour.tour;
    // The sentence with the claim's number: in the paragraph that holds or fails first, then in any;
    // else the first sentence with a number from the trace; else the first sentence.
    std::optional<std::pair<size_t, std::string>> key;
    auto find = [&](auto wanted) {
        for (size_t i = 0; i < shown.size() && !key; ++i)
            for (const std::string& sentence : tour_sentences(shown[i]->text))
                if (wanted(*shown[i], sentence)) {
                    key = {i, sentence};
                    break;
                }
    };
    auto has_claim_value = [](const std::string& text) { return text.find("{claim_value}") != std::string::npos; };
    find([](const TourParagraph& p, const std::string&) { return p.key; });  // the tour says which
    find(
        [&](const TourParagraph& p, const std::string& t) { return p.when != TourWhen::Always && has_claim_value(t); });
    find([&](const TourParagraph&, const std::string& t) { return has_claim_value(t); });
    find([&](const TourParagraph&, const std::string& t) { return t.find('{') != std::string::npos; });
    find([&](const TourParagraph&, const std::string&) { return true; });
    if (key) card.key = fill_tour_text(key->second, s, tour);
    for (size_t i = 0; i < shown.size(); ++i) {
        std::string text = fill_tour_text(shown[i]->text, s, tour);
        if (key && i == key->first && !card.key.empty()) {
            // The key sentence leads the card; its paragraph goes on without it.
            const size_t at = text.find(card.key);
            if (at != std::string::npos) {
                size_t end = at + card.key.size();
                while (end < text.size() && text[end] == ' ') ++end;
                text.erase(at, end - at);
                while (!text.empty() && text.back() == ' ') text.pop_back();
            }
        }
        if (!text.empty()) card.rest.push_back(std::move(text));
    }
    return card;
}

}  // namespace session

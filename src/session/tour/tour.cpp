#include "session/tour/tour.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "session/files/lesson.h"
#include "session/base/selection.h"
#include "session/tour/tour_limits.h"
#include "session/tour/tour_query.h"
#include "session/tour/tour_text.h"
#include "vit/analysis/questions.h"
#include "vit/analysis/token_norms.h"
#include "vit/base/error.h"
#include "vit/base/read_file.h"

namespace session {
namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

struct Parser {
    std::string name;
    int line = 0;

    [[noreturn]] void fail(const std::string& what) const {
        throw vit::Error(name + ":" + std::to_string(line) + ": " + what);
    }
    int number(const std::string& text, const char* what, int lo, int hi) const {
        int v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
            fail(std::string(what) + " '" + text + "' is not a number from " + std::to_string(lo) + " to " +
                 std::to_string(hi));
        return v;
    }
    // "ROW,COL" (both 0..255).
    std::pair<int, int> patch(const std::string& text, const char* what) const {
        const size_t comma = text.find(',');
        if (comma == std::string::npos) fail(std::string(what) + " '" + text + "' is not ROW,COL");
        return {number(text.substr(0, comma), what, 0, 255), number(text.substr(comma + 1), what, 0, 255)};
    }
    // "ROW,COL" or "ROW,FIRST-LAST".
    void patches(const std::string& text, std::vector<std::pair<int, int>>& out) const {
        const size_t comma = text.find(','), dash = text.find('-');
        if (comma == std::string::npos) fail("region patch '" + text + "' is not ROW,COL or ROW,FIRST-LAST");
        const int row = number(text.substr(0, comma), "region row", 0, 255);
        if (dash == std::string::npos)
            return out.emplace_back(row, number(text.substr(comma + 1), "region column", 0, 255)), void();
        const int first = number(text.substr(comma + 1, dash - comma - 1), "region column", 0, 255);
        const int last = number(text.substr(dash + 1), "region column", 0, 255);
        if (last < first) fail("region columns " + text + " run backwards");
        for (int c = first; c <= last; ++c) out.emplace_back(row, c);
    }
    // A region is a set of patches: one listed twice would count twice in {share:} and {area:}.
    void refuse_repeats(const std::string& region, std::vector<std::pair<int, int>>& patches) const {
        std::sort(patches.begin(), patches.end());
        const auto twice = std::adjacent_find(patches.begin(), patches.end());
        if (twice != patches.end())
            fail("region " + region + " lists patch " + std::to_string(twice->first) + "," +
                 std::to_string(twice->second) + " more than once");
    }
    void state(const std::string& text, TourStep& step) const {
        static const std::vector<std::string> tabs = {"math", "whatifs", "questions"};
        for (const std::string& w : words(text)) {
            const size_t eq = w.find('=');
            if (eq == std::string::npos) fail("state '" + w + "' is not KEY=VALUE");
            const std::string key = w.substr(0, eq), value = w.substr(eq + 1);
            if (key == "tab") {
                if (std::find(tabs.begin(), tabs.end(), value) == tabs.end()) fail("tab is math, whatifs or questions");
                step.tab = value;
            } else if (key == "question") {
                if (!vit::find_question_page(value)) fail("no question page '" + value + "'");
                step.question = value;
            } else if (key == "layer") {
                step.layer = number(value, "layer", 0, 1000);
            } else if (key == "head") {
                step.head = number(value, "head", 0, 1000);
            } else if (key == "query") {
                if (value != "cls" && value != "relevant") patch(value, "query");
                step.query = value;
            } else if (key == "pin") {
                if (value != "none" && value != "top" && value != "argmax" && value != "cls") patch(value, "pin");
                step.pin = value;
            } else if (key == "map") {
                if (value != "head" && value != "mean") fail("map is head or mean");
                step.map = value;
            } else if (key == "scale") {
                if (value != "rowmax" && value != "absolute" && value != "log")
                    fail("scale is rowmax, absolute or log");
                step.scale = value;
            } else if (key == "math") {
                const int n = math_step_number(value);
                if (n == 0) fail("math is query, key, score, scale, softmax, value or output");
                step.math_step = n;
            } else {
                fail("unknown state key '" + key + "' (tab, question, layer, head, query, pin, map, scale, math)");
            }
        }
    }
    // "KIND [REGION] [layer=L | ratio=R]" of a choose: or claim: line.
    TourCriterion criterion(const std::string& text, bool choosing, const Tour& tour) const {
        const std::vector<std::string> w = words(text);
        TourCriterion c;
        if (w.empty() || !vit::claim_from_name(w[0], &c.kind))
            fail("'" + text +
                 "' does not start with region_beyond_neighbourhood, beyond_neighbourhood, selective_reach, "
                 "content_reach, unscaled_top_weight or high_norm_tokens");
        const bool high_norm = c.kind == vit::ClaimKind::HighNormTokens;
        const bool saturation = c.kind == vit::ClaimKind::UnscaledTopWeight;
        if (high_norm && choosing) fail("high_norm_tokens is a claim about a layer: there is no head to choose by it");
        if (high_norm) c.ratio = vit::kHighNormRatio;
        if (saturation) c.ratio = vit::kSaturatedWeight;
        for (size_t i = 1; i < w.size(); ++i) {
            const size_t eq = w[i].find('=');
            const std::string key = w[i].substr(0, eq == std::string::npos ? 0 : eq), value = w[i].substr(eq + 1);
            if (eq == std::string::npos) {
                // `relevant`: the region the model's evidence outlines on another photo (tour_query.h).
                if (!c.region.empty() || (!tour.regions.count(w[i]) && w[i] != kAutomaticRegion))
                    fail("'" + w[i] + "' is not a region of this tour (nor relevant, the automatic one)");
                c.region = w[i];
            } else if (choosing && key == "layer") {
                const size_t dash = value.find('-');
                c.first_layer = number(value.substr(0, dash), "layer", 0, 1000);
                c.last_layer =
                    dash == std::string::npos ? c.first_layer : number(value.substr(dash + 1), "layer", 0, 1000);
                if (c.last_layer < c.first_layer) fail("layers " + value + " run backwards");
            } else if (!choosing && key == "ratio") {
                char* end = nullptr;
                c.ratio = std::strtod(value.c_str(), &end);
                if (value.empty() || *end || !(c.ratio > 0 && c.ratio <= 100))
                    fail("ratio '" + value + "' is not a number above 0");
            } else {
                fail(std::string("unknown ") + (choosing ? "choice" : "claim") + " setting '" + w[i] + "' (" +
                     (choosing ? "layer=L or layer=A-B" : "ratio=R") + ")");
            }
        }
        // The threshold that makes a token high-norm is one number, so the tokens the text lists are the claim's.
        if (high_norm && c.ratio != vit::kHighNormRatio)
            fail("high_norm_tokens's ratio is the high-norm threshold, " + std::to_string(int(vit::kHighNormRatio)) +
                 " x the median patch norm (vit::kHighNormRatio)");
        // One key "taking nearly all the weight" is one threshold, not a ratio to the scaled row's.
        if (saturation && c.ratio != vit::kSaturatedWeight)
            fail("unscaled_top_weight holds from a largest weight of 0.9 (vit::kSaturatedWeight): it takes no ratio");
        if ((high_norm || saturation) && !c.region.empty())
            fail(std::string(vit::claim_name(c.kind)) + " takes no region");
        if ((c.kind == vit::ClaimKind::RegionBeyondNeighbourhood) != !c.region.empty())
            fail(c.region.empty() ? "region_beyond_neighbourhood needs a region"
                                  : std::string(vit::claim_name(c.kind)) + " takes no region");
        return c;
    }
    // Lines every photo sees must not name what the tour's photo shows.
    void check_neutral(const std::string& text, const Tour& tour) const {
        std::string plain, word;  // the text without its placeholders, lower case
        int depth = 0;
        for (char c : text) {
            if (c == '{') ++depth;
            else if (c == '}') depth = std::max(0, depth - 1);
            else if (!depth) plain += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        plain += ' ';
        for (char c : plain) {
            if (std::isalpha(static_cast<unsigned char>(c))) {
                word += c;
                continue;
            }
            const bool named =
                tour.regions.count(word) || std::find(tour.words.begin(), tour.words.end(), word) != tour.words.end();
            if (named) fail("'" + word + "' names what the tour's photo shows, in a line other photos see (use own-)");
            word.clear();
        }
    }
};

// "own-text" -> (Own, "text"); "other-text" -> (Other, "text"); else (Any, key).
std::pair<TourPhoto, std::string> photo_of(const std::string& key) {
    if (key.rfind("own-", 0) == 0) return {TourPhoto::Own, key.substr(4)};
    if (key.rfind("other-", 0) == 0) return {TourPhoto::Other, key.substr(6)};
    return {TourPhoto::Any, key};
}

}  // namespace

const std::vector<std::string>& tour_panels() {
    static const std::vector<std::string> panels = {"photo", "heads", "inside"};
    return panels;
}

const std::vector<std::string>& tour_frames() {
    static const std::vector<std::string> frames = {"contributions"};
    return frames;
}

Tour parse_tour(const std::string& text, const std::string& name) {
    Parser p{name};
    Tour tour;
    tour.path = name;
    namespace limits = tour_limits;
    std::istringstream in(limits::without_bom(text));
    for (std::string raw; std::getline(in, raw);) {
        ++p.line;
        if (raw.size() > limits::kLineBytes)
            p.fail("the line is " + std::to_string(raw.size()) + " bytes, over the " +
                   std::to_string(limits::kLineBytes) + "-byte limit");
        const std::string line = trim(raw);
        if (line.empty() || line[0] == '#') continue;
        const size_t colon = line.find(':');
        if (colon == std::string::npos) p.fail("expected KEY: VALUE, got '" + line + "'");
        const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
        TourStep* step = tour.steps.empty() ? nullptr : &tour.steps.back();
        const auto in_step = [&](const char* what) -> TourStep& {
            if (!step) p.fail(std::string(what) + " before the first step:");
            return *step;
        };
        const auto [photo, what] = photo_of(key);
        if (key == "step") {
            if (value.empty()) p.fail("a step needs a title: step: TITLE");
            if (value.size() > limits::kTitleBytes)
                p.fail("the step's title is " + std::to_string(value.size()) + " bytes, over the " +
                       std::to_string(limits::kTitleBytes) + "-byte limit");
            if (static_cast<int>(tour.steps.size()) >= limits::kSteps)
                p.fail("more than " + std::to_string(limits::kSteps) + " steps");
            p.check_neutral(value, tour);
            tour.steps.push_back({});
            tour.steps.back().line = p.line;
            tour.steps.back().title = value;
        } else if (key == "title" && !step) {
            if (value.size() > limits::kTitleBytes)
                p.fail("the title is " + std::to_string(value.size()) + " bytes, over the " +
                       std::to_string(limits::kTitleBytes) + "-byte limit");
            p.check_neutral(value, tour);
            tour.title = value;
        } else if (key == "photo" && !step) {
            tour.photo = value;
        } else if (key == "other-query" && !step) {
            if (value != "relevant") p.fail("other-query is relevant (the patch the model uses for its answer)");
            tour.other_query_relevant = true;
        } else if (key == "other-pin" && !step) {
            if (value != "top") p.fail("other-pin is top (the patch key the query weighs most)");
            tour.other_pin_top = true;
        } else if (key == "words" && !step) {
            for (std::string w : words(value)) {
                for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                tour.words.push_back(w);
            }
        } else if (key.rfind("region ", 0) == 0 && !step) {
            const std::string region = trim(key.substr(7));
            if (region.empty() || region.find_first_of(" {}") != std::string::npos) p.fail("region names are one word");
            if (!tour.regions.count(region) && static_cast<int>(tour.regions.size()) >= limits::kRegions)
                p.fail("more than " + std::to_string(limits::kRegions) + " regions");
            std::vector<std::pair<int, int>>& patches = tour.regions[region];
            for (const std::string& w : words(value)) p.patches(w, patches);
            if (patches.empty()) p.fail("region " + region + " has no patches");
            p.refuse_repeats(region, patches);
        } else if (key == "state") {
            p.state(value, in_step("state:"));
        } else if (key == "panel") {
            const auto& panels = tour_panels();
            if (std::find(panels.begin(), panels.end(), value) == panels.end())
                p.fail("panel '" + value + "' is not one of photo, heads, inside");
            in_step("panel:").panel = value;
        } else if (key == "lesson") {
            if (value.empty()) p.fail("lesson: needs a file");
            const std::filesystem::path file(value);
            in_step("lesson:").lesson =
                file.is_absolute() ? value : (std::filesystem::path(name).parent_path() / file).string();
        } else if (key == "frame") {
            const auto& frames = tour_frames();
            if (std::find(frames.begin(), frames.end(), value) == frames.end())
                p.fail("frame '" + value + "' is not one of: contributions");
            in_step("frame:").frame = value;
        } else if (what == "choose" || what == "claim") {
            TourStep& s = in_step((key + ":").c_str());
            const TourCriterion c = p.criterion(value, what == "choose", tour);
            const bool automatic = c.region == kAutomaticRegion && !tour.regions.count(c.region);
            if (!c.region.empty() && !automatic && photo != TourPhoto::Own)
                p.fail("a region is the tour's photo's: " + what + " with a region is own-" + what + ":");
            if (automatic && photo != TourPhoto::Other)
                p.fail("the automatic region is for other photos: " + what + " with it is other-" + what + ":");
            for (int i : {0, 1})
                if (photo == TourPhoto::Any || (photo == TourPhoto::Own) == (i == 0))
                    (what == "choose" ? s.choose : s.claim)[i] = c;
        } else if (what == "text" || what == "holds" || what == "fails" || what == "key" || what == "key-holds" ||
                   what == "key-fails") {
            TourStep& s = in_step((key + ":").c_str());
            const bool key_line = what.rfind("key", 0) == 0;
            if (key_line && tour_sentences(value).size() != 1)
                p.fail("a key sentence is one sentence: it is what a projector shows alone");
            if (const size_t open = limits::unclosed_brace(value); open != std::string::npos)
                p.fail("the '{' at '" + value.substr(open, 20) + "' has no closing '}'");
            size_t bytes = value.size();
            for (const TourParagraph& t : s.text) bytes += t.text.size();
            if (static_cast<int>(s.text.size()) >= limits::kParagraphs || bytes > limits::kStepTextBytes)
                p.fail("step '" + s.title + "' has more text than a card shows (at most " +
                       std::to_string(limits::kParagraphs) + " text lines, " + std::to_string(limits::kStepTextBytes) +
                       " bytes)");
            if (const std::string bad = unknown_placeholder(value, tour); !bad.empty())
                p.fail("unknown placeholder {" + bad + "}");
            if (photo != TourPhoto::Own) p.check_neutral(value, tour);
            if (photo == TourPhoto::Other && names_region(value)) p.fail("a line for other photos cannot use a region");
            const TourWhen when = what == "text" || what == "key"          ? TourWhen::Always
                                  : what == "holds" || what == "key-holds" ? TourWhen::Holds
                                                                           : TourWhen::Fails;
            s.text.push_back({value, photo, when, key_line});
        } else {
            p.fail("unknown key '" + key + "'" +
                   (step ? " in a step (state, panel, frame, lesson, key, key-holds, key-fails, text, holds, fails, "
                           "choose, claim)"
                         : " (title, photo, words, other-query, other-pin, region NAME, step)"));
        }
    }
    if (tour.steps.empty()) {
        p.line = std::max(p.line, 1);
        p.fail("no steps (a step starts with step: TITLE)");
    }
    for (const TourStep& s : tour.steps) {
        p.line = s.line;
        if (s.text.empty()) p.fail("step '" + s.title + "' has no text:");
        for (const TourParagraph& t : s.text)
            for (int i : {0, 1})
                if (t.when != TourWhen::Always && !s.claim[i] &&
                    (t.photo == TourPhoto::Any || (t.photo == TourPhoto::Own) == (i == 0)))
                    p.fail("step '" + s.title + "' says holds: or fails: with no claim: for " +
                           (i == 0 ? "its own photo" : "other photos"));
    }
    return tour;
}

Tour read_tour(const std::string& path) {
    Tour tour = parse_tour(vit::read_whole_file(path, tour_limits::kFileBytes, "a tour"), path);
    // A step's lesson is read now, so a tour that opens has lessons that open.
    for (const TourStep& s : tour.steps) {
        if (s.lesson.empty()) continue;
        try {
            read_lesson(s.lesson);
        } catch (const std::exception& e) {
            throw vit::Error(path + ":" + std::to_string(s.line) + ": step '" + s.title + "': " + e.what());
        }
    }
    return tour;
}

}  // namespace session

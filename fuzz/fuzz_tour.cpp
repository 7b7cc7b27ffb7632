// libFuzzer target: a guided tour file through session::parse_tour, as
// read_tour gives it (the file's bytes). Anything but a vit::Error escaping, a
// sanitizer report, or a parsed tour outside the bounds of
// session/tour/tour_limits.h (too many steps, a title or text too long to draw, a
// region listing a patch twice, an unclosed '{') is a crash.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "session/tour/tour.h"
#include "session/tour/tour_limits.h"
#include "vit/base/error.h"

namespace {

void require(bool holds) {
    if (!holds) std::abort();
}

void check_bounds(const session::Tour& tour) {
    namespace limits = session::tour_limits;
    require(!tour.steps.empty() && static_cast<int>(tour.steps.size()) <= limits::kSteps);
    require(tour.title.size() <= limits::kTitleBytes);
    require(static_cast<int>(tour.regions.size()) <= limits::kRegions);
    for (const auto& [name, patches] : tour.regions) {
        auto sorted = patches;
        std::sort(sorted.begin(), sorted.end());
        require(!sorted.empty() && std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    }
    for (const session::TourStep& step : tour.steps) {
        require(!step.title.empty() && step.title.size() <= limits::kTitleBytes);
        require(!step.text.empty() && static_cast<int>(step.text.size()) <= limits::kParagraphs);
        size_t bytes = 0;
        for (const session::TourParagraph& t : step.text) {
            bytes += t.text.size();
            require(limits::unclosed_brace(t.text) == std::string::npos);
        }
        require(bytes <= limits::kStepTextBytes);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > session::tour_limits::kFileBytes) return 0;  // read_tour refuses these before parsing
    try {
        check_bounds(session::parse_tour(std::string(reinterpret_cast<const char*>(data), size), "fuzz.tour"));
    } catch (const vit::Error&) {
    }
    return 0;
}

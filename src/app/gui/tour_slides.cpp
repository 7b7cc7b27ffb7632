#include "app/gui/tour_slides.h"

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "app/gui/slide_deck.h"
#include "gfx/png_writer.h"
#include "session/dispatch/requests.h"
#include "session/tour/tour_claims.h"
#include "session/tour/tour_query.h"
#include "session/tour/tour_text.h"
#include "ui/figures/window_snapshot.h"
#include "vit/base/error.h"

namespace app {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxRounds = 8;  // a step asks for its numbers, then may ask for more

// The window at the state's tour step, once everything its panels asked
// for (a page's numbers, an experiment that starts by itself) is computed.
ui::WindowSnapshot snapshot_of(session::AppState& s, SlideSize size) {
    std::set<std::string> ran;
    for (int round = 0; round < kMaxRounds; ++round) {
        ui::WindowSnapshot shot =
            ui::render_window(s, size.width, size.height, s.classroom ? kClassroomSlideScale : 1.f);
        if (shot.asked.empty()) return shot;
        for (const session::Command& a : shot.asked) {
            const auto* experiment = std::get_if<session::cmd::RunExperiment>(&a);
            const auto* analysis = std::get_if<session::cmd::RunAnalysis>(&a);
            const std::string& key = experiment ? experiment->key : analysis->key;
            session::ExperimentsView& into = experiment ? s.experiments : s.analyses;
            if (into.results.count(key)) continue;
            if (!ran.insert(key).second) throw vit::Error("the tour step's computation " + key + " gave no result");
            into.results[key] = (experiment ? experiment->job : analysis->job)(vit::TaskControl{});
        }
    }
    throw vit::Error("a tour step kept asking for more numbers");
}

std::string joined(const std::vector<std::string>& paragraphs) {
    std::string out;
    for (const std::string& p : paragraphs) out += (out.empty() ? "" : "\n\n") + p;
    return out;
}

}  // namespace

SlideSize slide_size(bool classroom) { return classroom ? SlideSize{1280, 720} : SlideSize{}; }

void write_tour_slides(session::AppState s, const fs::path& dir, const vit::OutputRules& rules, SlideSize size) {
    if (!s.tour.tour) throw vit::Error("no tour to make slides of");
    vit::OutputFolder folder(dir.string(), rules);
    const session::Tour& tour = *s.tour.tour;
    session::make_relevant_choice_now(s, tour);  // the slides wait for no frame
    const int steps = static_cast<int>(tour.steps.size());
    std::vector<DeckSlide> deck;
    for (int i = 0; i < steps; ++i) {
        session::apply(s, session::act::TourGo{i});
        const ui::WindowSnapshot shot = snapshot_of(s, size);
        const session::TourStep& step = tour.steps[i];
        const std::vector<std::string> text = session::shown_tour_text(s);
        char name[32];
        std::snprintf(name, sizeof name, "step_%02d.png", i + 1);
        const std::vector<gfx::PngText> metadata = {{"Title", step.title},
                                                    {"Description", joined(text)},
                                                    {"Software", "vitscope"}};
        folder.write(name, gfx::encode_png(shot.image.pixels.data(), shot.image.width, shot.image.height, metadata));
        const session::TourCardText card = session::tour_card_text(s);
        deck.push_back({name, step.title, card.key, card.rest, shot.image.width, shot.image.height});
    }
    folder.write("claims.csv", session::tour_claims_csv(s));
    folder.write("index.html", slide_deck_html(tour.title, deck));
    folder.commit();
}

}  // namespace app

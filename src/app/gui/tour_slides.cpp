#include "tour_slides.h"

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "gfx/png_writer.h"
#include "session/tour_claims.h"
#include "session/tour_query.h"
#include "session/tour_text.h"
#include "ui/figures/window_snapshot.h"
#include "vit/base/error.h"

namespace app {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxRounds = 8;  // a step asks for its numbers, then may ask for more

std::string html_escaped(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}

// The window at the state's tour step, once everything its panels asked
// for (a page's numbers, an experiment that starts by itself) is computed.
ui::WindowSnapshot snapshot_of(session::AppState& s) {
    std::set<std::string> ran;
    for (int round = 0; round < kMaxRounds; ++round) {
        ui::WindowSnapshot shot = ui::render_window(s, kSlideWidth, kSlideHeight);
        if (shot.asked.empty()) return shot;
        for (const session::Action& a : shot.asked) {
            const auto* experiment = std::get_if<session::act::RunExperiment>(&a);
            const auto* analysis = std::get_if<session::act::RunAnalysis>(&a);
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

void write_tour_slides(session::AppState s, const fs::path& dir, const vit::OutputRules& rules) {
    if (!s.tour.tour) throw vit::Error("no tour to make slides of");
    vit::OutputFolder folder(dir.string(), rules);
    const session::Tour& tour = *s.tour.tour;
    session::make_relevant_choice_now(s, tour);  // the slides wait for no frame
    const int steps = static_cast<int>(tour.steps.size());
    {
        std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                           html_escaped(tour.title) +
                           "</title>\n<style>body{background:#111;color:#ddd;font-family:sans-serif;margin:2em auto;"
                           "max-width:1920px}img{width:100%;height:auto}section{margin-bottom:3em}</style>\n</head>\n"
                           "<body>\n<h1>" + html_escaped(tour.title) + "</h1>\n";
        for (int i = 0; i < steps; ++i) {
            session::apply(s, session::act::TourGo{i});
            const ui::WindowSnapshot shot = snapshot_of(s);
            const session::TourStep& step = tour.steps[i];
            const std::vector<std::string> text = session::shown_tour_text(s);
            char name[32];
            std::snprintf(name, sizeof name, "step_%02d.png", i + 1);
            const std::vector<gfx::PngText> metadata = {
                {"Title", step.title}, {"Description", joined(text)}, {"Software", "vitscope"}};
            folder.write(name, gfx::encode_png(shot.image.pixels.data(), shot.image.width, shot.image.height, metadata));
            html += "<section>\n<h2>" + std::to_string(i + 1) + ". " + html_escaped(step.title) + "</h2>\n<img src=\"" +
                    name + "\" alt=\"" + html_escaped(joined(text)) + "\">\n";
            for (const std::string& p : text) html += "<p>" + html_escaped(p) + "</p>\n";  // the caption, as text
            html += "</section>\n";
        }
        folder.write("claims.csv", session::tour_claims_csv(s));
        html += "</body>\n</html>\n";
        folder.write("index.html", html);
        folder.commit();
    }
}

}  // namespace app

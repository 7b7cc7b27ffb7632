#include "app/gui/lab_slides.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>

#include "app/gui/slide_deck.h"
#include "gfx/animation_writer.h"
#include "gfx/png_writer.h"
#include "session/lab/lab_controller.h"
#include "session/lab/lab_view.h"
#include "ui/figures/window_snapshot.h"
#include "vit/base/error.h"

namespace app {
namespace {

namespace fs = std::filesystem;

constexpr int kTimelineDelayMs = 600;  // a checkpoint a little over half a second: 40 of them in about 25 s

std::string joined(const std::vector<session::LabSentence>& sentences) {
    std::string out;
    for (const session::LabSentence& s : sentences) out += (out.empty() ? "" : "\n\n") + s.text;
    return out;
}

// The checkpoints worth a slide: the first, the learned moment's two, the last.
std::set<int> chosen_indices(const session::LabState& lab, const std::vector<int>& steps) {
    std::set<int> out;
    const session::LabRun& run = *lab.run;
    if (!steps.empty()) {
        for (int step : steps) out.insert(static_cast<int>(run.checkpoint_at(step)));
        return out;
    }
    out.insert(0);
    if (lab.moment && lab.moment->learned_index >= 0) out.insert(lab.moment->learned_index);
    if (lab.moment && lab.moment->accurate_index >= 0) out.insert(lab.moment->accurate_index);
    out.insert(static_cast<int>(run.log.size()) - 1);
    return out;
}

}  // namespace

void write_lab_slides(session::AppState s, const std::string& run_dir, const LabSlideChoice& choice,
                      const fs::path& dir, const vit::OutputRules& rules, SlideSize size) {
    vit::OutputFolder folder(dir.string(), rules);
    session::LabController lab;
    lab.handle(s, session::lab::OpenRun{run_dir});
    session::apply_lab(s.lab, session::lab::SetSample{choice.sample});
    session::apply_lab(s.lab, session::lab::SetQuerySquare{choice.query});
    lab.sync(s);
    if (!s.lab.error.empty()) throw vit::Error(s.lab.error);
    const session::LabRun& run = *s.lab.run;
    // The lab's choice of slides is made on the last checkpoint (where the learned moment is known).
    session::apply_lab(s.lab, session::lab::SetCheckpoint{static_cast<int>(run.log.size()) - 1});
    lab.sync(s);
    const std::set<int> chosen = chosen_indices(s.lab, choice.steps);

    auto animation = gfx::open_animation(folder.temp_path() + "/timeline.gif", size.width, size.height,
                                         gfx::AnimationOptions{vit::OutputRules{}, false, {}});
    std::vector<DeckSlide> deck;
    for (int i = 0; i < static_cast<int>(run.log.size()); ++i) {
        session::apply_lab(s.lab, session::lab::SetCheckpoint{i});
        lab.sync(s);
        const ui::WindowSnapshot shot = ui::render_window(s, size.width, size.height);
        animation->add(shot.image, i + 1 == static_cast<int>(run.log.size()) ? 4 * kTimelineDelayMs : kTimelineDelayMs);
        if (!chosen.count(i)) continue;
        char name[32];
        std::snprintf(name, sizeof name, "step_%06d.png", run.log[i].step);
        const std::string title = "Step " + session::with_thousands(run.log[i].step);
        folder.write(name, gfx::encode_png(
                               shot.image.pixels.data(), shot.image.width, shot.image.height,
                               {{"Title", title}, {"Description", joined(s.lab.sentences)}, {"Software", "vitscope"}}));
        DeckSlide slide{name, title, "", {}, shot.image.width, shot.image.height};
        // The head's claim leads the caption; the other sentences follow.
        for (const session::LabSentence& sentence : s.lab.sentences) {
            if (slide.key.empty() && (sentence.kind == "class_token" || sentence.kind == "other_square"))
                slide.key = sentence.text;
            else slide.rest.push_back(sentence.text);
        }
        deck.push_back(slide);
    }
    animation->finish();
    folder.write("index.html", slide_deck_html(fs::path(run.dir).filename().string() + ": the Learning lab", deck));
    folder.commit();
}

}  // namespace app

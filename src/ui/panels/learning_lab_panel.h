// File > Learning lab…: a tiny ViT trained from scratch, in place of the
// panels. Left: train one (task, position embeddings, steps; progress, Cancel,
// live curves) or open a finished run, and the run's held-out curves (with
// the run beside it without / with position embeddings on the same plot).
// Right: the timeline over the run's checkpoints, the held-out sample with its
// query square, every head's map of that query at the checkpoint (the real
// model's weights, one 0..1 scale), and the sentences session/lab/lab_view.h
// computes. The panel lays out what session::LabController computed.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "gfx/textures.h"
#include "ui/widgets/frame.h"
#include "ui/widgets/layout.h"
#include "ui/widgets/map_view.h"

namespace ui {

class LearningLabPanel {
public:
    void draw(const Frame& f, const PanelRect& area);

private:
    void train_section(const Frame& f);
    void runs_section(const Frame& f);
    void timeline(const Frame& f);
    void maps(const Frame& f, float height);
    void sentences(const Frame& f, float width);
    float sentences_height(const Frame& f, float width) const;

    gfx::PhotoTexture sample_;
    int sample_generation_ = -1;
    std::vector<std::unique_ptr<MapView>> views_;   // the run's heads, then the pair's
    std::vector<std::array<float, 4>> rects_;       // this frame's maps, reported
    std::string open_path_;                         // the path field under the runs
    std::string train_dir_text_, train_dir_shown_;  // the Train folder's field, and the folder it last showed
    bool train_dir_editing_ = false;
    std::vector<std::string> runs_;  // runs found in the folder listed
    std::string listed_, listed_finished_;
    double listed_at_ = -1;
};

}  // namespace ui

#include "session/lab/lab_report.h"

namespace session {

namespace {

nlohmann::json log_json(const std::vector<vit::train::LogRow>& log) {
    auto rows = nlohmann::json::array();
    for (const auto& r : log) rows.push_back({r.step, r.loss, r.accuracy});
    return rows;
}

}  // namespace

nlohmann::json lab_json(const LabState& lab) {
    using nlohmann::json;
    json j;
    j["open"] = lab.open;
    j["run"] = lab.run ? lab.run->dir : "";
    j["pair_run"] = lab.pair ? lab.pair->dir : "";
    j["task"] = lab.run ? lab.run->task : "";
    j["position"] = lab.run ? lab.run->position : true;
    j["checkpoint"] = lab.checkpoint;
    j["checkpoints"] = lab.run ? lab.run->log.size() : 0;
    j["steps"] = json::array();
    if (lab.run)
        for (const auto& r : lab.run->log) j["steps"].push_back(r.step);
    j["step"] = lab.run ? lab.now.step : -1;
    j["checkpoint_dir"] = lab.run ? lab.run->checkpoint_dir(lab.checkpoint) : "";
    j["accuracy"] = lab.now.accuracy;
    j["layer"] = lab.shown_layer;
    j["layer_chosen"] = lab.layer < 0;
    j["sample"] = lab.sample;
    j["sample_path"] = lab.run ? lab.run->sample_path(lab.sample) : "";
    j["squares"] = json::array();
    for (const LabSquare& s : lab.squares) j["squares"].push_back(s.patch);
    j["query"] = lab_query_name(lab.query_square);
    j["query_token"] = lab.query;
    j["other_token"] = lab.other;
    j["square_tokens"] = {lab.square1, lab.square2};
    j["head"] = lab.shown_head;
    // Each head of the layer shown: the weight on the task's squares, and where the query's weight goes.
    j["on_task"] = json::array();
    j["shares"] = json::array();
    for (const LabHeadRow& h : lab.now.heads) {
        j["on_task"].push_back(h.on_task);
        j["shares"].push_back({{"square1", h.shares.square1},
                               {"square2", h.shares.square2},
                               {"background", h.shares.background},
                               {"cls", h.shares.cls}});
    }
    j["on_other"] = json::array();  // a square's query: the weight on the other square
    if (lab.query_square != kQueryCls)
        for (const LabHeadRow& h : lab.now.heads) j["on_other"].push_back(h.on_task);
    j["sample_label"] = lab.sample_label;
    j["predicted"] = lab.now.predicted;
    j["sample_right"] = !lab.now.predicted.empty() && lab.now.predicted == lab.sample_label;
    j["notice"] = lab.notice;
    j["moment"] = nullptr;
    if (lab.moment)
        j["moment"] = {{"layer", lab.moment->layer},
                       {"head", lab.moment->head},
                       {"threshold", lab.moment->threshold},
                       {"learned_step", lab.moment->learned_step},
                       {"learned_weight", lab.moment->learned_weight},
                       {"accurate_step", lab.moment->accurate_step}};
    j["positions"] = nullptr;
    // Of the checkpoint `now` is of: `checkpoint` runs ahead of it from an action until the next sync.
    if (const size_t shown = lab.run ? lab.run->checkpoint_at(lab.now.step) : 0; shown < lab.series.size())
        if (const auto& p = lab.series[shown].positions)
            j["positions"] = {{"near", p->near}, {"far", p->far}, {"holds", p->holds()}, {"grid", p->grid}};
    j["swap"] = lab.swap;
    j["swapped"] = nullptr;
    if (lab.swapped)
        j["swapped"] = {{"answer", lab.swapped->answer},
                        {"swapped_answer", lab.swapped->swapped_answer},
                        {"cls_difference", lab.swapped->cls_difference}};
    j["pair_step"] = lab.pair_now ? lab.pair_now->step : -1;
    j["sentences"] = json::array();
    for (const LabSentence& s : lab.sentences)
        j["sentences"].push_back({{"kind", s.kind},
                                  {"text", s.text},
                                  {"holds", s.holds},
                                  {"step", s.step},
                                  {"head", s.head},
                                  {"layer", s.layer},
                                  {"value", s.value},
                                  {"baseline", s.baseline}});
    j["map_style"] = {
        {"colormap", "viridis"}, {"value_min", 0}, {"value_max", 1}, {"opacity", kLabMapOpacity}, {"fade", false}};
    j["error"] = lab.error;
    const LabTraining& t = lab.training;
    j["training"] = {{"running", t.running},   {"run", t.run},
                     {"task", t.task},         {"position", t.position},
                     {"step", t.step},         {"steps", t.steps},
                     {"log", log_json(t.log)}, {"batch_losses", t.batch_loss.size()},
                     {"finished", t.finished}, {"stopped", t.stopped}};
    j["train_settings"] = {{"task", lab.train_task},
                           {"position", lab.train_position},
                           {"steps", lab.train_steps},
                           {"dir", lab.train_dir},
                           {"warning", short_run_warning(lab.train_task, lab.train_position, lab.train_steps)}};
    return j;
}

}  // namespace session

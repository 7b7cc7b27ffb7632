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
    j["query_token"] = lab.query;
    j["other_token"] = lab.other;
    j["on_other"] = json::array();
    for (const LabHeadRow& h : lab.now.heads) j["on_other"].push_back(h.on_other);
    j["pair_step"] = lab.pair_now ? lab.pair_now->step : -1;
    j["sentences"] = json::array();
    for (const LabSentence& s : lab.sentences)
        j["sentences"].push_back({{"kind", s.kind},
                                  {"text", s.text},
                                  {"holds", s.holds},
                                  {"step", s.step},
                                  {"head", s.head},
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
                           {"dir", lab.train_dir}};
    return j;
}

}  // namespace session

#include "session/lab/lab_trainer.h"

#include <filesystem>

#include "vit/base/error.h"
#include "vit/train/checkpoint_io.h"
#include "vit/train/run_folder.h"

namespace fs = std::filesystem;

namespace session {

LabTrainer::LabTrainer(std::function<void()> on_change)
    : on_change_(std::move(on_change)), jobs_([this] { run_waiting(); }) {}

LabTrainer::~LabTrainer() { cancel_ = true; }

void LabTrainer::start(const vit::train::TrainSettings& settings, const std::string& run,
                       const vit::OutputRules& rules) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (view_.running) throw vit::Error("a training run is going on; cancel it first");
    }
    // In turns between frames a run of minutes would hold the page still for all of them.
    if (!JobThread::has_threads())
        throw vit::Error("training needs threads, and this page has one (served without COOP/COEP headers): "
                         "serve it as docs/browser.md says, or train with `vitscope train`");
    jobs_.finish_waiting();                                      // the previous run, already over
    auto out = std::make_shared<vit::OutputFolder>(run, rules);  // refuses an existing RUN before any work
    cancel_ = false;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        view_ = {};
        view_.running = true;
        view_.run = run;
        view_.task = vit::train::task_name(settings.task);
        view_.position = settings.model.position;
        view_.steps = settings.steps;
        pending_ = settings;
        pending_out_ = std::move(out);
    }
    jobs_.wake();
}

void LabTrainer::run_waiting() {
    std::optional<vit::train::TrainSettings> settings;
    std::shared_ptr<vit::OutputFolder> out;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        settings = std::move(pending_);
        out = std::move(pending_out_);
        pending_.reset();
    }
    if (settings) work(*settings, std::move(out));
}

void LabTrainer::cancel() { cancel_ = true; }

LabTraining LabTrainer::view() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return view_;
}

void LabTrainer::work(vit::train::TrainSettings s, std::shared_ptr<vit::OutputFolder> out) {
    using namespace vit::train;
    std::string finished, stopped;
    try {
        vit::OutputRules inside;  // files inside the temporary folder, which only this run writes
        inside.force = true;
        const std::string dir = out->temp_path();
        const std::vector<std::string> labels = task_labels(s.task);
        out->write("config", describe(s));
        write_samples(make_held_out(s), labels, s.held_out, s.model.image, dir);
        std::vector<LogRow> log;
        TrainCallbacks cb;
        cb.checkpoint = [&](const TinyVit& model, const LogRow& row) {
            const std::string step_dir = dir + "/" + step_folder_name(row.step);
            fs::create_directory(step_dir);
            write_model_folder(model, labels, step_dir);
            log.push_back(row);
            vit::write_output(dir + "/log.csv", log_csv(log), inside);
            std::lock_guard<std::mutex> lock(mutex_);
            view_.log = log;
        };
        cb.step_done = [&](int step, double loss) {
            {
                std::lock_guard<std::mutex> lock(mutex_);
                view_.step = step;
                view_.batch_loss.push_back(static_cast<float>(loss));
            }
            if (on_change_) on_change_();
        };
        vit::TaskControl control;
        control.cancel = &cancel_;
        const TrainResult result = train(s, cb, control);
        if (result.cancelled) {
            stopped = "Training cancelled at step " + std::to_string(view().step) + ": nothing kept";
        } else {
            out->commit();
            finished = fs::absolute(view().run).lexically_normal().string();
        }
    } catch (const std::exception& e) {
        stopped = std::string("Training stopped: ") + e.what();
    }
    out.reset();  // an uncommitted folder is removed here, before the window hears the run ended
    {
        std::lock_guard<std::mutex> lock(mutex_);
        view_.running = false;
        view_.finished = finished;
        view_.stopped = stopped;
    }
    if (on_change_) on_change_();
}

}  // namespace session

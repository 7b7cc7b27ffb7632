#include "session/models/model_worker.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <filesystem>
#include <new>

#include "session/base/clock.h"
#include "vit/base/error.h"
#include "vit/formats/checkpoint.h"
#include "vit/forward/classes.h"

namespace session {
namespace {

std::string describe(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
        return "out of memory";
    } catch (const std::exception& x) {
        return x.what();
    }
    return "unknown error";
}

}  // namespace

ModelWorker::ModelWorker(std::function<void()> on_done)
    : on_done_(std::move(on_done)), jobs_([this] { run_waiting(); }) {}

void ModelWorker::submit(const Request& request) {
    {
        std::lock_guard lock(mutex_);
        Request merged = pending_.value_or(Request{});
        if (!request.model_dir.empty()) merged.model_dir = request.model_dir;
        if (!request.image_path.empty()) merged.image_path = request.image_path;
        if (!request.compare_path.empty()) {
            merged.compare_path = request.compare_path;
            merged.drop_compare = false;
        }
        if (request.drop_compare) {
            merged.compare_path.clear();
            merged.drop_compare = true;
        }
        if (request.input_size >= 0) merged.input_size = request.input_size;
        merged.whole = merged.whole || request.whole;
        if (request.whole) merged.lesson_path = request.lesson_path;
        pending_ = merged;
    }
    jobs_.wake();
}

std::optional<ModelWorker::Result> ModelWorker::poll() {
    std::lock_guard lock(mutex_);
    std::optional<Result> r = std::move(done_);
    done_.reset();
    return r;
}

ModelWorker::Result ModelWorker::wait() {
    jobs_.finish_waiting();
    std::lock_guard lock(mutex_);
    if (!done_) throw vit::Error("nothing was asked of the model worker");
    Result r = std::move(*done_);
    done_.reset();
    return r;
}

WorkProgress ModelWorker::progress() const {
    std::lock_guard lock(mutex_);
    WorkProgress p;
    p.busy = running_ || pending_.has_value();
    p.stage = running_ ? stage_ : (pending_ ? "Waiting" : "");
    p.seconds = running_ ? now_seconds() - started_ : 0;
    return p;
}

void ModelWorker::set_stage(const std::string& stage) {
    std::lock_guard lock(mutex_);
    stage_ = stage;
}

void ModelWorker::run_waiting() {
    for (;;) {
        Request request;
        {
            std::lock_guard lock(mutex_);
            if (!pending_) return;
            request = *pending_;
            pending_.reset();
            running_ = true;
            started_ = now_seconds();
            stage_ = "Starting";
        }
        Result result = process(request);
        {
            std::lock_guard lock(mutex_);
            // A newer job's result replaces an unread older one: only the latest state matters.
            done_ = std::move(result);
            running_ = false;
        }
        if (on_done_) on_done_();
    }
}

void ModelWorker::run_into(Loaded& next, int input_size, const char*& step, const char* which) {
    step = "Preprocessing";
    set_stage(std::string(step) + which);
    auto input = std::make_shared<const vit::Input>(vit::preprocess(*next.image, next.model->config.pre, input_size));
    step = "The forward pass";
    set_stage(std::string("Running the forward pass") + which);
    auto trace = traces_.share(vit::forward(*next.model, *input, {}, traces_.take()));
    next.crop = input->crop;
    next.input = input;
    next.top5 = vit::top_classes(*next.model, *trace, 5);
    next.trace = std::move(trace);
}

ModelWorker::Result ModelWorker::process(const Request& request) {
    // A lesson opens whole or not at all: on any error, what was shown stays.
    const Loaded current = current_, compared = compared_;
    const int input_size = input_size_, compared_size = compared_size_;
    Result r = process_parts(request);
    if (request.whole && !r.error.empty()) {
        current_ = current, compared_ = compared;
        input_size_ = input_size, compared_size_ = compared_size;
        r.loaded = current, r.compared = compared;
        r.changed = r.compared_changed = false;
        if (!request.lesson_path.empty()) r.error = request.lesson_path + ": " + r.error;
    }
    return r;
}

ModelWorker::Result ModelWorker::process_parts(const Request& request) {
    Result r;
    auto model = current_.model;
    auto image = current_.image;
    std::string model_dir = current_.model_dir, image_path = current_.image_path;
    std::vector<std::string> errors;

    // Each part loads on its own: a broken photo does not cost a good model, and the reverse.
    if (!request.model_dir.empty()) {
        set_stage("Loading model " + std::filesystem::path(request.model_dir).filename().string());
        try {
            model = std::make_shared<const vit::Model>(vit::load_model(request.model_dir));
            model_dir = request.model_dir;
        } catch (...) {
            errors.push_back("Could not open model: " + describe(std::current_exception()));
        }
    }
    if (!request.image_path.empty()) {
        set_stage("Decoding " + std::filesystem::path(request.image_path).filename().string());
        try {
            image = std::make_shared<const vit::Image>(vit::load_image(request.image_path));
            image_path = request.image_path;
        } catch (...) {
            errors.push_back("Could not open image: " + describe(std::current_exception()));
        }
    }

    // A new model starts at its own input size (another model may have another patch size).
    int input_size = request.input_size >= 0 ? request.input_size : (model != current_.model ? 0 : input_size_);
    const bool changed = model != current_.model || image != current_.image || input_size != input_size_;
    if (changed) {
        Loaded next;
        next.model = model;
        next.model_dir = model_dir;
        next.image = image;
        next.image_path = image_path;
        if (model && image && !(request.whole && !errors.empty())) {  // a whole request that failed runs nothing
            const char* step = "";                                    // names the step that failed
            try {
                // Refused before anything is allocated: not a multiple of the patch, or over the memory budget.
                step = "Changing the input size";
                if (input_size) vit::check_input_size(*model, input_size, {});
                run_into(next, input_size, step, "");
            } catch (...) {
                errors.push_back(std::string(step) + " failed: " + describe(std::current_exception()));
                next = current_;  // keep what worked before
                input_size = input_size_;
            }
        }
        if (next.model != current_.model || next.image != current_.image || input_size != input_size_) {
            next.generation = ++generation_;
            current_ = next;
            input_size_ = input_size;
            r.changed = true;
        }
    }
    if (!(request.whole && !errors.empty())) r.compared_changed = process_compare(request, errors);
    r.loaded = current_;
    r.compared = compared_;
    for (const std::string& e : errors) r.error += (r.error.empty() ? "" : "; ") + e;
    return r;
}

bool ModelWorker::process_compare(const Request& request, std::vector<std::string>& errors) {
    if (request.drop_compare) {
        const bool had = compared_.image != nullptr;
        compared_ = Loaded{};
        return had;
    }
    auto image = compared_.image;
    std::string path = compared_.image_path;
    if (!request.compare_path.empty()) {
        set_stage("Decoding " + std::filesystem::path(request.compare_path).filename().string() + " (second photo)");
        try {
            image = std::make_shared<const vit::Image>(vit::load_image(request.compare_path));
            path = request.compare_path;
        } catch (...) {
            // The second photo as it was (or none) stays.
            errors.push_back("Could not open the second photo: " + describe(std::current_exception()));
        }
    }
    const auto& model = current_.model;
    // Same model, photo and input size as the first: the two traces compare patch by patch.
    if (!image || !model || (image == compared_.image && model == compared_.model && compared_size_ == input_size_))
        return false;
    Loaded next;
    next.model = model;
    next.model_dir = current_.model_dir;
    next.image = image;
    next.image_path = path;
    const char* step = "";
    try {
        run_into(next, input_size_, step, " on the second photo");
    } catch (...) {
        errors.push_back(std::string(step) + " on the second photo failed: " + describe(std::current_exception()));
        // A run of the old model would not compare with the new one: then nothing is kept.
        if (model == compared_.model) return false;
        next = Loaded{};
    }
    next.generation = ++generation_;
    compared_ = std::move(next);
    compared_size_ = input_size_;
    return true;
}

}  // namespace session

// The models room's commands in the window: opening a model folder,
// downloading a known model, cancelling the download.
#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "app/gui/window.h"
#include "app/resource_paths.h"
#include "session/base/overloaded.h"
#include "session/core/output_rules.h"
#include "session/models/known_models.h"
#include "vit/base/error.h"

namespace app {

namespace fs = std::filesystem;

// A finished download opens its model as File > Open model does; a failed one leaves one line.
void Window::poll_download() {
    s_.get_model.download = downloader_->view();
    auto r = downloader_->poll();
    if (!r) return;
    busy_frames_ = 3;
    if (!r->error.empty()) {
        s_.last_error = r->error;
        return;
    }
    s_.get_model.open = false;
    s_.status = "Downloaded " + r->model + " to " + r->dir;
    carry_out(session::cmd::OpenModel{r->dir});
}

void Window::get_model(const std::string& name) {
    const session::GetModelState& g = s_.get_model;
    const session::KnownModel* m = session::find_known_model(g.known, name);
    if (!m) throw vit::Error(g.list_error.empty() ? "no known model named '" + name + "'" : g.list_error);
    if (session::is_downloaded(*m, g.dir)) {  // already there: open it
        s_.get_model.open = false;
        carry_out(session::cmd::OpenModel{(fs::path(g.dir) / m->folder).string()});
        return;
    }
    if (!downloader_->start({*m, g.dir, g.mirror})) throw vit::Error("a download is running already");
    s_.get_model.download = downloader_->view();  // at once, so a script waiting for it sees it
}

void Window::carry_models(const session::ModelsCommands& c) {
    using namespace session::cmd;
    std::visit(session::Overloaded{
                   [&](const OpenModel& x) {
                       run_worker({x.dir, "", ""});
                   },
                   [&](const GetModel& x) { get_model(x.name); },
                   [&](const CancelDownload&) { downloader_->cancel(); },
               },
               c);
}

}  // namespace app

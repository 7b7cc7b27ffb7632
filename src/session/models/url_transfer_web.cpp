// The browser build has no libcurl: a model is opened from its files there
// (the page's Open model…), and getting one from the hub says so.
#include "session/models/url_transfer.h"

namespace session {

void init_url_transfers() {}

UrlTransfer transfer_url(const std::string&, std::FILE*, const std::function<bool(std::int64_t, std::int64_t)>&) {
    UrlTransfer t;
    t.why = "downloading models is not in the browser build yet: pick the model's files with Open model… instead";
    return t;
}

}  // namespace session

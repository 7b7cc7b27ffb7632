// One URL's bytes into an open file, for File > Get a model…
// (src/session/models/model_download.cpp): libcurl on the desktop
// (src/session/models/url_transfer_curl.cpp); a synchronous XMLHttpRequest
// in the browser build (src/session/models/url_transfer_web.cpp).
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace session {

struct UrlTransfer {
    enum class Outcome { Done, NotFound, Cancelled, Failed };
    Outcome outcome = Outcome::Failed;
    std::string why;             // Failed: the reason, one line
    std::int64_t got = 0;        // bytes written
    std::int64_t expected = -1;  // what the server announced; -1 unknown
};

// Once per process, before any transfer's thread starts.
void init_url_transfers();

// Fetches url (https, http or file; redirects followed) into out. progress
// gets the bytes so far and the total (0 while unknown); false cancels.
UrlTransfer transfer_url(const std::string& url, std::FILE* out,
                         const std::function<bool(std::int64_t now, std::int64_t total)>& progress);

}  // namespace session

// The desktop's transfers: libcurl (libcurl4-openssl-dev).
#include "session/models/url_transfer.h"

#include <curl/curl.h>

#include <cstdio>
#include <memory>

namespace session {
namespace {

std::string mb(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
    return text;
}

using Progress = std::function<bool(std::int64_t, std::int64_t)>;

int progress_callback(void* progress, curl_off_t dltotal, curl_off_t dlnow, curl_off_t, curl_off_t) {
    return (*static_cast<const Progress*>(progress))(dlnow, dltotal) ? 0 : 1;  // non-zero aborts
}

}  // namespace

void init_url_transfers() {
    // Once per process, before any download thread: curl_global_init is not thread-safe everywhere.
    static const CURLcode init = curl_global_init(CURL_GLOBAL_DEFAULT);
    (void)init;
}

UrlTransfer transfer_url(const std::string& url, std::FILE* out, const Progress& progress) {
    UrlTransfer t;
    std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), &curl_easy_cleanup);
    if (!curl) {
        t.why = "libcurl could not start";
        return t;
    }
    char error[CURL_ERROR_SIZE] = "";
    CURL* c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https,http,file");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "https,http");  // the hub redirects to its file servers
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);  // a 404 is an error, not a file
    curl_easy_setopt(c, CURLOPT_WRITEDATA, out);   // libcurl's default writer: fwrite
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, &progress_callback);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &progress);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);  // a stalled connection ends after a minute
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // not on the window's thread
    curl_easy_setopt(c, CURLOPT_USERAGENT, "vitscope");
    const CURLcode rc = curl_easy_perform(c);
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_off_t got = 0, expected = -1;
    curl_easy_getinfo(c, CURLINFO_SIZE_DOWNLOAD_T, &got);
    curl_easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &expected);
    t.got = got;
    t.expected = expected;
    if (rc == CURLE_OK) {
        t.outcome = UrlTransfer::Outcome::Done;
    } else if (rc == CURLE_ABORTED_BY_CALLBACK) {
        t.outcome = UrlTransfer::Outcome::Cancelled;
    } else if ((rc == CURLE_HTTP_RETURNED_ERROR && status == 404) || rc == CURLE_FILE_COULDNT_READ_FILE) {
        t.outcome = UrlTransfer::Outcome::NotFound;
    } else {
        t.why = error[0] ? error : curl_easy_strerror(rc);
        if (rc == CURLE_PARTIAL_FILE)
            t.why = "the transfer stopped half-way (" + mb(static_cast<double>(got)) +
                    (expected > 0 ? " of " + mb(static_cast<double>(expected)) : "") + ")";
        if (rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_CONNECT) t.why += " (offline?)";
    }
    return t;
}

}  // namespace session

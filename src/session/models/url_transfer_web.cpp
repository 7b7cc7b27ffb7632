// The browser build's transfer for File > Get a model…: a synchronous
// XMLHttpRequest, allowed off the page's thread (the download's JobThread is
// a worker in the threaded build) and, for text, on it (the single-thread
// build reads the bytes as x-user-defined text). The browser follows
// redirects; the server must allow the page's origin (CORS: the Hugging Face
// hub does). No progress within a file: a synchronous request has no events.
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <memory>

#include "session/models/url_transfer.h"

namespace session {

void init_url_transfers() {}

UrlTransfer transfer_url(const std::string& url, std::FILE* out,
                         const std::function<bool(std::int64_t, std::int64_t)>& progress) {
    UrlTransfer t;
    if (progress && !progress(0, 0)) {
        t.outcome = UrlTransfer::Outcome::Cancelled;
        return t;
    }
    unsigned char* data = nullptr;
    // clang-format off
    const int got = EM_ASM_INT({
        var xhr = new XMLHttpRequest();
        xhr.open('GET', UTF8ToString($0), false);
        var onPage = typeof window !== 'undefined';
        if (onPage) xhr.overrideMimeType('text/plain; charset=x-user-defined');
        else xhr.responseType = 'arraybuffer';
        try { xhr.send(null); } catch (e) { return -1; }
        if (xhr.status === 404) return -404;
        if (xhr.status < 200 || xhr.status >= 300) return -1000 - xhr.status;
        var bytes;
        if (onPage) {
            var text = xhr.responseText;
            bytes = new Uint8Array(text.length);
            for (var i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i) & 0xff;
        } else {
            bytes = new Uint8Array(xhr.response);
        }
        var p = _malloc(Math.max(1, bytes.length));
        if (!p) return -2;
        // The memory may have grown (here or on another thread): views of the current buffer.
        if (HEAPU8.buffer !== wasmMemory.buffer) updateGlobalBufferAndViews(wasmMemory.buffer);
        HEAPU8.set(bytes, p);
        HEAPU32[$1 >> 2] = p;
        return bytes.length;
    }, url.c_str(), &data);
    // clang-format on
    std::unique_ptr<unsigned char, decltype(&std::free)> kept(data, &std::free);
    if (got == -404) {
        t.outcome = UrlTransfer::Outcome::NotFound;
        return t;
    }
    if (got < 0) {
        t.why = got == -1   ? "the browser could not fetch it (offline, or the server does not allow this page: CORS)"
                : got == -2 ? "out of memory"
                            : "the server answered HTTP " + std::to_string(-1000 - got);
        return t;
    }
    if (std::fwrite(data, 1, static_cast<size_t>(got), out) != static_cast<size_t>(got)) {
        t.why = "cannot write the file";
        return t;
    }
    t.got = t.expected = got;
    if (progress && !progress(got, got)) {
        t.outcome = UrlTransfer::Outcome::Cancelled;
        return t;
    }
    t.outcome = UrlTransfer::Outcome::Done;
    return t;
}

}  // namespace session

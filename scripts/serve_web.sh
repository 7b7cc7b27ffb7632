#!/usr/bin/env bash
# Serves the browser build's folder on 127.0.0.1 with the headers its
# threads need (Cross-Origin-Opener-Policy: same-origin and
# Cross-Origin-Embedder-Policy: require-corp make the page cross-origin
# isolated, which SharedArrayBuffer needs). --no-isolation leaves them out,
# as a plain static host would: the page then runs its single-thread build.
#   scripts/serve_web.sh [--port N] [--no-isolation] [FOLDER]
#   (default: build-wasm/vitscope-web; port 8080). Stop it with Ctrl-C.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
port=8080 isolation=1 folder="$here/build-wasm/vitscope-web"
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    --no-isolation) isolation=0; shift ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) folder="$1"; shift ;;
  esac
done
[ -f "$folder/index.html" ] || { echo "serve_web.sh: $folder has no index.html: build it with cmake --preset wasm && cmake --build --preset wasm" >&2; exit 2; }
echo "vitscope: http://127.0.0.1:$port/ ($([ $isolation = 1 ] && echo "cross-origin isolated: threads" || echo "not isolated: one thread"))"
exec python3 - "$folder" "$port" "$isolation" <<'PY'
import functools, http.server, sys
folder, port, isolation = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"

class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript", ".data": "application/octet-stream"}

    def end_headers(self):
        if isolation:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=folder))
server.serve_forever()
PY

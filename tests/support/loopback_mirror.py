"""A model mirror over HTTP on 127.0.0.1 only, for the download tests: serves
ROOT/FOLDER/FILE like the hub serves resolve/main/FILE (404 for a missing file),
and can misbehave on purpose: stop a file half-way (full Content-Length, half
the bytes, then the connection closes) or send slowly (so a test can cancel)."""
import http.server
import os
import threading
import time


class LoopbackMirror:
    def __init__(self, root, cut=(), bytes_per_second=None):
        """cut: file names sent only half-way; bytes_per_second: a throttle for every file."""
        self.requests = []
        mirror = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                mirror.requests.append(self.path)
                path = os.path.join(root, *[p for p in self.path.split("/") if p not in ("", ".", "..")])
                if not os.path.isfile(path):
                    self.send_error(404)
                    return
                with open(path, "rb") as f:
                    data = f.read()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if os.path.basename(path) in cut:
                    data = data[:len(data) // 2]
                try:
                    if bytes_per_second:
                        step = max(1, bytes_per_second // 20)
                        for i in range(0, len(data), step):
                            self.wfile.write(data[i:i + step])
                            time.sleep(0.05)
                    else:
                        self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client went away (cancelled)
                self.close_connection = True

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

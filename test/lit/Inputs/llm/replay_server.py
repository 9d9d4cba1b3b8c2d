#!/usr/bin/env python3
"""Replays recorded HTTP exchanges for the llm engine's tests (stdlib only).

replay_server.py --replies DIR --record FILE -- COMMAND...

Serves the JSON files of DIR, in name order, one per POST request, each
{"status": 200, "headers": {...}, "body": <JSON>} (or "body_text": "<raw>");
appends each request it gets to FILE as one JSON line (method, path, headers,
body); runs COMMAND with KOPT_LLM_BASE_URL pointing at itself, and exits with
COMMAND's status. A request beyond the recorded replies gets a 599 reply.
"""
import argparse
import http.server
import json
import os
import subprocess
import sys
import threading


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--replies", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command after --")

    names = sorted(n for n in os.listdir(args.replies) if n.endswith(".json"))
    replies = []
    for name in names:
        with open(os.path.join(args.replies, name)) as f:
            replies.append(json.load(f))
    record = open(args.record, "w")
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length).decode("utf-8", "replace")
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw
            with lock:
                record.write(json.dumps({
                    "method": "POST", "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": body}) + "\n")
                record.flush()
                reply = replies.pop(0) if replies else {
                    "status": 599, "body": {"error": {"message": "replay: no recorded reply left"}}}
            if "body_text" in reply:
                payload = reply["body_text"].encode()
            else:
                payload = json.dumps(reply.get("body", {})).encode()
            self.send_response(reply.get("status", 200))
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for key, value in reply.get("headers", {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *unused):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = dict(os.environ)
    env["KOPT_LLM_BASE_URL"] = "http://127.0.0.1:%d" % server.server_address[1]
    status = subprocess.call(command, env=env)
    server.shutdown()
    record.close()
    return status


if __name__ == "__main__":
    sys.exit(main())

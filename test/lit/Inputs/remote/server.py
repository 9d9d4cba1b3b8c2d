#!/usr/bin/env python3
"""Real cache servers for kopt's remote-cache tests, on a free port in a directory.

  server.py start redis|http DIR [--password PW]
                                   starts redis-server (requiring PW), or nginx with a WebDAV
                                   location (dav_methods PUT), in DIR; writes DIR/url
                                   (the remote_cache URL), waits until it answers
  server.py config DIR OUT [ATTR...] [--set KEY=VALUE...] [--userinfo=U:P]
                 [--location=NAME] [--queue=NAME]
                                   writes OUT (a .kopt.yaml) with remote_cache: the
                                   URL of DIR with |ATTR each (and generous
                                   timeouts where ATTR gives none), and KEY: VALUE
                                   lines; nginx's location kopt-chunked serves the
                                   same files without a Content-Length, kopt-slow
                                   at 64 KiB/s; with --queue, queue: the URL with
                                   /NAME in its place (a redis server: the work
                                   queue NAME, whose server is then also the
                                   remote cache)
  server.py plant DIR CACHE FILE    stores FILE's bytes under the key of every entry
                                   of the cache directory CACHE, as a broken or
                                   malicious writer would (no checks)
  server.py plant DIR CACHE --swap  stores each entry of CACHE under another's key
  server.py bloat DIR CACHE BYTES   makes the value under the key of every entry of
                                   CACHE BYTES long (zeros), on the server's side
                                   (redis SETRANGE, a sparse file for nginx)
  server.py stop DIR               stops the server (SIGTERM, then waits)
  server.py kill DIR               SIGKILL: a server that dies in the middle

The servers run in their own session, so a test's later RUN lines reach them;
every test stops its servers at the end.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def start_redis(d, port, password):
    exe = shutil.which("redis-server")
    if not exe:
        sys.exit("server.py: redis-server not found (Debian package redis-server)")
    auth = ["--requirepass", password] if password else []
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--dir", d, "--save", "",
         "--appendonly", "no", "--logfile", os.path.join(d, "redis.log")] + auth,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    return proc.pid, "redis://127.0.0.1:%d" % port


def start_http(d, port, password):
    exe = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.access(exe, os.X_OK):
        sys.exit("server.py: nginx not found (Debian package nginx)")
    root = os.path.join(d, "www")
    os.makedirs(os.path.join(root, "kopt"), exist_ok=True)
    # Run as root, nginx's workers drop to another user, who must write here.
    for path in (d, root, os.path.join(root, "kopt")):
        os.chmod(path, 0o777)
    conf = os.path.join(d, "nginx.conf")
    with open(conf, "w") as f:
        f.write("""daemon off;
worker_processes 1;
pid %(d)s/nginx.pid;
error_log %(d)s/error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path %(d)s/body;
  proxy_temp_path %(d)s/proxy;
  fastcgi_temp_path %(d)s/fastcgi;
  uwsgi_temp_path %(d)s/uwsgi;
  scgi_temp_path %(d)s/scgi;
  server {
    listen 127.0.0.1:%(port)d;
    root %(root)s;
    location /kopt/ {
      dav_methods PUT DELETE;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
      client_max_body_size 64m;
    }
    # The same files streamed without a Content-Length (the sub filter drops
    # it), and the same files slowly: what a broken or hostile server does.
    location /kopt-chunked/ {
      alias %(root)s/kopt/;
      sub_filter_types *;
      sub_filter 'kopt-never-in-an-entry' '';
    }
    location /kopt-slow/ {
      alias %(root)s/kopt/;
      limit_rate 64k;
    }
  }
}
""" % {"d": d, "port": port, "root": root})
    proc = subprocess.Popen([exe, "-c", conf, "-p", d], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    return proc.pid, "http://127.0.0.1:%d/kopt" % port


def watchdog(pid, seconds=900):
    """Kills the server after a while, should a failing test never stop it."""
    child = os.fork()
    if child:
        os.waitpid(child, 0)  # The intermediate child exits at once.
        return
    os.setsid()
    if os.fork() == 0:
        # Holds none of the test's pipes open (lit waits for them).
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        deadline = time.time() + seconds
        while time.time() < deadline:  # Gone with the server once it stops.
            time.sleep(1)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(0)
        try:  # Only the server itself, never a process that took its pid.
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                cmdline = f.read()
            if b"redis-server" in cmdline or b"nginx" in cmdline:
                os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    os._exit(0)


def start(kind, d, password=None):
    stop(d, signal.SIGKILL)  # A server left by an earlier run of the same test.
    os.makedirs(d, exist_ok=True)
    for _ in range(5):  # A port taken between the probe and the bind: another one.
        port = free_port()
        pid, url = (start_redis if kind == "redis" else start_http)(d, port, password)
        for _ in range(100):
            if answers(port):
                with open(os.path.join(d, "pid"), "w") as f:
                    f.write(str(pid))
                with open(os.path.join(d, "url"), "w") as f:
                    f.write(url)
                watchdog(pid)
                print(url)
                return
            time.sleep(0.05)
        os.kill(pid, signal.SIGKILL)
    sys.exit("server.py: %s did not start (see %s)" % (kind, d))


def config(d, out, rest):
    attrs = [a for a in rest if not a.startswith("--")]
    userinfo = [a.split("=", 1)[1] for a in rest if a.startswith("--userinfo=")]
    # The defaults (100 ms, 1 s) are for a quiet network; a CI machine running
    # many tests at once needs more, or a slow answer reads as a dead server.
    for default in ["connect-timeout=5000", "operation-timeout=10000"]:
        if not any(a.split("=")[0] == default.split("=")[0] for a in attrs):
            attrs.append(default)
    sets = [a.split("=", 1)[1] for a in rest if a.startswith("--set=")]
    locations = [a.split("=", 1)[1] for a in rest if a.startswith("--location=")]
    queue = [a.split("=", 1)[1] for a in rest if a.startswith("--queue=")]
    url = url_of(d)
    if locations:
        url = url.rsplit("/", 1)[0] + "/" + locations[0]
    if userinfo:
        url = url.replace("://", "://" + userinfo[0] + "@", 1)
    with open(out, "w") as f:
        if queue:
            f.write("queue: '%s'\n" % "".join([url + "/" + queue[0]] + ["|" + a for a in attrs]))
        else:
            f.write("remote_cache: '%s'\n" % "".join([url] + ["|" + a for a in attrs]))
        for s in sets:
            key, value = s.split("=", 1)
            f.write("%s: %s\n" % (key, value or "''"))


def entries(cache):
    found = []
    for root, _, files in os.walk(os.path.join(cache, "entries")):
        found += [os.path.join(root, f) for f in files if f.endswith(".json")]
    return sorted(found)


def plant(d, cache, what):
    files = entries(cache)
    for i, path in enumerate(files):
        digest = os.path.basename(path)[:-len(".json")]
        source = files[(i + 1) % len(files)] if what == "--swap" else what
        with open(source, "rb") as f:
            put(d, digest, f.read())


def url_of(d):
    with open(os.path.join(d, "url")) as f:
        return f.read().strip()


def redis_command(url, parts, answer):
    """Sends one command (a list of bytes) to the redis-server of url; exits
    unless its reply starts with answer."""
    port = int(url.rsplit(":", 1)[1])
    msg = b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(msg)
        if not s.recv(64).startswith(answer):
            sys.exit("server.py: %s failed" % parts[0].decode())


def bloat(d, cache, size):
    url = url_of(d)
    for path in entries(cache):
        digest = os.path.basename(path)[:-len(".json")]
        if url.startswith("redis://"):
            key = b"kopt:entry:" + digest.encode()
            redis_command(url, [b"SETRANGE", key, b"%d" % (size - 1), b"x"], b":")
        else:
            with open(os.path.join(d, "www", "kopt", digest), "wb") as f:
                f.truncate(size)


def put(d, digest, data):
    url = url_of(d)
    if url.startswith("redis://"):
        redis_command(url, [b"SET", b"kopt:entry:" + digest.encode(), data], b"+OK")
    else:
        import urllib.request
        req = urllib.request.Request(url + "/" + digest, data=data, method="PUT")
        urllib.request.urlopen(req).read()


def stop(d, sig):
    try:
        with open(os.path.join(d, "pid")) as f:
            pid = int(f.read())
    except OSError:
        return
    try:  # The whole session: nginx's workers too.
        os.killpg(pid, sig)
    except ProcessLookupError:
        return
    for _ in range(100):
        try:
            os.killpg(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


def main():
    cmd, rest = sys.argv[1], sys.argv[2:]
    if cmd == "start":
        password = rest[3] if len(rest) > 3 and rest[2] == "--password" else None
        start(rest[0], os.path.abspath(rest[1]), password)
    elif cmd == "config":
        config(rest[0], rest[1], rest[2:])
    elif cmd == "plant":
        plant(rest[0], rest[1], rest[2])
    elif cmd == "bloat":
        bloat(rest[0], rest[1], int(rest[2]))
    elif cmd in ("stop", "kill"):
        stop(rest[0], signal.SIGTERM if cmd == "stop" else signal.SIGKILL)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

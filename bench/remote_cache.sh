#!/usr/bin/env bash
# The remote cache's cost (issue 18): starts redis-server and nginx (WebDAV) on
# free ports, as the tests do, and runs kopt-remote-bench against each.
#   bench/remote_cache.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
rounds=${2:-200}
work=$(mktemp -d)
chmod 755 "$work" # nginx's workers (another user when run as root) must reach it.
server="python3 test/lit/Inputs/remote/server.py"
trap '$server stop "$work/redis"; $server stop "$work/http"; rm -rf "$work"' EXIT
$server start redis "$work/redis" > /dev/null
$server start http "$work/http" > /dev/null
echo "$(date -u +%FT%TZ) $(git rev-parse --short HEAD) $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
for kind in redis http; do
  "$build/bin/kopt-remote-bench" "$(cat "$work/$kind/url")" --rounds "$rounds"
done

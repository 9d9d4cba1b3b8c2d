#!/usr/bin/env bash
# The work queue on the GPU (issue 33): a build that may not optimize (mode
# queue, as a CI runner without a GPU) queues its kernel on a redis-server
# started here; `kopt worker` on this host's GPU takes the job, optimizes it
# (verified and timed for real), publishes the entry to the queue's server and
# acknowledges it; the next build in mode queue hits it through the remote
# cache and queues nothing. Exit 77 (ctest: skipped) where no GPU is usable or
# no redis-server is found ($KOPT_TEST_REDIS_SERVER, else PATH; the libraries
# beside a copied redis-server are found: its directory is on LD_LIBRARY_PATH).
# Usage: queue-worker.sh KOPT KCC INPUTS_DIR [WORK_DIR]
set -u
kopt=$1 kcc=$2 inputs=$3 work=${4:-$(mktemp -d)}
[ -x "$kopt" ] || { echo "queue-worker: no kopt at $kopt" >&2; exit 1; }
[ -x "$kcc" ] || { echo "queue-worker: no kcc at $kcc" >&2; exit 1; }
[ -f "$inputs/queue-scale.cu" ] || { echo "queue-worker: no queue-scale.cu in $inputs" >&2; exit 1; }
# The builds run in directories of their own: absolute paths.
absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
kopt=$(absolute "$kopt") kcc=$(absolute "$kcc") inputs=$(absolute "$inputs")
if ! "$kopt" device > /dev/null 2>&1; then
  echo "queue-worker: no usable GPU ($("$kopt" device 2>&1 | head -1)): skipped"
  exit 77
fi
redis=${KOPT_TEST_REDIS_SERVER:-$(command -v redis-server)}
if [ -z "$redis" ] || [ ! -x "$redis" ]; then
  echo "queue-worker: no redis-server (set KOPT_TEST_REDIS_SERVER): skipped"
  exit 77
fi
python=$(command -v python3) || { echo "queue-worker: python3 is needed" >&2; exit 1; }
fail() { echo "queue-worker: FAILED: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/ci" "$work/gpu"
arch=$("$kopt" device --json | "$python" -c 'import json,sys; print(json.load(sys.stdin)["devices"][0]["arch"])')

port=$("$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
LD_LIBRARY_PATH="$(dirname "$redis")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$redis" --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" \
  --logfile "$work/redis.log" > /dev/null 2>&1 &
redis_pid=$!
trap 'kill $redis_pid 2> /dev/null' EXIT
for _ in $(seq 100); do
  "$python" -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2> /dev/null && break
  sleep 0.1
done
queue="redis://127.0.0.1:$port/gpu-test|connect-timeout=2000|operation-timeout=10000"
cp "$inputs/queue-scale.cu" "$work/ci/"
printf "queue: '%s'\nmode: queue\ncache_dir: %s\n" "$queue" "$work/ci-cache" > "$work/ci/.kopt.yaml"
printf "queue: '%s'\ncache_dir: %s\n" "$queue" "$work/gpu-cache" > "$work/gpu/.kopt.yaml"

(cd "$work/ci" && "$kcc" -arch="$arch" -c queue-scale.cu -o queue-scale.o) > "$work/build1.txt" 2>&1 ||
  { cat "$work/build1.txt"; fail "the build in mode queue failed"; }
cat "$work/build1.txt"
grep -q "1 kernel without a cached variant compiled as written: queued for a GPU worker" \
  "$work/build1.txt" || fail "the build queued no job"

(cd "$work/gpu" && "$kopt" worker --max-jobs 1 --work-dir "$work/worker") > "$work/worker.txt" 2>&1
status=$?
cat "$work/worker.txt"
cat "$work"/worker/jobs/*.log
[ "$status" -eq 0 ] || fail "kopt worker exited with $status"
grep -qE "queueScale .*: done \(.* (faster|no variant beat the original) on .*\), published to" \
  "$work/worker.txt" || fail "the worker did not finish the job"
grep -qE "^  \[ *[0-9]+ " "$work"/worker/jobs/*.log || fail "the job's log shows no variant evaluated"

(cd "$work/ci" && "$kcc" --kopt-verbose -arch="$arch" -c queue-scale.cu -o queue-scale.o) \
  > "$work/build2.txt" 2>&1 || { cat "$work/build2.txt"; fail "the second build failed"; }
cat "$work/build2.txt"
grep -qE "queueScale: .*\(cache\)" "$work/build2.txt" || fail "the second build did not hit"
grep -q "queued" "$work/build2.txt" && fail "the second build queued a job"
(cd "$work/ci" && "$kopt" cache stats) | grep -q "^hits_remote 1$" || fail "no remote hit counted"
(cd "$work/ci" && "$kopt" queue status) > "$work/status.txt" 2>&1
cat "$work/status.txt"
grep -q "^done 1$" "$work/status.txt" || fail "queue status does not count the job done"
echo "queue-worker: passed"

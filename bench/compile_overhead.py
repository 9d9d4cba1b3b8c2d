#!/usr/bin/env python3
"""kcc's compile overhead against plain nvcc.

Compiles the same file with nvcc and with kcc, interleaved (nvcc, kcc, nvcc, ...)
so that machine noise hits both alike, and reports the median wall time of each
and their ratio. The fast-path goal (issue 3): kcc within 2% of nvcc on a file
with no #pragma kopt.

On a file with #pragma kopt the measurement is of a warm cache in direct mode, as
in a rebuild (issue 15's goal: at most 1.10x nvcc on examples/app/main.cu): kcc runs
in mode cache-only with a fresh user cache of its own (the project cache comes from
the file's .kopt.yaml), twice untimed first (the first run parses with kopt's front
end and records the direct-mode manifest), and the script checks that the second
was a direct hit before timing; it fails otherwise. Pass --self-runs 0 there (the
hand-over to /bin/true is no compile of the rewritten TU). It also times nvcc on the
TU kcc hands over (kept with --kopt-keep, the source's directory on the include
path), interleaved with the other two: kcc against that is kcc's own share, and
the rest of the ratio is nvcc compiling the variants' code.

usage: bench/compile_overhead.py --kcc build/bin/kcc [--nvcc PATH] [--runs N] [--self-runs N]
                                 FILE [-- FLAGS]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def time_compile(cmd, env=None):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def warm_direct_mode(kcc_command, env):
    """Runs kcc twice, untimed: the second must be a direct hit."""
    subprocess.run(kcc_command, check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    second = subprocess.run(kcc_command + ["--kopt-verbose"], check=True, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    hits = [line for line in second.stderr.splitlines() if ": direct hit (" in line]
    if not hits:
        notes = "\n".join(l for l in second.stderr.splitlines() if "=" not in l)
        sys.exit("compile_overhead: kcc did not take direct mode on a warm cache:\n" + notes)
    print(f"kcc warm: {hits[0].split('kcc: note: ', 1)[-1]}")


def kept_rewrite(kcc_command, env, out):
    """The TU kcc hands nvcc on a warm cache, copied into OUT."""
    kept = subprocess.run(kcc_command + ["--kopt-keep"], check=True, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    paths = [line.split("kcc: kept ", 1)[1] for line in kept.stderr.splitlines()
             if line.startswith("kcc: kept ")]
    if not paths:
        sys.exit("compile_overhead: kcc --kopt-keep named no rewritten file:\n" + kept.stderr)
    rewritten = os.path.join(out, "rewritten-" + os.path.basename(paths[0]))
    with open(paths[0], "rb") as src, open(rewritten, "wb") as dst:
        dst.write(src.read())
    return rewritten


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kcc", required=True)
    parser.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--self-runs", type=int, default=200)
    parser.add_argument("file")
    parser.add_argument("flags", nargs="*")
    args = parser.parse_args()
    if args.runs < 5:
        sys.exit("compile_overhead: at least 5 runs")

    with open(args.file, errors="replace") as f:
        annotated = "#pragma kopt" in f.read()
    times = {"nvcc": [], "kcc": []}
    with tempfile.TemporaryDirectory() as out:
        # kcc must call the same nvcc that is timed alone; its user cache is its own.
        envs = {"nvcc": None, "kcc": dict(os.environ, KOPT_NVCC=args.nvcc,
                                          KOPT_CACHE_DIR=os.path.join(out, "kopt-cache"),
                                          KOPT_MODE="cache-only")}
        obj = os.path.join(out, "out.o")
        commands = {
            "nvcc": [args.nvcc, "-c", args.file, "-o", obj] + args.flags,
            "kcc": [args.kcc, "-c", args.file, "-o", obj] + args.flags,
        }
        time_compile(commands["nvcc"])  # Warm the file cache once, untimed.
        if annotated:
            warm_direct_mode(commands["kcc"], envs["kcc"])
            # nvcc on the TU kcc hands it (the variants spliced in): what is
            # left of the ratio after that is kcc's own work.
            rewritten = kept_rewrite(commands["kcc"], envs["kcc"], out)
            times["nvcc-rewritten"] = []
            commands["nvcc-rewritten"] = [args.nvcc, "-c", rewritten, "-o", obj,
                                          "-I", os.path.dirname(os.path.abspath(args.file))] + args.flags
            envs["nvcc-rewritten"] = None
        for _ in range(args.runs):
            for name in times:
                times[name].append(time_compile(commands[name], envs[name]))

    # kcc's own cost, without nvcc's noise: kcc handing over to /bin/true.
    self_times = {"true": [], "kcc": []}
    true_env = dict(os.environ, KOPT_NVCC="/bin/true")
    for _ in range(args.self_runs):
        self_times["true"].append(time_compile(["/bin/true", "-c", args.file]))
        self_times["kcc"].append(time_compile([args.kcc, "-c", args.file] + args.flags, true_env))

    med = {k: statistics.median(v) for k, v in times.items()}
    ratio = med["kcc"] / med["nvcc"]
    print(f"file: {args.file}  flags: {' '.join(args.flags) or '(none)'}  runs: {args.runs} each, interleaved")
    for name in ("nvcc", "kcc"):
        v = sorted(times[name])
        print(f"{name:5s} median {med[name]*1000:8.1f} ms  min {v[0]*1000:8.1f}  max {v[-1]*1000:8.1f}")
    print(f"kcc/nvcc median ratio: {ratio:.4f} ({(ratio-1)*100:+.2f}%)")
    if "nvcc-rewritten" in med:
        v = sorted(times["nvcc-rewritten"])
        print(f"nvcc on kcc's rewritten TU: median {med['nvcc-rewritten']*1000:8.1f} ms  min {v[0]*1000:8.1f}  "
              f"max {v[-1]*1000:8.1f}")
        print(f"kcc/nvcc-on-the-rewritten-TU median ratio (kcc's own share): "
              f"{med['kcc'] / med['nvcc-rewritten']:.4f}")
    if not args.self_runs:  # On an annotated file the hand-over to /bin/true is no compile.
        return
    own = statistics.median(self_times["kcc"]) - statistics.median(self_times["true"])
    print(f"kcc's own time per call (kcc -> /bin/true minus /bin/true, median of {args.self_runs}): {own*1000:.2f} ms")


if __name__ == "__main__":
    main()

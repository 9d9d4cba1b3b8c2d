#!/usr/bin/env python3
"""Builds a naive-kernel suite with nvcc and with kcc, runs both, and reports.

Every .cu file of the suite (--suite: bench/kernels, the default, bench/textbook or
bench/apps) is compiled twice with the same flags (-O3 -arch=sm_90): with the real nvcc
(the naive kernel) and, given --kcc, with kcc (kopt's variant, or the naive kernel where
kopt found none). Builds run in parallel (--jobs); the binaries run one at a time, each printing
`KOPT_BENCH name=... ms=... check=... max_rel_err=...`.

The report (markdown and JSON) gives per file the naive and kcc times, the speedup, both
checks, the build times (kcc's includes kopt's optimization), what kcc did with each
annotated kernel (the winning chain of transforms, "(original kept)", or its warning,
from kcc's notes; kcc's stderr is kept beside each binary as NAME.log), and with
--torch-json (from bench/torch_eager.py) the PyTorch eager time, with KernelBench's
fast_1 and fast_2 (the fraction of problems whose kcc build is correct and more than
1x / 2x faster than eager) and geometric means. Files whose header says `// class: C`
(bench/textbook, bench/apps) also get the geometric mean per class.

Programs, not only kernels (issue 31): each binary runs --runs times (default 3 for
bench/apps, else 1) and its time is the median. With --kernel-times (found beside kcc or
in build/ by default for bench/apps), the naive binary runs once more under that CUDA
injection library, which times every kernel inside the program's profiled run (apps::
programMs): each kernel's share of the program. The report then puts, per program, each
annotated kernel's share and speedup (kcc's note; 1.00 where kcc kept the original) beside
the program's speedup and Amdahl's prediction from them, 1 / ((1 - sum f) + sum f / s),
and flags a program whose every kcc run was slower than every naive run.

usage: bench/suite.py [--suite kernels|textbook|apps] [--kcc PATH] [--only NAMES] [--jobs N]
                      [--build-only] [--runs N] [--kernel-times LIB] [--torch-json FILE]
                      [--out-md FILE] [--out-json FILE] [--kopt-...]
Options starting with --kopt- go to kcc unchanged (e.g. --kopt-cache-dir=DIR).
"""
import argparse
import concurrent.futures
import datetime
import fnmatch
import json
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SUITES = ("kernels", "textbook", "apps")
FLAGS = ["-O3", "-arch=sm_90"]
RESULT = re.compile(r"^KOPT_BENCH name=(\S+) ms=(\S+) check=(ok|FAIL) max_rel_err=(\S+)$", re.M)
KERNEL_TIMES = "lib/kopt/kopt-kernel-times.so"


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=SUITES, default="kernels",
                        help="the folder of bench/ whose files to build (default kernels)")
    parser.add_argument("--kcc", help="kcc to build the optimized binaries with")
    parser.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    parser.add_argument("--only", help="comma-separated kernel names or globs (relu,matmul_*)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                        help="parallel compiler processes")
    parser.add_argument("--build-dir", help="where binaries go (default bench/build, "
                        "bench/build/textbook for --suite textbook)")
    parser.add_argument("--build-only", action="store_true", help="build, run nothing")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per run")
    parser.add_argument("--runs", type=int, help="runs of each binary, the median taken "
                        "(default 3 for --suite apps, else 1)")
    parser.add_argument("--kernel-times", help="the kernel-times injection library (default "
                        f"for --suite apps: {KERNEL_TIMES} beside kcc's bin/, else in build/)")
    parser.add_argument("--torch-json", help="bench/torch_eager.py's output")
    parser.add_argument("--out-md", help="markdown report (default BUILD_DIR/suite.md)")
    parser.add_argument("--out-json", help="JSON report (default BUILD_DIR/suite.json)")
    args, extra = parser.parse_known_args(argv)
    bad = [e for e in extra if not e.startswith("--kopt-")]
    if bad:
        parser.error(f"unknown arguments: {' '.join(bad)} (only --kopt-* options go to kcc)")
    if extra and not args.kcc:
        parser.error("--kopt-* options need --kcc")
    args.kcc_options = extra
    args.kernels = os.path.join(HERE, args.suite)
    if args.runs is None:
        args.runs = 3 if args.suite == "apps" else 1
    if args.kernel_times is None and args.suite == "apps":
        args.kernel_times = default_kernel_times(args.kcc)
    if not args.build_dir:
        args.build_dir = os.path.join(HERE, "build", *([] if args.suite == "kernels" else [args.suite]))
    return args


def default_kernel_times(kcc):
    """The kernel-times library of kcc's install or build tree, else of build/, or None."""
    roots = ([os.path.dirname(os.path.dirname(os.path.abspath(kcc)))] if kcc else []) + \
        [os.path.join(os.path.dirname(HERE), "build")]
    for root in roots:
        path = os.path.join(root, KERNEL_TIMES)
        if os.path.exists(path):
            return path
    return None


def select(kernels, only):
    names = sorted(f[:-3] for f in os.listdir(kernels) if f.endswith(".cu"))
    if not only:
        return names
    patterns = [p.strip() for p in only.split(",") if p.strip()]
    chosen = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns)]
    missing = [p for p in patterns if not any(fnmatch.fnmatchcase(n, p) for n in names)]
    if missing:
        sys.exit(f"suite: no kernel matches {', '.join(missing)}")
    return chosen


def build(args, name, which):
    """Compiles one kernel with nvcc or kcc; returns its build record."""
    out = os.path.join(args.build_dir, which, name)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    source = os.path.join(args.kernels, name + ".cu")
    if which == "nvcc":
        cmd, env = [args.nvcc] + FLAGS + [source, "-o", out], None
    else:  # kcc must call the same nvcc as the naive build.
        cmd = [args.kcc] + args.kcc_options + FLAGS + [source, "-o", out]
        env = dict(os.environ, KOPT_NVCC=args.nvcc)
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    record = {"build_s": round(time.perf_counter() - start, 3), "binary": out,
              "build_ok": proc.returncode == 0}
    if proc.returncode != 0:
        record["build_error"] = (proc.stderr or proc.stdout).strip()[-2000:]
    if which == "kcc":
        with open(out + ".log", "w") as log:
            log.write(proc.stderr)
        record["log"] = out + ".log"
        record.update(kcc_outcome(proc.stderr))
    return name, which, record


# kcc's notes (with --kopt-verbose): one progress line per variant the loop tried,
# "  [ 3   12.3s] steps  verdict  1.23x  best 1.50x  (4.1s)", per kernel what the
# evaluations cost, "7 evaluations in 31.2 s (mean 4.46 s, longest 9.10 s; loop 58.3 s)",
# and what it used: "verified variant (steps), 1.72x faster on DEVICE" or "no variant
# beat the original". A note or warning about one kernel: "kcc: note: FILE:LINE: KERNEL:
# what happened".
PROGRESS = re.compile(r"^\s+\[\s*\d+\s+([0-9.]+)s\]", re.M)
USED = re.compile(r"verified variant \((.*?)\), ([0-9.]+)x faster")
EVALUATIONS = re.compile(r"(\d+) evaluations? in ([0-9.]+) s \(mean [0-9.]+ s, longest ([0-9.]+) s")
KERNEL_LINE = re.compile(r"^(?:kcc|kopt): (note|warning): (.+?):(\d+): (\S+?): (.*)$", re.M)
# Notes that say what kcc is doing or what it cost, not what it did with the kernel.
IN_PROGRESS = ("optimizing on ", "optimizing for ", "waiting for the GPU")


# How close to the hardware the kernel runs (issue 35), where the note says it:
# "DRAM 30% -> 45% of peak (1000 -> 1500 GB/s of a 4220 GB/s copy), SM 12% -> 18%";
# a kept original's reading: "...original on DEVICE: at 87% of DRAM peak: little headroom; ...".
SHARE = r"(?:[0-9]+%|not recorded)(?: -> (?:[0-9]+%|not recorded))?"
PEAK = re.compile(r"DRAM (" + SHARE + r") of peak(?: \([^)]*\))?, SM (" + SHARE + r")")
READING = re.compile(r"no variant beat the original on [^:]+: (.*?)(?:; DRAM |$)")


def kernel_outcome(kind, text):
    """What kcc did with one kernel, from its note or warning: the winning chain of
    transforms, "(original kept)", or the line itself where it says something else; with
    the DRAM and SM shares of peak ("30% -> 45%") and a kept original's reading where the
    note has them."""
    used = USED.search(text)
    peak = PEAK.search(text)
    shares = {"dram": peak.group(1), "sm": peak.group(2)} if peak else {}
    if kind == "note" and used:
        return {"chain": used.group(1), "speedup": float(used.group(2)), **shares}
    if kind == "note" and text.startswith("no variant beat the original"):
        reading = READING.match(text)
        return {"chain": "(original kept)", **shares,
                **({"reading": reading.group(1)} if reading and peak else {})}
    return {"chain": None, "note": f"{kind}: {text}"}


def kcc_outcome(stderr):
    """Winning steps, variants tried, evaluations (count, mean and longest seconds) and the
    loop's seconds from kcc's notes, and per annotated kernel what kcc did with it (the
    last such line about the kernel)."""
    seconds = [float(s) for s in PROGRESS.findall(stderr)]
    evaluations = [(int(n), float(total), float(longest))
                   for n, total, longest in EVALUATIONS.findall(stderr)]
    count = sum(n for n, _, _ in evaluations)
    kernels = {}
    for kind, _, _, kernel, text in KERNEL_LINE.findall(stderr):
        if not text.startswith(IN_PROGRESS) and not EVALUATIONS.match(text):
            kernels[kernel] = kernel_outcome(kind, text)
    used = USED.findall(stderr)
    if used:
        steps = "; ".join(s for s, _ in used)
    elif "no variant beat the original" in stderr:
        steps = "(original kept)"
    else:
        steps = None
    return {"steps": steps, "variants": len(seconds),
            "search_s": max(seconds) if seconds else None, "per_kernel": kernels,
            "evaluations": count if evaluations else None,
            "eval_mean_s": round(sum(t for _, t, _ in evaluations) / count, 2) if count else None,
            "eval_max_s": max(m for _, _, m in evaluations) if count else None}


def chains(record):
    """The report's "winning steps" cell: the steps, or with several annotated kernels
    (or a kernel without a chain) each kernel's chain or note."""
    if not record.get("build_ok", True):
        return "(kcc build failed)"
    kernels = record.get("per_kernel") or {}
    if len(kernels) <= 1 and all(k.get("chain") for k in kernels.values()):
        return record.get("steps") or "-"
    return "; ".join(f"{name}: {k.get('chain') or k.get('note')}" for name, k in kernels.items())


CLASS = re.compile(r"^// class: (\w+)$", re.M)


def kernel_class(path):
    """The class a file's header names (`// class: linalg`), or None."""
    with open(path) as f:
        match = CLASS.search(f.read(4096))
    return match.group(1) if match else None


def run(binary, timeout, env=None):
    """Runs one benchmark binary; returns ms, check and max_rel_err from its line."""
    try:
        proc = subprocess.run([binary], capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"check": "TIMEOUT"}
    match = RESULT.search(proc.stdout)
    if not match:
        tail = (proc.stderr or proc.stdout).strip()[-500:]
        return {"check": "ERROR", "error": f"exit {proc.returncode}: {tail}"}
    record = {"ms": float(match.group(2)), "check": match.group(3),
              "max_rel_err": float(match.group(4))}
    if match.group(3) != "ok":
        record["error"] = proc.stderr.strip()[-500:]
    return record


def run_median(binary, timeout, runs):
    """Runs a binary `runs` times: the median ms, every run's ms, and the first failure's
    record where a run fails."""
    records = [run(binary, timeout) for _ in range(max(runs, 1))]
    failed = [r for r in records if r.get("check") != "ok"]
    if failed:
        return failed[0]
    times = sorted(r["ms"] for r in records)
    record = dict(records[0], ms=times[len(times) // 2])
    if runs > 1:
        record["runs_ms"] = [r["ms"] for r in records]
    return record


def kernel_times(binary, library, timeout):
    """Each kernel's time in the program's profiled run, from the kernel-times injection
    library: {"range_ms", "kernels": {name: {"ms", "launches"}}} or {"error": ...}."""
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "times.json")
        env = dict(os.environ, CUDA_INJECTION64_PATH=library, KOPT_KERNEL_TIMES=out)
        record = run(binary, timeout, env)
        if record.get("check") != "ok":
            return {"error": f"the run under {library} failed: "
                             f"{record.get('error') or record.get('check')}"}
        if not os.path.exists(out):
            return {"error": f"{library} wrote no {out}"}
        with open(out) as f:
            data = json.load(f)
    if data.get("ranges") != 1:
        return {"error": f"{data.get('ranges')} profiled runs in the program, not 1"}
    return {"range_ms": data["range_ms"], "outside_ms": data["outside_ms"],
            "kernels": {k["name"]: {"ms": k["ms"], "launches": k["launches"]}
                        for k in data["kernels"]}}


def base_name(kernel):
    """bilateralFilter for "ns::bilateralFilter<4>": what kcc's notes and the kernel-times
    library both call a kernel."""
    return kernel.split("<", 1)[0].rsplit("::", 1)[-1]


def program_row(row):
    """Per program: each kernel of the profiled run with its share of the program and its
    speedup (kcc's note; 1.00 where the original was kept or there is no note), Amdahl's
    prediction from them, and the program's speedup and whether it is slower beyond noise
    (every kcc run slower than every naive run)."""
    times = row.get("kernel_times") or {}
    notes = {base_name(k): v for k, v in (row.get("kcc", {}).get("per_kernel") or {}).items()}
    out = {}
    if times.get("kernels"):
        kernels = []
        for name, t in sorted(times["kernels"].items(), key=lambda kv: -kv[1]["ms"]):
            note = notes.get(base_name(name), {})
            kernels.append({"name": name, "share": t["ms"] / times["range_ms"],
                            "launches": t["launches"], "speedup": note.get("speedup", 1.0),
                            "chain": note.get("chain") or note.get("note")})
        share = sum(k["share"] for k in kernels)
        out["kernels"] = kernels
        out["kernel_share"] = share
        if row.get("kcc"):
            out["amdahl"] = 1.0 / ((1.0 - min(share, 1.0)) +
                                   sum(k["share"] / k["speedup"] for k in kernels))
    naive, kcc = row.get("naive", {}), row.get("kcc", {})
    naive_runs = naive.get("runs_ms") or [naive.get("ms")]
    kcc_runs = kcc.get("runs_ms") or [kcc.get("ms")]
    if row.get("speedup") and None not in naive_runs + kcc_runs:
        out["slower"] = min(kcc_runs) > max(naive_runs)
    return out


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def summarize(rows):
    """Speedups per row, and fast_p / geometric means over the rows (and over each class,
    where rows have one)."""
    for r in rows:
        n, k, e = r.get("naive", {}), r.get("kcc", {}), r.get("eager_ms")
        if n.get("check") == "ok" and k.get("check") == "ok":
            r["speedup"] = n["ms"] / k["ms"]
        if e and k.get("check") == "ok":
            r["vs_eager"] = e / k["ms"]
        if e and n.get("check") == "ok":
            r["naive_vs_eager"] = e / n["ms"]
        if r.get("kernel_times") or n.get("runs_ms"):
            r["program"] = program_row(r)
    with_eager = [r for r in rows if r.get("eager_ms")]
    summary = {
        "kernels": len(rows),
        "naive_ok": sum(r.get("naive", {}).get("check") == "ok" for r in rows),
        "kcc_ok": sum(r.get("kcc", {}).get("check") == "ok" for r in rows),
        "geomean_speedup_over_naive": geomean([r.get("speedup") for r in rows]),
    }
    if with_eager:
        count = len(with_eager)
        for key, prefix in (("vs_eager", "kcc"), ("naive_vs_eager", "naive")):
            summary[f"{prefix}_fast_1"] = sum(r.get(key, 0) > 1 for r in with_eager) / count
            summary[f"{prefix}_fast_2"] = sum(r.get(key, 0) > 2 for r in with_eager) / count
            summary[f"{prefix}_geomean_vs_eager"] = geomean([r.get(key) for r in with_eager])
        summary["with_eager"] = count
    programs = [r for r in rows if r.get("program")]
    if programs:
        summary.update(program_summary(rows))
    classes = sorted({r["class"] for r in rows if r.get("class")})
    if classes:
        summary["classes"] = {}
        for name in classes:
            members = [r for r in rows if r.get("class") == name]
            summary["classes"][name] = {
                "kernels": len(members),
                "naive_ok": sum(r.get("naive", {}).get("check") == "ok" for r in members),
                "kcc_ok": sum(r.get("kcc", {}).get("check") == "ok" for r in members),
                "geomean_speedup_over_naive": geomean([r.get("speedup") for r in members]),
            }
    return summary


def program_summary(rows):
    """The program-level figures over the rows: the kernels' geometric mean (every annotated
    kernel with a verdict from kcc, 1.00 where it kept the original), Amdahl's prediction's
    and the programs', and the programs slower than the naive build beyond noise."""
    speedups = [k.get("speedup", 1.0) for r in rows
                for k in ((r.get("kcc") or {}).get("per_kernel") or {}).values() if k.get("chain")]
    unevaluated = sum(not k.get("chain") for r in rows
                      for k in ((r.get("kcc") or {}).get("per_kernel") or {}).values())
    predicted = [r["program"].get("amdahl") for r in rows if r.get("program") and r.get("speedup")]
    measured = [r["speedup"] for r in rows if r.get("program") and r.get("speedup")]
    out = {"kernel_geomean": geomean(speedups), "kernels_with_verdict": len(speedups),
           "kernels_without_verdict": unevaluated,
           "program_geomean": geomean(measured),
           "amdahl_geomean": geomean([p for p in predicted if p]),
           "programs_slower": sum(bool((r.get("program") or {}).get("slower")) for r in rows)}
    if out["program_geomean"] and out["amdahl_geomean"]:
        out["program_over_amdahl"] = out["program_geomean"] / out["amdahl_geomean"]
    return out


def program_markdown(rows):
    """The table of programs against their kernels."""
    lines = ["", "## Programs against kernels", "",
             "| program | naive ms | kcc ms | program speedup | Amdahl prediction "
             "| kernels' share | kernels (share of the program, speedup) | slower |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    for r in rows:
        p = r.get("program")
        if not p:
            continue
        n, k = r.get("naive", {}), r.get("kcc", {})
        error = (r.get("kernel_times") or {}).get("error")
        kernels = "; ".join(f"{x['name']} {100 * x['share']:.1f}% {x['speedup']:.2f}x"
                            for x in p.get("kernels", [])) or (f"({error})" if error else "-")
        share = f"{100 * p['kernel_share']:.1f}%" if "kernel_share" in p else "-"
        lines.append(f"| {r['name']} | {fmt(n.get('ms'))} | {fmt(k.get('ms'))} "
                     f"| {fmt(r.get('speedup'), 2)} | {fmt(p.get('amdahl'), 2)} | {share} "
                     f"| {kernels} | {'SLOWER' if p.get('slower') else ''} |")
    return lines


def fmt(value, digits=3):
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def eval_cost(kcc):
    """ "4.46 (9.1)": an evaluation's mean seconds and the longest one's."""
    if kcc.get("eval_mean_s") is None:
        return "-"
    return f"{kcc['eval_mean_s']:.2f} ({kcc['eval_max_s']:.1f})"


def markdown(meta, rows, summary):
    lines = [f"- date: {meta['date']}; device: {meta['device']}; commit: {meta['commit']}",
             f"- command: `{meta['command']}`", ""]
    classed = any(r.get("class") for r in rows)
    lines.append("| kernel |" + (" class |" if classed else "") +
                 " naive ms | kcc ms | speedup | check naive/kcc | eager ms "
                 "| kcc vs eager | winning steps | variants | evaluations | s/eval (max) "
                 "| search s | nvcc build s | kcc build s |")
    lines.append("| --- |" + (" --- |" if classed else "") +
                 " ---: | ---: | ---: | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: "
                 "| ---: | ---: |")
    for r in rows:
        n, k = r.get("naive", {}), r.get("kcc", {})
        lines.append(
            f"| {r['name']} |" + (f" {r.get('class') or '-'} |" if classed else "") +
            f" {fmt(n.get('ms'))} | {fmt(k.get('ms'))} | {fmt(r.get('speedup'), 2)} "
            f"| {n.get('check', '-')}/{k.get('check', '-')} | {fmt(r.get('eager_ms'))} "
            f"| {fmt(r.get('vs_eager'), 2)} | {chains(k) if k else '-'} | {fmt(k.get('variants'))} "
            f"| {fmt(k.get('evaluations'))} | {eval_cost(k)} "
            f"| {fmt(k.get('search_s'), 1)} | {fmt(n.get('build_s'), 1)} "
            f"| {fmt(k.get('build_s'), 1)} |")
    if any(r.get("program") for r in rows):
        lines += program_markdown(rows)
    lines.append("")
    for key, value in summary.items():
        if key != "classes":
            lines.append(f"- {key}: {fmt(value, 3)}")
    if summary.get("classes"):
        lines += ["", "| class | kernels | naive ok | kcc ok | geomean speedup over naive |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        for name, c in summary["classes"].items():
            lines.append(f"| {name} | {c['kernels']} | {c['naive_ok']} | {c['kcc_ok']} "
                         f"| {fmt(c['geomean_speedup_over_naive'], 3)} |")
        lines.append(f"| all | {summary['kernels']} | {summary['naive_ok']} | "
                     f"{summary['kcc_ok']} | {fmt(summary['geomean_speedup_over_naive'], 3)} |")
    return "\n".join(lines) + "\n"


def describe(args):
    def out(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, cwd=HERE).stdout.strip()
        except OSError:
            return ""
    commit = out(["git", "rev-parse", "--short", "HEAD"]) or "unknown"
    if out(["git", "status", "--porcelain", "--untracked-files=no"]):
        commit += " (with local changes)"
    device = out(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"])
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "device": device.splitlines()[0] if device else "no GPU found by nvidia-smi",
        "commit": commit,
        "command": shlex.join(["bench/suite.py"] + sys.argv[1:]),
        "suite": args.suite,
        "flags": FLAGS,
        "kcc": args.kcc,
        "kcc_options": args.kcc_options,
    }


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    names = select(args.kernels, args.only)
    builds = ["nvcc"] + (["kcc"] if args.kcc else [])
    rows = {n: {"name": n} for n in names}
    for n in names:
        kind = kernel_class(os.path.join(args.kernels, n + ".cu"))
        if kind:
            rows[n]["class"] = kind
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        futures = [pool.submit(build, args, n, b) for n in names for b in builds]
        for future in concurrent.futures.as_completed(futures):
            name, which, record = future.result()
            rows[name]["naive" if which == "nvcc" else "kcc"] = record
            status = "ok" if record["build_ok"] else "FAILED"
            print(f"suite: built {name} with {which} in {record['build_s']:.1f} s: {status}",
                  file=sys.stderr)
    failed = [f"{r['name']} ({w})" for r in rows.values() for w in ("naive", "kcc")
              if w in r and not r[w]["build_ok"]]
    for name in failed:
        print(f"suite: build failed: {name}", file=sys.stderr)
    if args.build_only:
        print(f"suite: built {len(names)} kernels with {' and '.join(builds)}; "
              f"{len(failed)} failed")
        return 1 if failed else 0

    eager = {}
    if args.torch_json:
        with open(args.torch_json) as f:
            eager = json.load(f).get("problems", {})
    for name in names:
        row = rows[name]
        for which in ("naive", "kcc"):
            if which in row and row[which]["build_ok"]:
                row[which].update(run_median(row[which]["binary"], args.timeout, args.runs))
            elif which in row:
                row[which]["check"] = "BUILD"
        if args.kernel_times and row["naive"].get("check") == "ok":
            row["kernel_times"] = kernel_times(row["naive"]["binary"], args.kernel_times,
                                               args.timeout)
        row["eager_ms"] = eager.get(name, {}).get("ms")
        print(f"suite: ran {name}: naive {row['naive'].get('ms')} ms "
              f"{row['naive'].get('check')}, kcc {row.get('kcc', {}).get('ms')} ms "
              f"{row.get('kcc', {}).get('check')}", file=sys.stderr)

    ordered = [rows[n] for n in names]
    summary = summarize(ordered)
    meta = describe(args)
    out_md = args.out_md or os.path.join(args.build_dir, "suite.md")
    out_json = args.out_json or os.path.join(args.build_dir, "suite.json")
    with open(out_md, "w") as f:
        f.write(markdown(meta, ordered, summary))
    with open(out_json, "w") as f:
        json.dump({"meta": meta, "summary": summary, "kernels": ordered}, f, indent=1)
        f.write("\n")
    print(markdown(meta, ordered, summary))
    bad = [r["name"] for r in ordered
           if any(r[w].get("check") != "ok" for w in ("naive", "kcc") if w in r)]
    return 1 if bad or failed else 0


if __name__ == "__main__":
    sys.exit(main())

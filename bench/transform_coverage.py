#!/usr/bin/env python3
"""Which mechanical transforms apply to which benchmark kernels, and why the others refuse.

For every annotated kernel of the given folders (default bench/textbook and bench/kernels)
it runs `kopt transform --list FILE --kernel K` once (each transform's parameter space), then
`kopt transform FILE --kernel K --try ID:PARAMS ...` (each transform applied alone, the unit
parsed once) for every transform of the skills library:
PARAMS is the first point of the listed space, or, where the list says "(does not apply)",
the first value of each of the skill's `params` (skills/ID.yaml), so that the transform
itself says why it refuses. A structural ("big") transform applies where that call
succeeds; the others (launch bounds, unroll, ...) apply where the list offers a point, and
are applied only where it does not, for the reason. No GPU needed.

Writes a markdown table (kernel, class, the transforms that apply, each refusal's reason)
to --out (default stdout) and, with --json, the raw results, which --compare reads to
count the (kernel, big transform) pairs that apply before and after a change.

usage: bench/transform_coverage.py --kopt build/bin/kopt [--jobs 2] [--out FILE]
                                   [--json FILE] [--compare OLD.json] [DIR]...
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLAGS = ["--", "-arch=sm_90"]
# The transforms that change a kernel's structure (parallelism, tiling, stencils): the
# ones the coverage counts. The others (unroll, restrict-readonly, launch bounds...) are
# listed but not counted.
BIG = ["register-blocking", "smem-tiling", "row-cooperative", "inner-loop-parallel",
       "loop-to-grid", "split-k", "coalescing-repair", "stencil-tiling",
       "stencil-streaming", "block-shape-2d", "thread-mapping-swap"]


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def skill_defaults():
    """{transform id: "k=v,..."} from the first value of each skill parameter."""
    import yaml  # Only here: the rest of the script needs no third-party module.
    out = {}
    folder = os.path.join(ROOT, "skills")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".yaml"):
            continue
        with open(os.path.join(folder, name)) as f:
            skill = yaml.safe_load(f)
        if "transform" in skill:
            params = skill.get("params") or {}
            out[skill["transform"]] = ",".join(f"{k}={v[0]}" for k, v in params.items())
    return out


def kernels_of(kopt, path):
    code, out, err = run([kopt, "inspect", path] + FLAGS)
    if code != 0:
        return None, (err.strip().splitlines() or ["kopt inspect failed"])[0]
    return [(k["name"], k.get("kind", "?")) for k in json.loads(out)["kernels"]
            if k.get("pragma")], None


def file_class(path):
    with open(path) as f:
        m = re.search(r"^// class: (\w+)", f.read(), re.M)
    return m.group(1) if m else "-"


def listed_points(kopt, path, kernel):
    """{transform: first point ("" for no parameters) or None where it does not apply}."""
    code, out, err = run([kopt, "transform", "--list", path, "--kernel", kernel] + FLAGS)
    if code != 0:
        raise RuntimeError(err.strip())
    points = {}
    for line in out.splitlines():
        tid, _, space = line.partition(": ")
        first = space.split(" | ")[0]
        points[tid] = None if first == "(does not apply)" else (
            "" if first == "(no parameters)" else first)
    return points


def tries(kopt, path, kernel, specs):
    """{transform: None where it applies, else the reason it refuses}: one `--try` call."""
    args = [a for spec in specs for a in ("--try", spec)]
    code, out, err = run([kopt, "transform", path, "--kernel", kernel] + args + FLAGS)
    if code != 0:
        raise RuntimeError(f"{path} {kernel}: {err.strip()}")
    result = {}
    for line in out.splitlines():
        tid, _, rest = line.partition(": ")
        verdict, _, why = rest.partition(": ")
        result[tid] = None if verdict == "applies" else why.replace("|", "\\|")
    return result


def with_noalias(path, folder):
    """A copy of path in folder whose pragmas all say noalias (the user's promise that
    pointer parameters never overlap): shows what the alias refusals hide."""
    with open(path) as f:
        text = f.read()
    text = re.sub(r"#pragma kopt optimize(?![^\n]*\bnoalias\b)", "#pragma kopt optimize noalias", text)
    copy = os.path.join(folder, os.path.basename(path))
    with open(copy, "w") as f:
        f.write(text)
    return copy


def survey(kopt, dirs, jobs, noalias):
    defaults = skill_defaults()
    files = sorted(os.path.join(d, f) for d in dirs for f in os.listdir(d) if f.endswith(".cu"))
    rows = []
    tmp = tempfile.mkdtemp(prefix="kopt-coverage-")
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        found = list(pool.map(lambda p: (p, *kernels_of(kopt, p)), files))
        for path, kernels, err in found:
            if err:
                rows.append({"file": os.path.relpath(path, ROOT), "kernel": "-", "error": err})
                continue
            parsed = with_noalias(path, tmp) if noalias else path
            for name, kind in kernels:
                rows.append({"file": os.path.relpath(path, ROOT), "path": parsed, "kernel": name,
                             "kind": kind, "class": file_class(path)})
        todo = [r for r in rows if "path" in r]

        def one(row):
            points = listed_points(kopt, row["path"], row["kernel"])
            applies, specs = [], []
            for tid, point in points.items():
                if tid not in BIG and point is not None:
                    # A small transform the list offers: counted as applying unchecked
                    # (they rewrite no loop structure).
                    applies.append(tid)
                    continue
                params = point if point is not None else defaults.get(tid, "")
                specs.append(f"{tid}:{params}" if params else tid)
            verdicts = tries(kopt, row["path"], row["kernel"], specs)
            row["applies"] = applies + [t for t, why in verdicts.items() if why is None]
            row["refusals"] = {t: why for t, why in verdicts.items() if why is not None}

        list(pool.map(one, todo))
    shutil.rmtree(tmp)
    for row in rows:
        row.pop("path", None)
    return rows


def big_pairs(rows):
    return {(r["file"], r["kernel"], t) for r in rows for t in r.get("applies", []) if t in BIG}


def markdown(rows, command, compare):
    out = [f"# Transform coverage of the benchmark kernels", "",
           f"Generated by `{command}` (no GPU): for each annotated kernel, each transform of the",
           "skills library applied alone with its first listed parameters (or the skill's first",
           "values where `--list` says it does not apply). \"big\" counts the structural transforms:",
           ", ".join(f"`{t}`" for t in BIG) + ".", ""]
    pairs = big_pairs(rows)
    out.append(f"(kernel, big transform) pairs that apply: **{len(pairs)}**"
               f" over {sum(1 for r in rows if 'applies' in r)} kernels.")
    if compare is not None:
        old = big_pairs(compare)
        out.append(f"Before this change: {len(old)}; gained {len(pairs - old)}, lost {len(old - pairs)}"
                   + (": " + ", ".join(f"{k} {t}" for _, k, t in sorted(old - pairs)) if old - pairs else "")
                   + ".")
    out += ["", "| transform | kernels it applies to |", "| --- | ---: |"]
    for t in BIG:
        out.append(f"| `{t}` | {sum(1 for r in rows if t in r.get('applies', []))} |")
    out += ["", "| file | kernel | class | kind | big transforms that apply | other transforms that apply |",
            "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        if "error" in r:
            out.append(f"| `{r['file']}` | - | - | - | front end failed: {r['error']} | |")
            continue
        big = [t for t in r["applies"] if t in BIG]
        other = [t for t in r["applies"] if t not in BIG]
        out.append(f"| `{r['file']}` | `{r['kernel']}` | {r['class']} | {r['kind']} | "
                   f"{', '.join(big) or '-'} | {', '.join(other) or '-'} |")
    out += ["", "## Refusals of the big transforms", "",
            "| kernel | transform | reason |", "| --- | --- | --- |"]
    for r in rows:
        for t in BIG:
            if t in r.get("refusals", {}):
                out.append(f"| `{r['kernel']}` | `{t}` | {r['refusals'][t]} |")
    out += ["", "## Other refusals", "", "| kernel | transform | reason |", "| --- | --- | --- |"]
    for r in rows:
        for t, why in r.get("refusals", {}).items():
            if t not in BIG:
                out.append(f"| `{r['kernel']}` | `{t}` | {why} |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kopt", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="the markdown table (default: stdout)")
    ap.add_argument("--json", help="also write the raw results here")
    ap.add_argument("--compare", help="a --json file of an earlier run: before/after counts")
    ap.add_argument("--assume-noalias", action="store_true",
                    help="survey copies whose pragmas all say noalias")
    ap.add_argument("dirs", nargs="*")
    args = ap.parse_args()
    dirs = args.dirs or [os.path.join(ROOT, "bench", "textbook"), os.path.join(ROOT, "bench", "kernels")]
    # The noalias copies live elsewhere: their includes are found through -I.
    dirs = [os.path.abspath(d) for d in dirs]
    FLAGS.extend(f"-I{d}" for d in dirs)
    rows = survey(os.path.abspath(args.kopt), dirs, args.jobs, args.assume_noalias)
    compare = None
    if args.compare:
        with open(args.compare) as f:
            compare = json.load(f)
    command = "bench/transform_coverage.py --kopt build/bin/kopt " + (
        "--assume-noalias " if args.assume_noalias else "") + " ".join(
        os.path.relpath(d, ROOT) for d in dirs)
    text = markdown(rows, command, compare)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

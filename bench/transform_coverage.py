#!/usr/bin/env python3
"""Which mechanical transforms apply to which benchmark kernels, and why the others refuse.

For every annotated kernel of the given folders (default bench/textbook and bench/kernels)
it runs `kopt transform FILE --kernel K --try ID[:PARAMS]...` once: every transform of the
skills library applied alone (the unit parsed once) with the first point of its parameter
space for the kernel, or, where the space is empty, with the first value of each of the
skill's `params` (skills/ID.yaml), so that the transform itself says why it refuses. No GPU.

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
       "stencil-streaming", "block-shape-2d", "thread-mapping-swap", "grid-2d"]


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


def kernels_of(path):
    """The kernels that carry `#pragma kopt optimize`, by name, in file order."""
    with open(path) as f:
        text = f.read()
    pragma = r"#pragma kopt optimize(?:[^\n]*\\\n)*[^\n]*\n"
    prefix = r"(?:\s*(?:template\s*<[^>]*>|__global__|static|extern \"C\"|__launch_bounds__\([^)]*\)))*"
    return re.findall(pragma + prefix + r"\s*void\s+(\w+)\s*\(", text)


def file_class(path):
    with open(path) as f:
        m = re.search(r"^// class: (\w+)", f.read(), re.M)
    return m.group(1) if m else "-"


def tries(kopt, path, kernel, specs):
    """{transform: None where it applies, else the reason it refuses}: one `--try` call
    (each transform with the first point of its space, else with the spec's parameters)."""
    args = [a for spec in specs for a in ("--try", spec)]
    code, out, err = run([kopt, "transform", path, "--kernel", kernel] + args + FLAGS)
    if code != 0:
        raise RuntimeError(f"{path} {kernel}: {err.strip()}")
    result = {}
    for line in out.splitlines():
        tid, _, rest = line.partition(": ")
        verdict, _, why = rest.partition(": ")
        if verdict == "unoffered":  # The search never tries it on this kernel.
            why = f"offers no parameters for the kernel, though it would apply ({why})"
        result[tid] = None if verdict == "applies" else why.replace("|", "\\|")
    return result


def with_noalias(path, folder):
    """A copy of path in folder whose pragmas all say noalias (the user's promise that
    pointer parameters never overlap): shows what the alias refusals hide."""
    with open(path) as f:
        text = f.read()
    def add(m):  # A pragma and its continuation lines.
        return m.group(0) if re.search(r"\bnoalias\b", m.group(0)) else m.group(0).replace(
            "#pragma kopt optimize", "#pragma kopt optimize noalias", 1)
    text = re.sub(r"#pragma kopt optimize(?:[^\n]*\\\n)*[^\n]*", add, text)
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
        for path in files:
            parsed = with_noalias(path, tmp) if noalias else path
            for name in kernels_of(path):
                rows.append({"file": os.path.relpath(path, ROOT), "path": parsed, "kernel": name,
                             "class": file_class(path)})
        todo = rows

        def one(row):
            try:
                specs = [f"{t}:{p}" if p else t for t, p in defaults.items()]
                verdicts = tries(kopt, row["path"], row["kernel"], specs)
                row["applies"] = [t for t, why in verdicts.items() if why is None]
                row["refusals"] = {t: why for t, why in verdicts.items() if why is not None}
            except RuntimeError as err:
                row["error"] = str(err).strip().splitlines()[-1]

        list(pool.map(one, todo))
    shutil.rmtree(tmp)
    for row in rows:
        row.pop("path", None)
    return rows


def big_pairs(rows):
    return {(r["file"], r["kernel"], t) for r in rows for t in r.get("applies", []) if t in BIG}


def markdown(rows, command, compare):
    out = ["# Transform coverage of the benchmark kernels", "",
           f"Generated by `{command}` (no GPU): for each annotated kernel, each transform of the",
           "skills library applied alone with the first point of its parameter space (or the",
           "skill's first values where the space is empty). \"big\" counts the structural transforms:",
           ", ".join(f"`{t}`" for t in BIG) + ".", ""]
    pairs = big_pairs(rows)
    out.append(f"(kernel, big transform) pairs that apply: **{len(pairs)}**"
               f" over {sum(1 for r in rows if 'applies' in r)} kernels"
               f" ({sum(1 for r in rows if 'error' in r)} could not be surveyed).")
    if compare is not None:
        old = big_pairs(compare)
        out.append(f"Before this change: {len(old)}; gained {len(pairs - old)}, lost {len(old - pairs)}"
                   + (": " + ", ".join(f"{k} {t}" for _, k, t in sorted(old - pairs)) if old - pairs else "")
                   + ".")
    out += ["", "| transform | kernels it applies to |", "| --- | ---: |"]
    for t in BIG:
        out.append(f"| `{t}` | {sum(1 for r in rows if t in r.get('applies', []))} |")
    out += ["", "| file | kernel | class | big transforms that apply | other transforms that apply |",
            "| --- | --- | --- | --- | --- |"]
    for r in rows:
        if "error" in r:
            out.append(f"| `{r['file']}` | `{r['kernel']}` | {r['class']} | front end failed: {r['error']} | |")
            continue
        big = [t for t in r["applies"] if t in BIG]
        other = [t for t in r["applies"] if t not in BIG]
        out.append(f"| `{r['file']}` | `{r['kernel']}` | {r['class']} | "
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

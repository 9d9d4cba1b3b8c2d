#!/usr/bin/env python3
"""What kopt's front end says about every annotated kernel of a suite, for the engineers
who fix the front end and add transforms.

For each .cu file of DIR it runs `kopt check FILE`, `kopt inspect FILE` and, for each
kernel that carries `#pragma kopt optimize`, `kopt transform FILE --kernel K --list`
(all with `-- -O3 -arch=sm_90`; no GPU), and compiles each kernel's unit (inspect's
`unit.text`) with NVRTC as the evaluator's first step does (the kernel's name, with the
template arguments of its first instantiation, as the name expression; NVRTC needs no
GPU). It writes markdown: a summary (kernels the front end refuses, with the exact message;
kernels whose check passes but whose workload or unit the evaluator would refuse; kernels
that reach evaluation; kernels with no transform offered, and with only tuning ones), then
per kernel the check line, the workload inspect derives (or its error), the NVRTC result
and each transform's parameter space or the reason it does not apply, verbatim.

With --out FILE, everything in FILE above the line `<!-- frontend_survey.py -->` is kept
(hand-written notes) and the survey replaces what follows it; a FILE with text but no such
line is not overwritten.

usage: bench/frontend_survey.py --kopt build/bin/kopt [--jobs N] [--out FILE] DIR
"""
import argparse
import concurrent.futures
import ctypes
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile

from transform_coverage import BIG, kernels_of

FLAGS = ["--", "-O3", "-arch=sm_90"]
MARKER = "<!-- frontend_survey.py -->"
REFUSED = "(does not apply: "


CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")


def nvrtc_compile(text, name_expression):
    """None where NVRTC compiles the unit and finds the kernel, else its log."""
    try:
        lib = ctypes.CDLL(os.path.join(CUDA, "lib64", "libnvrtc.so"))
    except OSError as error:
        return f"(NVRTC not loaded: {error})"
    prog = ctypes.c_void_p()
    if lib.nvrtcCreateProgram(ctypes.byref(prog), text.encode(), b"kopt_unit.cu", 0, None, None):
        return "nvrtcCreateProgram failed"
    try:
        lib.nvrtcAddNameExpression(prog, name_expression.encode())
        options = [b"--gpu-architecture=sm_90", f"-I{CUDA}/include".encode(),
                   f"-I{CUDA}/include/cccl".encode()]
        argv = (ctypes.c_char_p * len(options))(*options)
        result = lib.nvrtcCompileProgram(prog, len(options), argv)
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(prog, log)
        if result:
            return log.value.decode(errors="replace").strip() or f"nvrtcCompileProgram: {result}"
        lowered = ctypes.c_char_p()
        if lib.nvrtcGetLoweredName(prog, name_expression.encode(), ctypes.byref(lowered)):
            return f"NVRTC found no kernel named '{name_expression}' in the unit"
        return None
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))


def nvcc_fallback(text, name_expression, mangled):
    """None where `nvcc -cubin` compiles the unit as the evaluator's fallback after NVRTC
    writes it (the unit, then a line taking the kernel's address), else why not."""
    if not mangled:
        return "the nvcc fallback needs the kernel's mangled name"
    with tempfile.TemporaryDirectory() as work:
        unit = os.path.join(work, "unit.cu")
        with open(unit, "w") as f:
            f.write(text + f"\nstatic void *const kopt_kernel_address = (void *)&{name_expression};\n")
        proc = subprocess.run([os.path.join(CUDA, "bin", "nvcc"), "-cubin", "-arch=sm_90", "-o",
                               os.path.join(work, "unit.cubin"), unit],
                              capture_output=True, text=True)
    return None if proc.returncode == 0 else (proc.stderr or proc.stdout).strip()


def mangled_name(info):
    """The device symbol the nvcc fallback looks the kernel up by: its first instantiation's
    where it is a template."""
    if info.get("template") and info.get("instantiations"):
        return info["instantiations"][0]["mangled_name"]
    return info.get("mangled_name")


def name_expression(info):
    """The kernel as the evaluator names it to NVRTC: with its first instantiation's template
    arguments where it is a template."""
    name = info["name"]
    if info.get("template") and info.get("instantiations"):
        name += "<" + info["instantiations"][0]["template_args"] + ">"
    return name


def run(cmd, cwd):
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    return proc.returncode, proc.stdout, proc.stderr


def errors_of(stderr):
    """The diagnostics of a kopt run without the source excerpts (the `file:line:col:
    error:` and `warning:` lines, and kopt's own `kopt ...: error:` line)."""
    keep = re.compile(r"^(\S+:\d+:\d+: (?:error|warning): .*|kopt \w+: error: .*)$")
    return [line for line in stderr.splitlines() if keep.match(line)]


def transform_list(stdout):
    """{transform: [points]} for the transforms that apply, {transform: reason} for the
    others, from `kopt transform --list`."""
    offered, refused = {}, {}
    for line in stdout.splitlines():
        name, _, rest = line.partition(": ")
        if not rest:
            continue
        if rest.startswith(REFUSED):
            refused[name] = rest[len(REFUSED):-1]
        else:
            offered[name] = [p.strip() for p in rest.split("|")]
    return offered, refused


def survey_file(kopt, folder, name):
    """The records of one file's annotated kernels."""
    path = os.path.join(folder, name)
    check_rc, check_out, check_err = run([kopt, "check", name] + FLAGS, folder)
    inspect_rc, inspect_out, inspect_err = run([kopt, "inspect", name] + FLAGS, folder)
    annotated = {}
    if inspect_rc == 0:
        for k in json.loads(inspect_out)["kernels"]:
            if k.get("pragma"):
                annotated[k["name"]] = k
    names = list(annotated) or kernels_of(path)
    records = []
    for kernel in names:
        info = annotated.get(kernel, {})
        status = [line for line in check_out.splitlines()
                  if re.match(rf"^{re.escape(name)}:\d+: {re.escape(kernel)}: ", line)]
        list_rc, list_out, list_err = run(
            [kopt, "transform", name, "--kernel", kernel, "--list"] + FLAGS, folder)
        offered, refused = transform_list(list_out) if list_rc == 0 else ({}, {})
        workload = info.get("workload") or {}
        nvrtc = nvrtc_compile(info["unit"]["text"], name_expression(info)) if info else None
        nvcc = nvcc_fallback(info["unit"]["text"], name_expression(info),
                             mangled_name(info)) if nvrtc else None
        record = {
            "file": name, "kernel": kernel, "line": info.get("line"),
            "template": info.get("template"), "header": info.get("header"),
            "kind": info.get("kind"),
            "check": status[0] if status else None,
            "check_ok": check_rc == 0,
            "check_diagnostics": errors_of(check_err),
            "inspect_ok": inspect_rc == 0,
            "inspect_diagnostics": errors_of(inspect_err) if inspect_rc != 0 else [],
            "workload_error": workload.get("error"),
            "workload_buffers": [b["name"] for b in workload.get("buffers", [])],
            "name_expression": name_expression(info) if info else None, "nvrtc_error": nvrtc,
            "nvcc_error": nvcc,
            "list_ok": list_rc == 0,
            "list_diagnostics": errors_of(list_err) if list_rc != 0 else [],
            "offered": offered, "refused": refused,
        }
        spans = pragma_lines(path)
        for key in ("check_diagnostics", "inspect_diagnostics", "list_diagnostics"):
            record[key] = [located(d, spans, kernel) for d in record[key]]
        record["refusal"] = refusal(record)
        records.append(record)
    return records


def pragma_lines(path):
    """{kernel: (first, last)}: the lines of each annotated kernel's pragma, in file order."""
    with open(path) as f:
        lines = f.read().split("\n")
    spans, k = [], 0
    while k < len(lines):
        if lines[k].startswith("#pragma kopt optimize"):
            first = k
            while lines[k].rstrip().endswith("\\") and k + 1 < len(lines):
                k += 1
            spans.append((first + 1, k + 1))
        k += 1
    return dict(zip(kernels_of(path), spans))


def located(diagnostic, spans, kernel):
    """The diagnostic with where it is relative to the kernel: its own pragma, another
    kernel's, or code outside every pragma (a file that does not parse refuses them all)."""
    match = re.match(r"^[^:]+:(\d+):\d+: ", diagnostic)
    if not match:
        return diagnostic
    line = int(match.group(1))
    owner = [k for k, (first, last) in spans.items() if first <= line <= last]
    if owner == [kernel]:
        return diagnostic
    where = f"in the pragma of {owner[0]}" if owner else "outside every pragma"
    return f"{diagnostic} [{where}]"


def refusal(r):
    """The front end's first word against running the kernel, verbatim, or None."""
    if not r["check_ok"]:
        return "; ".join(d for d in r["check_diagnostics"] if ": error: " in d) or \
            "kopt check failed"
    if not r["inspect_ok"]:
        return "; ".join(r["inspect_diagnostics"]) or "kopt inspect failed"
    if r["workload_error"]:
        return r["workload_error"]
    if r["nvrtc_error"] and r["nvcc_error"]:
        return f"NVRTC: {r['nvrtc_error']}; nvcc -cubin: {r['nvcc_error']}"
    return None


def first_error(log):
    """The first error line of a compiler's log."""
    errors = [line.strip() for line in log.splitlines() if "error" in line]
    return errors[0] if errors else log.strip().splitlines()[0]


def code(text):
    return "`" + text.replace("`", "'") + "`"


def markdown(records, meta):
    lines = [MARKER, "", f"- generated {meta['date']} by `{meta['command']}` "
             f"(kopt at {meta['kopt']}); flags `{' '.join(FLAGS[1:])}`; no GPU", ""]
    refused = [r for r in records if r["refusal"]]
    late = [r for r in refused if r["check_ok"]]
    reaching = [r for r in records if not r["refusal"]]
    none = [r for r in records if r["list_ok"] and not r["offered"]]
    fallback = [r for r in records if r["nvrtc_error"] and not r["nvcc_error"]]
    tuning = [r for r in records if r["offered"] and not any(t in BIG for t in r["offered"])]
    lines += ["## Summary", "",
              f"- {len(records)} annotated kernels in {len({r['file'] for r in records})} files",
              f"- refused by the front end before any evaluation: {len(refused)} "
              f"({len(late)} of them after `kopt check` said ok)",
              f"- reaching evaluation (check, inspect and the workload pass): {len(reaching)}",
              f"- no transform offered at all: {len(none)}",
              f"- only tuning transforms offered (none of {', '.join(BIG)}): {len(tuning)}", ""]
    lines += ["### Refused by the front end", ""]
    lines += [f"- `{r['file']}` {r['kernel']}: {code(r['refusal'])}"
              f"{' (kopt check: ok)' if r['check_ok'] else ''}" for r in refused] or ["none"]
    lines += ["", "### NVRTC refuses the unit, the evaluator's nvcc fallback compiles it", ""]
    lines += [f"- `{r['file']}` {r['kernel']}: {code(first_error(r['nvrtc_error']))}"
              for r in fallback] or ["none"]
    lines += ["", "### No transform offered", ""]
    lines += [f"- `{r['file']}` {r['kernel']}" for r in none] or ["none"]
    lines += ["", "### Only tuning transforms offered", ""]
    lines += [f"- `{r['file']}` {r['kernel']}: {', '.join(r['offered'])}"
              for r in tuning] or ["none"]
    lines += ["", "## Per kernel", "",
              "| file | kernel | kind | front end | transforms offered (structural in bold) |",
              "| --- | --- | --- | --- | --- |"]
    for r in records:
        offered = ", ".join(f"**{t}**" if t in BIG else t for t in r["offered"]) or "none"
        lines.append(f"| `{r['file']}` | {r['kernel']} | {r['kind'] or '-'} | "
                     f"{'refused' if r['refusal'] else 'ok'} | {offered} |")
    for r in records:
        where = f" (line {r['line']})" if r["line"] else ""
        extra = ", a template" if r["template"] else ""
        extra += f", defined in `{r['header']}`" if r["header"] else ""
        lines += ["", f"### `{r['file']}` {r['kernel']}{where}{extra}", ""]
        lines.append(f"- kopt check: {code(r['check']) if r['check'] else 'no line for the kernel'}"
                     f"{'' if r['check_ok'] else ' (the file fails)'}")
        for d in r["check_diagnostics"]:
            lines.append(f"  - {code(d)}")
        if not r["inspect_ok"]:
            lines.append("- kopt inspect fails: " + "; ".join(map(code, r["inspect_diagnostics"])))
        elif r["workload_error"]:
            lines.append(f"- kopt inspect: workload error {code(r['workload_error'])}")
        else:
            lines.append(f"- kopt inspect: kind {r['kind']}, workload buffers "
                         f"{', '.join(r['workload_buffers'])}")
        if r["name_expression"]:
            lines.append(f"- NVRTC, name expression {code(r['name_expression'])}: " +
                         (code(r["nvrtc_error"]) if r["nvrtc_error"] else "compiles"))
        if r["nvrtc_error"]:
            lines.append("- the evaluator's fallback, `nvcc -cubin` on the unit: " +
                         (code(r["nvcc_error"]) if r["nvcc_error"] else
                          "compiles (each variant then costs an nvcc compile)"))
        if not r["list_ok"]:
            lines.append("- kopt transform --list fails: " +
                         "; ".join(map(code, r["list_diagnostics"])))
            continue
        lines.append("- kopt transform --list offers: " + (
            "; ".join(f"{t} ({len(p)} points)" for t, p in r["offered"].items()) or "nothing"))
        for t, why in r["refused"].items():
            lines.append(f"  - {t}: {code(why)}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--out", help="markdown file (default stdout); notes above the marker stay")
    parser.add_argument("--json", help="the records as JSON")
    parser.add_argument("folder")
    args = parser.parse_args()
    kopt = os.path.abspath(args.kopt)
    folder = os.path.abspath(args.folder)
    names = sorted(f for f in os.listdir(folder) if f.endswith(".cu"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        records = [r for rs in pool.map(lambda n: survey_file(kopt, folder, n), names) for r in rs]
    version = subprocess.run([kopt, "--version"], capture_output=True, text=True).stdout
    version = version.splitlines()[0] if version.strip() else ""
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "command": "bench/frontend_survey.py " + " ".join(sys.argv[1:]),
            "kopt": version or kopt}
    text = markdown(records, meta)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "kernels": records}, f, indent=1)
    if not args.out:
        sys.stdout.write(text)
        return 0
    notes = ""
    if os.path.exists(args.out):
        with open(args.out) as f:
            old = f.read()
        if old.strip() and MARKER not in old:
            sys.exit(f"frontend_survey: {args.out} has no line '{MARKER}' to keep its notes "
                     "above: not overwritten")
        notes = old[:old.index(MARKER)] if MARKER in old else ""
    with open(args.out, "w") as f:
        f.write(notes + text)
    print(f"frontend_survey: {len(records)} kernels, "
          f"{sum(bool(r['refusal']) for r in records)} refused, written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

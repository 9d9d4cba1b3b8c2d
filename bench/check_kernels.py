#!/usr/bin/env python3
"""Checks that every kernel of the benchmark suite can be run alone by kopt's evaluator.

For each .cu file it runs `kopt inspect FILE -- -arch=sm_90` and requires that the file
defines at least one kernel, that every kernel carries `#pragma kopt optimize` with a
launch clause, a value in args(...) for every scalar parameter and an entry with a
direction in buffers(...) for every pointer parameter, and that every launch dimension,
argument and buffer size evaluates (buffer sizes and launch dimensions positive). Unless
--no-torch, each file must also have a PyTorch problem in bench/torch_eager.py.

With --workloads it also builds each kernel's workload from its pragma as the evaluator
does (`kopt eval FILE --kernel K` with a driver library that cannot load, so it stops
before the GPU): element types the evaluator cannot generate show up there.

--gaps README names the known front-end gaps: the rows of the markdown table whose first
cell is a file (`name.cu`), whose fourth says where kopt fails ("pragma" or "workload")
and whose fifth is kopt's error (`text`). Such a file must fail in that place with that
error (its workloads are built for that); a gap that no longer fails is an error too, so
that the list stays true.

usage: bench/check_kernels.py --kopt build/bin/kopt [--jobs N] [--min-files N]
                              [--workloads] [--gaps README] [DIR]
Prints one `FILE:LINE: error: ...` line per problem and a summary; exits 1 on any error.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def inspect(kopt, path):
    """kopt inspect's JSON for path, or an error string."""
    proc = subprocess.run([kopt, "inspect", path, "--", "-arch=sm_90"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return None, (proc.stderr.strip() or f"kopt inspect exited {proc.returncode}")
    try:
        return json.loads(proc.stdout), None
    except json.JSONDecodeError as err:
        return None, f"kopt inspect printed no JSON: {err}"


def workload_error(kopt, path, kernel):
    """The error building kernel's workload gives, or None when it builds."""
    env = dict(os.environ, KOPT_LIBCUDA="/nonexistent/libcuda.so.1")  # Stop before the GPU.
    proc = subprocess.run([kopt, "eval", path, "--kernel", kernel, "--no-profile", "--",
                           "-arch=sm_90"], capture_output=True, text=True, env=env)
    if "no NVIDIA driver" in proc.stderr:
        return None
    return proc.stderr.strip() or f"kopt eval exited {proc.returncode}"


# A row of the gap table: | `file.cu` | kernels | spelling | pragma or workload | `error` |
GAP_ROW = re.compile(r"^\| `(\S+\.cu)` \|[^|]*\|[^|]*\| (pragma|workload)[^|]*\| `([^`]+)` \|", re.M)


def read_gaps(path):
    """{file: (where, error)} from the gap table of a README."""
    with open(path) as f:
        return {m.group(1): (m.group(2), m.group(3)) for m in GAP_ROW.finditer(f.read())}


def value_errors(what, expr, positive):
    if expr is None or expr.get("value") is None:
        text = expr.get("text") if expr else ""
        return [f"{what} '{text}' does not evaluate"]
    if positive and expr["value"] <= 0:
        return [f"{what} '{expr['text']}' is {expr['value']}, not positive"]
    return []


def kernel_errors(kernel):
    """Problems with one kernel's pragma, as (line, message)."""
    name, pragma = kernel["name"], kernel["pragma"]
    if pragma is None:
        return [(kernel["line"], f"kernel '{name}' has no #pragma kopt optimize")]
    line, errors = pragma["line"], []
    launch = pragma.get("launch")
    if launch is None:
        errors.append("no launch(...) clause")
    else:
        for section in ("grid", "block"):
            for expr in launch[section]:
                errors += value_errors(f"launch {section}", expr, True)
    args = pragma.get("args") or {}
    buffers = {b["name"]: b for b in pragma.get("buffers") or []}
    for param in kernel["params"]:
        pname = param["name"]
        if "*" in param["type"]:
            buf = buffers.get(pname)
            if buf is None:
                errors.append(f"pointer parameter '{pname}' is not in buffers(...)")
                continue
            if buf.get("access") is None:
                errors.append(f"buffer '{pname}' has no direction (in, out or inout)")
            errors += value_errors(f"size of buffer '{pname}'", buf["size"], True)
        elif pname not in args:
            errors.append(f"scalar parameter '{pname}' has no value in args(...)")
        else:
            errors += value_errors(f"value of '{pname}'", args[pname], False)
    return [(line, f"kernel '{name}': {msg}") for msg in errors]


def torch_problems():
    sys.path.insert(0, HERE)
    sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
    import torch_eager  # noqa: E402 (importable without torch)
    return set(torch_eager.PROBLEMS)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kopt", required=True, help="the kopt binary")
    parser.add_argument("--jobs", type=int, default=8, help="kopt inspect processes at once")
    parser.add_argument("--min-files", type=int, default=32)
    parser.add_argument("--no-torch", action="store_true",
                        help="do not require a problem in torch_eager.py for each file")
    parser.add_argument("--workloads", action="store_true",
                        help="also build every kernel's workload as the evaluator does")
    parser.add_argument("--gaps", help="a README whose table lists the known front-end gaps")
    parser.add_argument("dir", nargs="?", default=os.path.join(HERE, "kernels"))
    args = parser.parse_args()

    files = sorted(os.path.join(args.dir, f) for f in os.listdir(args.dir) if f.endswith(".cu"))
    problems = None if args.no_torch else torch_problems()
    gaps = read_gaps(args.gaps) if args.gaps else {}
    errors, kernels, gaps_seen = [], 0, 0
    for name in sorted(set(gaps) - {os.path.basename(f) for f in files}):
        errors.append(f"{name}:1: error: listed as a gap in {args.gaps}, but no such file")
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda f: (f, *inspect(args.kopt, f)), files))
        workloads = {}
        for path, data, _ in results:
            gap = gaps.get(os.path.basename(path))
            if data and (args.workloads or (gap and gap[0] == "workload")):
                for kernel in data["kernels"]:
                    workloads[(path, kernel["name"])] = pool.submit(
                        workload_error, args.kopt, path, kernel["name"])
        for path, data, err in results:
            name = os.path.basename(path)
            where, expected = gaps.get(name, (None, None))
            if where == "pragma":
                if err is not None and expected in err:
                    gaps_seen += 1
                else:
                    errors.append(f"{name}:1: error: listed as a pragma gap ('{expected}'), but "
                                  f"kopt inspect says: {(err or 'nothing wrong').splitlines()[0]}")
                continue
            if err is not None:
                # kopt's own errors carry file:line:col (a pragma's workload checks
                # among them): every one is passed on.
                located = [line for line in err.splitlines()
                           if re.match(r"\S+:\d+:\d+: error: ", line)]
                errors += located or [f"{name}:1: error: {err.splitlines()[0]}"]
                continue
            # The file's own kernels (bench_util.h's helpers carry "header").
            own = [k for k in data["kernels"] if "header" not in k]
            if not own:
                errors.append(f"{name}:1: error: no kernel")
            failed = []
            for kernel in own:
                kernels += 1
                errors += [f"{name}:{line}: error: {msg}" for line, msg in kernel_errors(kernel)]
                future = workloads.get((path, kernel["name"]))
                why = future.result() if future else None
                if why is not None:
                    failed.append(why)
                    if where != "workload":
                        errors.append(f"{name}:{kernel['line']}: error: {why.splitlines()[0]}")
            if where == "workload":
                if failed and all(expected in why for why in failed):
                    gaps_seen += 1
                else:
                    said = failed[0].splitlines()[0] if failed else "every workload builds"
                    errors.append(f"{name}:1: error: listed as a workload gap ('{expected}'), "
                                  f"but kopt eval says: {said}")
            stem = name[:-len(".cu")]
            if problems is not None and stem not in problems:
                errors.append(f"{name}:1: error: no problem '{stem}' in torch_eager.py")
    if len(files) < args.min_files:
        errors.append(f"{args.dir}: error: {len(files)} kernel files, fewer than {args.min_files}")
    for line in errors:
        print(line, file=sys.stderr)
    if errors:
        print(f"check_kernels: {len(files)} files, {kernels} kernels, {len(errors)} errors")
        return 1
    known = f", {gaps_seen} known front-end gaps" if gaps else ""
    print(f"check_kernels: {len(files)} files, {kernels} kernels, all clauses complete{known}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

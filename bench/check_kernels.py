#!/usr/bin/env python3
"""Checks that every kernel of the benchmark suite can be run alone by kopt's evaluator.

For each .cu file it runs `kopt inspect FILE -- -arch=sm_90` and requires that the file
defines at least one kernel, that every kernel carries `#pragma kopt optimize` with a
launch clause, a value in args(...) for every scalar parameter and an entry with a
direction in buffers(...) for every pointer parameter, and that every launch dimension,
argument and buffer size evaluates (buffer sizes and launch dimensions positive). Unless
--no-torch, each file must also have a PyTorch problem in bench/torch_eager.py.

usage: bench/check_kernels.py --kopt build/bin/kopt [--jobs N] [--min-files N] [DIR]
Prints one `FILE:LINE: error: ...` line per problem and a summary; exits 1 on any error.
"""
import argparse
import concurrent.futures
import json
import os
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
    parser.add_argument("dir", nargs="?", default=os.path.join(HERE, "kernels"))
    args = parser.parse_args()

    files = sorted(os.path.join(args.dir, f) for f in os.listdir(args.dir) if f.endswith(".cu"))
    problems = None if args.no_torch else torch_problems()
    errors, kernels = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(lambda f: (f, *inspect(args.kopt, f)), files)
        for path, data, err in results:
            name = os.path.basename(path)
            if err is not None:
                errors.append(f"{name}:1: error: {err.splitlines()[0]}")
                continue
            # The file's own kernels (bench_util.h's helpers carry "header").
            own = [k for k in data["kernels"] if "header" not in k]
            if not own:
                errors.append(f"{name}:1: error: no kernel")
            for kernel in own:
                kernels += 1
                errors += [f"{name}:{line}: error: {msg}" for line, msg in kernel_errors(kernel)]
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
    print(f"check_kernels: {len(files)} files, {kernels} kernels, all clauses complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())

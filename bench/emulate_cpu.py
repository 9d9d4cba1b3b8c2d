#!/usr/bin/env python3
"""Runs the suite's kernels on the CPU at small shapes, to check them without a GPU.

Each bench/kernels file is copied with its shape macros shrunk (every `#define NAME
VALUE` whose value is a constant above 64 becomes 40 + VALUE % 13, so sizes are odd and
not multiples of a block; KSIZE, STRIDE, PAD and CIN stay) and its launches rewritten
to emulateLaunch(...), then compiled with the host compiler against
bench/cpu_emulation/cuda_runtime.h and run. The kernel runs thread after thread, so
this checks index arithmetic, guards and the host references, not timing, races or
device precision. Prints each program's KOPT_BENCH line; exits 1 if any fails.

usage: bench/emulate_cpu.py [--cxx c++] [--jobs N] [--kernels DIR] [NAME ...]
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels")
KEEP = {"KSIZE", "STRIDE", "PAD", "CIN"}
DEFINE = re.compile(r"^#define (\w+) ([0-9 ()*]+)$", re.M)
LAUNCH = re.compile(r"(\w+(?:<\w+>)?)<<<(.+?)>>>\(")


def shrink(match):
    name, value = match.group(1), eval(match.group(2))  # Digits, spaces, * and () only.
    if name in KEEP or value <= 64:
        return match.group(0)
    return f"#define {name} {40 + value % 13}"


def emulated(text):
    text = DEFINE.sub(shrink, text)
    text = text.replace("gatherKernel<<<", "gatherKernel<T><<<")  # Name the instantiation.
    return LAUNCH.sub(lambda m: f"emulateLaunch({m.group(2)}, {m.group(1)}, ", text)


def copy_emulated(source, target):
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(source) as f, open(target, "w") as out:
        out.write(emulated(f.read()))


def folder_in(work, kernels):
    """Where a kernel folder's files go under work: the same name, so that a header's
    relative include of another suite's header (../kernels/bench_util.h) resolves."""
    return os.path.join(work, os.path.basename(os.path.normpath(kernels)))


def copy_headers(kernels, work):
    """The folder's headers and the shared bench_util.h, emulated, beside the sources."""
    folder = folder_in(work, kernels)
    for header in sorted(f for f in os.listdir(kernels) if f.endswith(".h")):
        copy_emulated(os.path.join(kernels, header), os.path.join(folder, header))
    shared = os.path.join(work, "kernels", "bench_util.h")
    if not os.path.exists(shared):
        copy_emulated(os.path.join(KERNELS, "bench_util.h"), shared)


def emulate(cxx, kernels, work, name):
    folder = folder_in(work, kernels)
    source = os.path.join(folder, name + ".cpp")
    copy_emulated(os.path.join(kernels, name + ".cu"), source)
    binary = os.path.join(folder, name)
    compile_ = subprocess.run(
        [cxx, "-std=c++17", "-O1", "-I", os.path.join(HERE, "cpu_emulation"), "-I", folder,
         source, "-o", binary], capture_output=True, text=True)
    if compile_.returncode != 0:
        return False, f"{name}: does not compile for the CPU:\n{compile_.stderr[-2000:]}"
    proc = subprocess.run([binary], capture_output=True, text=True, timeout=600)
    return proc.returncode == 0, (proc.stdout + proc.stderr).strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cxx", default="c++")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--kernels", default=KERNELS, help="the folder of kernel files")
    parser.add_argument("names", nargs="*", help="kernel names (default: all)")
    args = parser.parse_args()
    names = args.names or sorted(f[:-3] for f in os.listdir(args.kernels) if f.endswith(".cu"))
    with tempfile.TemporaryDirectory() as work:
        copy_headers(args.kernels, work)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda n: emulate(args.cxx, args.kernels, work, n), names))
    for _, text in results:
        print(text)
    failed = sum(not ok for ok, _ in results)
    print(f"emulate_cpu: {len(names) - failed} of {len(names)} kernels pass on the CPU")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

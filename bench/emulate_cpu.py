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


def emulate(cxx, kernels, work, name):
    source = os.path.join(work, name + ".cpp")
    with open(os.path.join(kernels, name + ".cu")) as f, open(source, "w") as out:
        out.write(emulated(f.read()))
    binary = os.path.join(work, name)
    compile_ = subprocess.run(
        [cxx, "-std=c++17", "-O1", "-I", os.path.join(HERE, "cpu_emulation"), "-I", work,
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
        with open(os.path.join(args.kernels, "bench_util.h")) as f, \
                open(os.path.join(work, "bench_util.h"), "w") as out:
            out.write(emulated(f.read()))
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda n: emulate(args.cxx, args.kernels, work, n), names))
    for _, text in results:
        print(text)
    failed = sum(not ok for ok, _ in results)
    print(f"emulate_cpu: {len(names) - failed} of {len(names)} kernels pass on the CPU")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

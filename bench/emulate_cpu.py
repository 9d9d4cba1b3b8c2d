#!/usr/bin/env python3
"""Runs the suite's kernels on the CPU at small shapes, to check them without a GPU.

Each file of a suite (bench/kernels, bench/textbook, bench/apps) is copied with its shape
macros shrunk (every `#define NAME VALUE` whose value is a constant above 64 becomes
40 + VALUE % 13, so sizes are odd and not multiples of a block; KSIZE, STRIDE, PAD and
CIN stay, and a line `// cpu emulation: NAME=VALUE ...` in the file gives those macros
the values it names instead: a block size a tree reduction needs as a power of two, a
step count), its launches rewritten to emulateLaunch(...) (template kernels too) and each
`extern __shared__ T name[];` to a pointer to the launch's dynamic shared memory, then
compiled with the host compiler against bench/cpu_emulation/ (cuda_runtime.h, a CUB
stand-in) and run. Blocks run one after another, each block's threads as fibers that meet
at barriers and warp shuffles, so this checks index arithmetic, guards, barriers and the
host references, not timing, races or device precision. Prints each program's
KOPT_BENCH line; exits 1 if any fails.

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
SUITES = ("kernels", "textbook", "apps")
KEEP = {"KSIZE", "STRIDE", "PAD", "CIN"}
DEFINE = re.compile(r"^#define (\w+) ([0-9 ()*]+)$", re.M)
CHOSEN = re.compile(r"^// cpu emulation: (.*)$", re.M)
LAUNCH = re.compile(r"(\w+(?:<[^<>;()]*>)?)<<<(.+?)>>>\(")
DYNAMIC_SHARED = re.compile(r"extern\s+__shared__\s+(?:__align__\(\d+\)\s+)?"
                            r"([\w:]+(?:\s+[\w:]+)*?)\s+(\w+)\s*\[\s*\]\s*;")


def chosen_values(text):
    """The values a file's `// cpu emulation: NAME=VALUE ...` lines give its macros."""
    values = {}
    for line in CHOSEN.findall(text):
        for item in line.split():
            name, _, value = item.partition("=")
            if not value:
                raise SystemExit(f"emulate_cpu: '{item}' in '// cpu emulation:' is not NAME=VALUE")
            values[name] = value
    return values


def shrink(match):
    name, value = match.group(1), eval(match.group(2))  # Digits, spaces, * and () only.
    if name in KEEP or value <= 64:
        return match.group(0)
    return f"#define {name} {40 + value % 13}"


def emulated(text):
    chosen = chosen_values(text)
    for name, value in chosen.items():  # Whatever the macro's value was.
        text, count = re.subn(rf"^#define {name}\b.*$", f"#define {name} {value}", text,
                              flags=re.M)
        if count == 0:
            raise SystemExit(f"emulate_cpu: '// cpu emulation:' names {name}, which no #define has")
    text = DEFINE.sub(lambda m: shrink(m) if m.group(1) not in chosen else m.group(0), text)
    text = text.replace("gatherKernel<<<", "gatherKernel<T><<<")  # Name the instantiation.
    text = DYNAMIC_SHARED.sub(
        lambda m: f"{m.group(1)} *{m.group(2)} = ({m.group(1)} *)emulatedDynamicShared();", text)
    return LAUNCH.sub(
        lambda m: f"emulateLaunch(emulation::LaunchConfig({m.group(2)}), {m.group(1)}, ", text)


def copy_emulated(source, target):
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(source) as f, open(target, "w") as out:
        out.write(emulated(f.read()))


def folder_in(work, kernels):
    """Where a kernel folder's files go under work: the same name, so that a header's
    relative include of another suite's header (../kernels/bench_util.h) resolves."""
    return os.path.join(work, os.path.basename(os.path.normpath(kernels)))


def copy_headers(kernels, work):
    """The folder's headers and those of the suites it may include (../kernels/bench_util.h,
    ../textbook/textbook_util.h), emulated, each in its folder under work."""
    folders = [kernels] + [os.path.join(HERE, s) for s in SUITES
                           if os.path.isdir(os.path.join(HERE, s))]
    for source in folders:
        folder = folder_in(work, source)
        for header in sorted(f for f in os.listdir(source) if f.endswith((".h", ".cuh"))):
            target = os.path.join(folder, header)
            if not os.path.exists(target):
                copy_emulated(os.path.join(source, header), target)


def emulate(cxx, kernels, work, name):
    folder = folder_in(work, kernels)
    source = os.path.join(folder, name + ".cpp")
    copy_emulated(os.path.join(kernels, name + ".cu"), source)
    binary = os.path.join(folder, name)
    compile_ = subprocess.run(
        # Fibers switch stacks with _longjmp, which glibc's fortified longjmp refuses.
        [cxx, "-std=c++17", "-O1", "-U_FORTIFY_SOURCE", "-I", os.path.join(HERE, "cpu_emulation"),
         "-I", folder, source, "-o", binary], capture_output=True, text=True)
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

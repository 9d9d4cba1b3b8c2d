#!/usr/bin/env python3
"""Regenerates the parts of docs/ that the tools print, or checks that they still match.

Two kinds of generated text, each between markers in a page:

- The options table of docs/configuration.md, from `kcc --kopt-help` (which prints
  driver/config/KoptOptions.cpp's table):
      <!-- kopt-options-table -->  ...table...  <!-- end kopt-options-table -->
- Transform examples (docs/transforms/*.md): a marker names the file and the arguments,
  the fenced block after it is the example kernel (written by hand), and the two fenced
  blocks after that are generated: the command with what it printed on stderr, and the
  unit it printed on stdout.
      <!-- kopt-example: rowsum.cu --kernel rowsum --apply unroll:loop=0,factor=4 -->

usage: scripts/update-docs.py --kopt build/bin/kopt --kcc build/bin/kcc [--check]
                              [--pages GLOB]... [ROOT]
With --check nothing is written: every difference is printed as `FILE:LINE: ...` and the
exit status is 1. Without it the pages are rewritten in place. --pages takes only the
pages whose path under ROOT matches (docs/transforms/[a-f]*.md): each example costs a
clang parse, so the lit tests check the pages in groups that run in parallel.
"""
import argparse
import concurrent.futures
import fnmatch
import os
import re
import shlex
import subprocess
import sys
import tempfile

EXAMPLE = re.compile(r"^<!-- kopt-example: (\S+) (.*) -->$")
FENCE = re.compile(r"^```")
TABLE_BEGIN = "<!-- kopt-options-table -->"
TABLE_END = "<!-- end kopt-options-table -->"


def options_table(help_text):
    """The markdown table of kcc --kopt-help's options."""
    rows = []
    option = None
    for line in help_text.splitlines():
        flag = re.match(r"^  (--kopt-[a-z-]+)(\S*)$", line)
        where = re.match(r"^      \((KOPT_\w+), \.kopt\.yaml (\w+):, default (.*)\)$", line)
        if flag:
            option = {"flag": flag.group(1), "value": flag.group(2), "help": []}
        elif where and option:
            env, key, default = where.groups()
            # "=a|b|c" lists the values; "[=true|false]" a switch; "=VALUE" anything.
            choices = option["value"].strip("[]=").split("|")
            values = ", ".join(f"`{c}`" for c in choices) if len(choices) > 1 else ""
            meaning = " ".join(option["help"]).replace("|", "\\|")
            default = "unset" if default == "unset" else f"`{default}`"
            rows.append(f"| `{option['flag']}` | `{env}` | `{key}` | {values} | {default} | "
                        f"{meaning} |")
            option = None
        elif option and line.startswith("      "):
            option["help"].append(line.strip())
    if not rows:
        raise SystemExit("update-docs: kcc --kopt-help printed no options")
    return ["| flag | environment | .kopt.yaml | values | default | meaning |",
            "| --- | --- | --- | --- | --- | --- |"] + rows


def fenced_blocks(lines, start):
    """(begin, end) line indexes of the fenced blocks from start on, fence lines included."""
    i = start
    while i < len(lines):
        if FENCE.match(lines[i]):
            j = i + 1
            while j < len(lines) and not FENCE.match(lines[j]):
                j += 1
            yield i, j
            i = j + 1
        else:
            i += 1


def run_example(kopt, name, args, source):
    """(stderr lines, stdout) of kopt transform on source, saved as name in a fresh folder."""
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, name), "w") as f:
            f.write(source)
        proc = subprocess.run([kopt, "transform", name] + shlex.split(args), cwd=tmp,
                              capture_output=True, text=True)
    if proc.returncode != 0:
        return None, proc.stderr
    return proc.stderr.splitlines(), proc.stdout


def plan_examples(path, lines, kopt, pool):
    """The page's examples, each running: (marker line, blocks after it, future)."""
    jobs = []
    for i, line in enumerate(lines):
        mark = EXAMPLE.match(line)
        if not mark:
            continue
        name, args = mark.groups()
        blocks = list(fenced_blocks(lines, i + 1))[:3]
        if not blocks or blocks[0][0] != i + 1:
            raise SystemExit(f"{path}:{i + 1}: the example's kernel must follow its marker")
        sb, se = blocks[0]
        source = "\n".join(lines[sb + 1:se]) + "\n"
        jobs.append((i, name, args, blocks, pool.submit(run_example, kopt, name, args, source)))
    return jobs


def updated_page(path, lines, jobs, kcc_help):
    """The page's lines with its generated parts made current."""
    out = list(lines)
    # Examples from the last to the first, so that earlier indexes stay valid.
    for i, name, args, blocks, job in reversed(jobs):
        err, stdout = job.result()
        if err is None:
            raise SystemExit(f"{path}:{i + 1}: kopt transform {name} {args} failed:\n{stdout}")
        made = ["```console", f"$ kopt transform {name} {args}"] + err + ["```", "```cuda"]
        made += stdout.rstrip("\n").split("\n") + ["```"]
        se = blocks[0][1]
        # The generated blocks follow the kernel's directly; replace them where present.
        generated = len(blocks) == 3 and blocks[1][0] == se + 1 and blocks[2][0] == blocks[1][1] + 1
        end = blocks[2][1] + 1 if generated else se + 1
        out[se + 1:end] = made
    if TABLE_BEGIN in out:
        b, e = out.index(TABLE_BEGIN), out.index(TABLE_END)
        out[b + 1:e] = options_table(kcc_help)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--kcc", required=True)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--pages", action="append", default=[], metavar="GLOB")
    parser.add_argument("root", nargs="?",
                        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    opts = parser.parse_args()
    kcc_help = subprocess.run([opts.kcc, "--kopt-help"], capture_output=True, text=True,
                              check=True).stdout
    docs = os.path.join(opts.root, "docs")
    pages = sorted(os.path.join(d, f) for d, _, files in os.walk(docs) for f in files
                   if f.endswith(".md"))
    if opts.pages:
        pages = [p for p in pages
                 if any(fnmatch.fnmatch(os.path.relpath(p, opts.root), g) for g in opts.pages)]
    stale = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        planned = []
        for page in pages:
            rel = os.path.relpath(page, opts.root)
            with open(page) as f:
                lines = f.read().split("\n")
            planned.append((page, rel, lines, plan_examples(rel, lines, opts.kopt, pool)))
        for page, rel, lines, jobs in planned:
            made = updated_page(rel, lines, jobs, kcc_help)
            if made == lines:
                continue
            if not opts.check:
                with open(page, "w") as f:
                    f.write("\n".join(made))
                print(f"update-docs: updated {rel}")
                continue
            stale += 1
            first = next(i for i in range(max(len(lines), len(made)))
                         if i >= len(lines) or i >= len(made) or lines[i] != made[i])
            print(f"{rel}:{first + 1}: generated text differs from what the tools print now:\n"
                  f"  page: {lines[first] if first < len(lines) else '(end)'}\n"
                  f"  now:  {made[first] if first < len(made) else '(end)'}")
    if stale:
        print(f"update-docs: {stale} page(s) out of date; run scripts/update-docs.py "
              "--kopt build/bin/kopt --kcc build/bin/kcc")
        return 1
    if opts.check:
        print(f"update-docs: {len(pages)} pages match kopt and kcc")
    return 0


if __name__ == "__main__":
    sys.exit(main())

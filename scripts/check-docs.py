#!/usr/bin/env python3
"""Keeps README short and the documentation's links and citations true.

Fails (one `FILE:LINE: ...` line a problem, exit 1) when
- README.md has more than 200 lines: reference material goes to docs/;
- a relative link in README.md or a docs/ page points to a file that does not exist, or
  to an anchor (`page.md#section`) that is not one of the page's headings;
- a source file cites a README section (`README, "The result cache"`, `README's
  "Layout"`) or the design document outside the repository (`DESIGN.md`): code cites
  docs/PAGE.md#anchor, which must exist too.

usage: scripts/check-docs.py [ROOT]   (the files git tracks under ROOT)
"""
import os
import re
import subprocess
import sys

README_MAX_LINES = 200
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# A citation of docs in a source comment: docs/cache.md#the-key.
DOC_CITATION = re.compile(r"\bdocs/[\w./-]+\.md(?:#[\w-]+)?")
# The top-level README only: skills/README.md and bench/README.md are documents of their own.
README_SECTION = re.compile(r"""(?<![\w/])README(?:\.md)?(?:'s)?,?\s*["“]""")
SOURCE_SUFFIXES = (".cpp", ".h", ".def", ".cu", ".cuh", ".cmake", ".txt", ".py", ".sh", ".in",
                   ".test", ".yaml")
ANCHORS = {}  # Markdown file: the anchors of its headings.


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as '-'."""
    text = re.sub(r"`([^`]*)`", r"\1", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    """The anchors of a markdown file's headings (outside fenced code)."""
    if path not in ANCHORS:
        found, fenced = set(), False
        with open(path) as f:
            for line in f:
                if line.startswith("```"):
                    fenced = not fenced
                elif not fenced and line.startswith("#"):
                    base = slug(line.lstrip("#"))
                    name, n = base, 1
                    while name in found:
                        name, n = f"{base}-{n}", n + 1
                    found.add(name)
        ANCHORS[path] = found
    return ANCHORS[path]


def check_target(root, page, target, where, problems):
    """A relative link or citation (file[#anchor]) from page must resolve."""
    if re.match(r"^[a-z]+:", target):  # http:, mailto: ...
        return
    path, _, anchor = target.partition("#")
    base = os.path.dirname(page) if page else root
    full = os.path.normpath(os.path.join(base, path)) if path else page
    if not os.path.exists(full):
        problems.append(f"{where}: '{target}' names a file that does not exist")
    elif anchor and full.endswith(".md") and anchor not in anchors(full):
        problems.append(f"{where}: '{target}': no heading of {os.path.relpath(full, root)} "
                        f"has the anchor '#{anchor}'")


def markdown_links(root, page, problems):
    fenced = False
    with open(page) as f:
        for number, line in enumerate(f, 1):
            if line.startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            where = f"{os.path.relpath(page, root)}:{number}"
            for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                check_target(root, page, target, where, problems)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    files = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                           check=True).stdout.split()
    problems = []

    readme = os.path.join(root, "README.md")
    with open(readme) as f:
        lines = f.read().count("\n")
    if lines > README_MAX_LINES:
        problems.append(f"README.md:{README_MAX_LINES + 1}: README has {lines} lines, more than "
                        f"{README_MAX_LINES}: move reference material to docs/")

    pages = [readme] + [os.path.join(root, f) for f in files
                        if f.startswith("docs/") and f.endswith(".md")]
    for page in pages:
        if os.path.exists(page):
            markdown_links(root, page, problems)

    for name in files:
        if not name.endswith(SOURCE_SUFFIXES) or name.startswith(("docs/", "bench/textbook/")):
            continue
        if name == "scripts/check-docs.py":
            continue
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            continue
        with open(path, errors="replace") as f:
            for number, line in enumerate(f, 1):
                where = f"{name}:{number}"
                if README_SECTION.search(line):
                    problems.append(f"{where}: cites a README section; cite "
                                    "docs/PAGE.md#section instead")
                if "DESIGN.md" in line:
                    problems.append(f"{where}: cites DESIGN.md, which is not in the "
                                    "repository; cite docs/architecture.md#section instead")
                for target in DOC_CITATION.findall(line):
                    check_target(root, None, target, where, problems)

    for p in problems:
        print(p)
    if problems:
        print(f"check-docs: {len(problems)} problem(s)")
        return 1
    print(f"check-docs: README has {lines} lines; links in {len(pages)} pages and citations "
          "in the sources resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())

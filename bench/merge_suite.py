#!/usr/bin/env python3
"""Joins the reports of suite.py runs over disjoint kernel sets (a pass split over
several device calls) into one report, with the summary recomputed over all kernels.

  bench/merge_suite.py a.json b.json ... --out-md all.md --out-json all.json
"""
import argparse
import json
import sys

import suite


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", help="suite.py --out-json files")
    parser.add_argument("--out-md", required=True)
    parser.add_argument("--out-json", required=True)
    args = parser.parse_args(argv)
    rows, metas = {}, []
    for path in args.reports:
        with open(path) as f:
            report = json.load(f)
        metas.append(report["meta"])
        for row in report["kernels"]:
            if row["name"] in rows:
                sys.exit(f"merge_suite: {row['name']} is in more than one report ({path})")
            rows[row["name"]] = row
    ordered = [rows[n] for n in sorted(rows)]
    meta = dict(metas[0])
    meta["command"] = " ; ".join(m["command"] for m in metas)
    meta["date"] = " to ".join(sorted({metas[0]["date"], metas[-1]["date"]}))
    commits = sorted({m["commit"] for m in metas})
    meta["commit"] = ", ".join(commits)
    summary = suite.summarize(ordered)
    with open(args.out_md, "w") as f:
        f.write(suite.markdown(meta, ordered, summary))
    with open(args.out_json, "w") as f:
        json.dump({"meta": meta, "summary": summary, "kernels": ordered}, f, indent=1)
        f.write("\n")
    print(suite.markdown(meta, ordered, summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())

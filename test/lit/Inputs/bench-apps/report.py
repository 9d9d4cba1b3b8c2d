# Builds two program rows as bench/suite.py does after its runs (program.py stands in for a
# program under the kernel-times library) and prints the program table and its summary.
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, sys.argv[1])
import suite

times = suite.kernel_times(os.path.join(here, "program.py"), "/nonexistent/kopt-kernel-times.so", 60)
print("times:", times)
with open(os.path.join(here, "kcc-notes.txt")) as f:
    notes = suite.kcc_outcome(f.read())
faster = {"name": "demo", "naive": {"ms": 10.0, "runs_ms": [10.0, 9.9, 10.1], "check": "ok"},
          "kcc": dict(notes, ms=5.2, runs_ms=[5.2, 5.1, 5.3], check="ok"), "kernel_times": times}
slower = {"name": "slow", "naive": {"ms": 10.0, "runs_ms": [10.0, 10.0, 9.8], "check": "ok"},
          "kcc": dict(notes, ms=11.1, runs_ms=[11.0, 11.2, 11.1], check="ok"), "kernel_times": times}
rows = [faster, slower]
summary = suite.summarize(rows)
print("\n".join(suite.program_markdown(rows)))
for key in ("kernel_geomean", "kernels_with_verdict", "kernels_without_verdict", "program_geomean",
            "amdahl_geomean", "programs_slower"):
    print(f"{key}: {suite.fmt(summary[key], 3)}")

#!/usr/bin/env python3
# A stand-in for a bench/apps program run under the kernel-times library: prints its
# result line (ms from the first argument) and, where the library would, writes the
# kernels' times of its profiled run to KOPT_KERNEL_TIMES.
import json, os, sys
if os.environ.get("KOPT_KERNEL_TIMES"):
    with open(os.environ["KOPT_KERNEL_TIMES"], "w") as f:
        json.dump({"format": "kopt-kernel-times-1", "ranges": 1, "range_ms": 10.0, "outside_ms": 0.5,
                   "kernels": [{"name": "stepKernel", "symbol": "_Z10stepKernelv", "launches": 100, "ms": 6.0},
                               {"name": "boundaryKernel", "symbol": "_Z14boundaryKernelv", "launches": 100, "ms": 1.0},
                               {"name": "filter<4>", "symbol": "_Z6filterILi4EEvv", "launches": 1, "ms": 1.0}]}, f)
print(f"KOPT_BENCH name=demo ms={sys.argv[1] if len(sys.argv) > 1 else os.environ.get('DEMO_MS', '10.0')} check=ok max_rel_err=0")

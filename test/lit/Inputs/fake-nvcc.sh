#!/bin/sh
# Stands in for nvcc: says how it was called and exits with $FAKE_NVCC_STATUS.
echo "fake-nvcc called as: $0"
for a in "$@"; do echo "arg: [$a]"; done
exit "${FAKE_NVCC_STATUS:-0}"

#!/usr/bin/env bash
# Parse coverage of kopt's front end over NVIDIA's cuda-samples: runs `kopt inspect` on
# every .cu file of Samples/{0_Introduction,2_Concepts_and_Techniques,3_CUDA_Features,
# 6_Performance} with the flags nvcc gets from the sample's CMakeLists.txt, and prints
# each failure with its first error, then the count parsed.
#
#   bench/parse_coverage.sh SAMPLES_DIR [--kopt PATH] [--jobs N] [--arch sm_XX]
#
# SAMPLES_DIR is a checkout of github.com/NVIDIA/cuda-samples (its root, holding
# Common/ and Samples/). Exit status: 0 when every file parses, 1 otherwise.
set -euo pipefail

usage() {
  echo "usage: $0 SAMPLES_DIR [--kopt PATH] [--jobs N] [--arch sm_XX]" >&2
  exit 2
}

[[ $# -ge 1 ]] || usage
SAMPLES=$(cd "$1" && pwd)
shift
HERE=$(cd "$(dirname "$0")/.." && pwd)
KOPT=${KOPT:-$HERE/build/bin/kopt}
JOBS=2
ARCH=sm_90
while [[ $# -gt 0 ]]; do
  case $1 in
  --kopt) KOPT=$2; shift 2 ;;
  --jobs) JOBS=$2; shift 2 ;;
  --arch) ARCH=$2; shift 2 ;;
  *) usage ;;
  esac
done
[[ -x $KOPT ]] || { echo "$0: no kopt at $KOPT (build it, or pass --kopt)" >&2; exit 2; }
[[ -d $SAMPLES/Samples && -d $SAMPLES/Common ]] ||
  { echo "$0: $SAMPLES is not a cuda-samples checkout (no Samples/, Common/)" >&2; exit 2; }

# The nvcc flags the sample's CMakeLists.txt gives its CUDA sources, beyond the common
# ones: separable compilation (-rdc=true), --extended-lambda, OpenMP, an inc/ directory.
sample_flags() {
  local dir=$1 cml=$1/CMakeLists.txt
  [[ -f $cml ]] || return 0
  grep -q 'CUDA_SEPARABLE_COMPILATION ON' "$cml" && printf '%s\n' -rdc=true
  grep -q -- '--extended-lambda' "$cml" && printf '%s\n' --extended-lambda
  grep -q 'OpenMP::OpenMP_CXX' "$cml" && printf '%s\n' -Xcompiler -fopenmp
  grep -q 'CMAKE_CURRENT_SOURCE_DIR}/inc' "$cml" && printf '%s\n' "-I$dir/inc"
  return 0
}

# One file: prints "ok FILE" or "FAIL FILE: first error".
inspect_one() {
  local file=$1 dir flags err
  dir=$(dirname "$file")
  mapfile -t flags < <(sample_flags "$dir")
  if err=$("$KOPT" inspect "$file" -- -arch="$ARCH" -std=c++17 "-I$SAMPLES/Common" "-I$dir" \
    "${flags[@]}" 2>&1 >/dev/null); then
    echo "ok ${file#"$SAMPLES"/}"
  else
    first=$(grep -m1 -E 'error:|fatal' <<<"$err" || true)
    echo "FAIL ${file#"$SAMPLES"/}: ${first:-$(head -n1 <<<"$err")}"
  fi
}
export -f inspect_one sample_flags
export KOPT SAMPLES ARCH

mapfile -t FILES < <(cd "$SAMPLES" && find Samples/0_Introduction Samples/2_Concepts_and_Techniques \
  Samples/3_CUDA_Features Samples/6_Performance -name '*.cu' | sort)
RESULTS=$(printf '%s\n' "${FILES[@]/#/$SAMPLES/}" | xargs -P "$JOBS" -I{} bash -c 'inspect_one "$@"' _ {} | sort -k2)

grep '^FAIL' <<<"$RESULTS" | sed 's/^FAIL /failed: /' || true
PARSED=$(grep -c '^ok' <<<"$RESULTS" || true)
echo "parsed $PARSED of ${#FILES[@]} files"
[[ $PARSED -eq ${#FILES[@]} ]]

#!/usr/bin/env bash
# Installs kopt's build and test dependencies from Debian's packages.
# Used by README's fresh-machine commands and by .ci/run; safe to run twice.
set -euo pipefail

packages=(
  cmake ninja-build g++ git python3 python3-psutil xz-utils file
  clang-19 libclang-19-dev llvm-19-dev llvm-19-tools lld-19 clang-format-19 clang-tidy-19
  # clang's static libraries link against these
  zlib1g-dev libzstd-dev libxml2-dev libedit-dev libffi-dev libncurses-dev
  libyaml-cpp-dev libcurl4-openssl-dev nlohmann-json3-dev libgtest-dev libhiredis-dev
  # real servers for the remote-cache tests (test/lit/remote)
  redis-server nginx
  # kopt_optimize_target() keeps a target's compiler launcher (test/lit/cmake/optimize-target-ccache)
  ccache
  # a real browser for `kopt report`'s page: headless screenshots and DOM (test/lit/report/browser)
  chromium
)

sudo_if_needed() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all packages present"
else
  echo "install-deps: installing ${missing[*]}"
  sudo_if_needed apt-get update -qq
  DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: warning: no CUDA toolkit at /usr/local/cuda; kopt needs CUDA 13 (nvcc, NVRTC, CUPTI)" >&2
fi

# The CMake project of the no-op suites: examples/app (main.cu's two kernels
# take the variants of its committed project cache; check.h is included by
# main.cu and check.cpp) and plain.cu, which has no pragma and includes plain.h.
# $1: the source directory to make.
make_noop_project() {
  copy_example_app "$1"
  cat >"$1/plain.h" <<'PLAIN_H'
#pragma once
#define PLAIN_SCALE 3.0f
PLAIN_H
  cat >"$1/plain.cu" <<'PLAIN_CU'
#include "plain.h"
__global__ void plain_scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= PLAIN_SCALE;
}
PLAIN_CU
  cat >"$1/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.24)
project(kopt_noop LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 90)
add_executable(app main.cu check.cpp plain.cu)
target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-O3>)
if(KCC_LAUNCHER)
  set_property(TARGET app PROPERTY CUDA_COMPILER_LAUNCHER "${KCC_LAUNCHER}")
endif()
CMAKE
}

# The first build of a configured project: main.cu is rewritten with both
# variants from the project cache (its direct-mode manifest recorded), plain.cu
# goes to nvcc on the fast path, check.cpp to the host compiler.
expect_first_build_stats() {
  expect_stat hits_project 2
  expect_stat misses 0
  expect_stat errors 0
  expect_stat direct_misses 1
  expect_stat direct_hits 0
  expect_stat fallback_no_pragma 1
  expect_no_other_fallback fallback_no_pragma
}

# Nothing was compiled since zero_stats.
expect_no_compile_stats() {
  local name
  for name in hits_project hits_user misses direct_hits direct_misses; do
    expect_stat "$name" 0
  done
  expect_no_other_fallback
}

# A build through kcc (CMAKE_CUDA_COMPILER=kcc) with Ninja: once built, a
# second build does nothing (`ninja -n` says "no work to do"); touching a
# header rebuilds exactly the objects that include it. kcc's dependency file
# names only real files (issue 32: `main.cu (kopt variant of matmul)`, from the
# rewritten source's #line, made every build a rebuild).
source "$(dirname "${BASH_SOURCE[0]}")/../noop-project.bash"

# Ninja plans exactly the steps given (its descriptions), in any order.
expect_ninja_plans() {
  local planned expected
  planned=$(ninja -C build -n | sed -n 's/^\[[0-9]*\/[0-9]*\] //p' | sort)
  expected=$(printf '%s\n' "$@" | sort)
  [[ $planned == "$expected" ]] || fail "ninja plans: $planned; expected: $expected"
}

make_noop_project src
"$CMAKE" -S src -B build -G Ninja -DCMAKE_CUDA_COMPILER="$KCC" >configure.log

section "first build"
zero_stats
"$CMAKE" --build build >build1.log 2>&1 || fail "the build failed: $(cat build1.log)"
expect_first_build_stats
expect_file build/app
# What Ninja read from kcc's dependency file: real files only.
deps=$(ninja -C build -t deps CMakeFiles/app.dir/main.cu.o)
[[ $deps == *"src/main.cu"* && $deps == *"src/check.h"* ]] || fail "main.cu.o's dependencies: $deps"
[[ $deps != *"kopt variant"* && $deps != *".kopt/"* ]] ||
  fail "main.cu.o's dependencies name kopt's files: $deps"

section "no-op build"
zero_stats
plan=$(ninja -C build -n)
[[ $plan == *"ninja: no work to do."* ]] || fail "ninja -n after a build plans: $plan"
ninja -C build >build2.log 2>&1
expect_no_compile_stats

section "touching check.h rebuilds main.cu.o and check.cpp.o, then links"
touch src/check.h
expect_ninja_plans "Building CUDA object CMakeFiles/app.dir/main.cu.o" \
  "Building CXX object CMakeFiles/app.dir/check.cpp.o" "Linking CXX executable app"
zero_stats
ninja -C build >build3.log 2>&1 || fail "the rebuild failed: $(cat build3.log)"
# main.cu again: its manifest still holds (check.h's content did not change).
expect_stat direct_hits 1
expect_stat direct_misses 0
expect_stat hits_project 0
expect_no_other_fallback
[[ $(ninja -C build -n) == *"ninja: no work to do."* ]] || fail "not a no-op after the rebuild"

section "touching plain.h rebuilds plain.cu.o only, then links"
touch src/plain.h
expect_ninja_plans "Building CUDA object CMakeFiles/app.dir/plain.cu.o" "Linking CXX executable app"
zero_stats
ninja -C build >build4.log 2>&1 || fail "the rebuild failed: $(cat build4.log)"
expect_stat fallback_no_pragma 1
expect_stat direct_hits 0
expect_stat direct_misses 0
expect_no_other_fallback fallback_no_pragma
expect_no_temporaries build

# The same project with Unix Makefiles and kcc as the CUDA compiler launcher
# (CUDA_COMPILER_LAUNCHER, as kopt_optimize_target() sets it): a second make
# compiles nothing, `make -q` finds every object up to date, and touching a
# header rebuilds exactly the objects that include it.
source "$(dirname "${BASH_SOURCE[0]}")/../noop-project.bash"

make_noop_project src
"$CMAKE" -S src -B build -G "Unix Makefiles" -DCMAKE_CUDA_COMPILER="$NVCC" \
  -DKCC_LAUNCHER="$KCC" >configure.log

objects=(CMakeFiles/app.dir/main.cu.o CMakeFiles/app.dir/check.cpp.o CMakeFiles/app.dir/plain.cu.o)
# Which of the objects make would remake (make -q on the target's own makefile).
stale_objects() {
  local object
  for object in "${objects[@]}"; do
    make -C build -q -f CMakeFiles/app.dir/build.make "$object" >/dev/null 2>&1 || echo "$object"
  done
}
# The objects a make's output says it built.
built_objects() {
  sed -n 's/.*Building [A-Z]* object \(CMakeFiles[^ ]*\.o\)$/\1/p' "$1" | sort
}

section "first build"
zero_stats
make -C build >build1.log 2>&1 || fail "the build failed: $(cat build1.log)"
expect_first_build_stats
expect_file build/app

section "no-op build"
stale=$(stale_objects)
[[ -z $stale ]] || fail "after a build make -q finds stale: $stale"
zero_stats
make -C build >build2.log 2>&1
[[ -z $(built_objects build2.log) ]] || fail "a second make built: $(built_objects build2.log)"
expect_no_compile_stats

section "touching check.h rebuilds main.cu.o and check.cpp.o"
touch src/check.h
zero_stats
make -C build >build3.log 2>&1 || fail "the rebuild failed: $(cat build3.log)"
[[ $(built_objects build3.log) == "$(printf '%s\n' CMakeFiles/app.dir/check.cpp.o \
  CMakeFiles/app.dir/main.cu.o)" ]] || fail "after touching check.h make built: $(built_objects build3.log)"
expect_stat direct_hits 1
expect_stat direct_misses 0
expect_no_other_fallback

section "touching plain.h rebuilds plain.cu.o only"
touch src/plain.h
zero_stats
make -C build >build4.log 2>&1 || fail "the rebuild failed: $(cat build4.log)"
[[ $(built_objects build4.log) == CMakeFiles/app.dir/plain.cu.o ]] ||
  fail "after touching plain.h make built: $(built_objects build4.log)"
expect_stat fallback_no_pragma 1
expect_stat direct_hits 0
expect_no_other_fallback fallback_no_pragma
stale=$(stale_objects)
[[ -z $stale ]] || fail "after the rebuilds make -q finds stale: $stale"
expect_no_temporaries build

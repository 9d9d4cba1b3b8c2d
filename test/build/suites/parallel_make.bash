# `make -j` with one shared user cache: 4 compiles of examples/app's main.cu (each
# its own object, so its own direct-mode manifest) and 3 of a source without a
# pragma, 4 at a time. Every compile is counted exactly once, whatever the
# order (the counters are sharded and locked: memory/cache/ShardedCounters.h).
copy_example_app src
printf '__global__ void plain(float *x) { x[threadIdx.x] += 1.0f; }\n' >src/plain.cu
{
  echo "KCC := $KCC"
  echo "annotated := $(echo out/main{1..4}.o)"
  echo "plain := $(echo out/plain{1..3}.o)"
  echo 'all: $(annotated) $(plain)'
  echo 'out/main%.o: src/main.cu'
  printf '\t@mkdir -p out\n\t$(KCC) -O3 -arch=sm_90 -c $< -o $@\n'
  echo 'out/plain%.o: src/plain.cu'
  printf '\t@mkdir -p out\n\t$(KCC) -O3 -arch=sm_90 -c $< -o $@\n'
} >Makefile

section "first round: each annotated compile misses direct mode and hits the project cache"
zero_stats
make -j4 >round1.log 2>&1 || fail "make failed: $(cat round1.log)"
expect_stat direct_misses 4
expect_stat direct_hits 0
expect_stat hits_project 8
expect_stat misses 0
expect_stat errors 0
expect_stat fallback_no_pragma 3
expect_no_other_fallback fallback_no_pragma
for n in 1 2 3 4; do expect_file out/main$n.o; done

section "second round: every annotated compile is a direct hit"
rm -rf out
zero_stats
make -j4 >round2.log 2>&1 || fail "make failed: $(cat round2.log)"
expect_stat direct_hits 4
expect_stat direct_misses 0
expect_stat hits_project 0
expect_stat fallback_no_pragma 3
expect_no_other_fallback fallback_no_pragma
expect_no_temporaries .

# Installed GPU tests: `cd <prefix>/libexec/kopt/tests && ctest -L gpu`.
add_test(gpu.all "${CMAKE_CURRENT_LIST_DIR}/kopt-gpu-tests")
set_tests_properties(gpu.all PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
# ctest runs them in this directory (CMAKE_CURRENT_LIST_DIR is not set here).
add_test(gpu.llm-loop "llm-loop.sh" "../../../bin/kopt" "llm")
set_tests_properties(gpu.llm-loop PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
add_test(gpu.parallel-transforms "parallel-transforms.sh" "../../../bin/kopt" "parallel-kernels.cu")
set_tests_properties(gpu.parallel-transforms PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)
add_test(gpu.slow-kernel "slow-kernel.sh" "../../../bin/kopt" "slow")
set_tests_properties(gpu.slow-kernel PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300)
add_test(gpu.record-solver "record-solver.sh" "../../../bin/kopt" "record")
set_tests_properties(gpu.record-solver PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 600)
add_test(gpu.queue-worker "queue-worker.sh" "../../../bin/kopt" "../../../bin/kcc" "queue")
set_tests_properties(gpu.queue-worker PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300)

# Installed GPU tests: `cd <prefix>/libexec/kopt/tests && ctest -L gpu`.
add_test(gpu.all "${CMAKE_CURRENT_LIST_DIR}/kopt-gpu-tests")
set_tests_properties(gpu.all PROPERTIES LABELS gpu SKIP_RETURN_CODE 77)

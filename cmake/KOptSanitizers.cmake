# KOPT_SANITIZE=ON builds everything with AddressSanitizer and
# UndefinedBehaviorSanitizer (docs/developing.md#sanitizers): a separate build
# directory for the unit tests, never the shipped binaries. A UB report aborts
# the test that caused it.
option(KOPT_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(KOPT_SANITIZE)
  set(kopt_sanitize_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
  add_compile_options(${kopt_sanitize_flags})
  add_link_options(${kopt_sanitize_flags})
endif()

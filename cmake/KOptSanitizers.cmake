# KOPT_SANITIZE=ON builds everything with AddressSanitizer and
# UndefinedBehaviorSanitizer (docs/developing.md#sanitizers): a separate build
# directory for the unit tests, never the shipped binaries. A UB report aborts
# the test that caused it.
option(KOPT_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(KOPT_SANITIZE)
  # No vptr check: the code that links clang is built without RTTI, as clang
  # itself is, and the check reads RTTI (every shared_ptr's control block was
  # reported as "invalid vptr").
  set(kopt_sanitize_flags -fsanitize=address,undefined -fno-sanitize=vptr
    -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  add_compile_options(${kopt_sanitize_flags})
  add_link_options(${kopt_sanitize_flags})
  # Debian's LLVM and clang libraries are not instrumented: the allocator
  # inlined into kopt's code poisons slabs that their code then uses without
  # unpoisoning (use-after-poison inside clang's FileManager). The tests run
  # with the manual poisoning off; every other AddressSanitizer check stays.
  set(KOPT_SANITIZE_TEST_ENVIRONMENT "ASAN_OPTIONS=allow_user_poisoning=0")
endif()

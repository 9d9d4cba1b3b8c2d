# Clang 19 and LLVM, linked statically so that one kopt binary runs on machines
# without clang (the GPU machine has none). Debian's ClangConfig links the shared
# libLLVM, so the static archives are named here directly.
find_program(KOPT_LLVM_CONFIG NAMES llvm-config-19 llvm-config
  HINTS /usr/lib/llvm-19/bin REQUIRED)
execute_process(COMMAND ${KOPT_LLVM_CONFIG} --version OUTPUT_VARIABLE KOPT_LLVM_VERSION
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT KOPT_LLVM_VERSION MATCHES "^19\\.")
  message(FATAL_ERROR "kopt needs LLVM/Clang 19 (clang 14 cannot parse CUDA 13 headers); "
    "${KOPT_LLVM_CONFIG} reports ${KOPT_LLVM_VERSION}. Run scripts/install-deps.sh.")
endif()
foreach(query includedir libdir prefix)
  execute_process(COMMAND ${KOPT_LLVM_CONFIG} --${query} OUTPUT_VARIABLE value
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(TOUPPER ${query} key)
  set(KOPT_LLVM_${key} ${value})
endforeach()

# LLVM components the clang front end needs (clang-check's set plus their users).
set(KOPT_LLVM_COMPONENTS support option core frontendopenmp frontendhlsl targetparser mc
  mcparser bitreader bitstreamreader binaryformat profiledata remarks demangle
  windowsdriver frontenddriver)
execute_process(COMMAND ${KOPT_LLVM_CONFIG} --link-static --libfiles ${KOPT_LLVM_COMPONENTS}
  OUTPUT_VARIABLE llvm_libfiles OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "llvm-config could not list static LLVM libraries")
endif()
separate_arguments(llvm_libfiles UNIX_COMMAND "${llvm_libfiles}")

set(KOPT_CLANG_LIBS clangTooling clangFrontend clangDriver clangParse clangSema
  clangAnalysis clangASTMatchers clangAST clangEdit clangLex clangBasic clangSerialization
  clangRewrite clangToolingCore clangSupport clangAPINotes)
set(clang_libfiles)
foreach(lib ${KOPT_CLANG_LIBS})
  set(path ${KOPT_LLVM_LIBDIR}/lib${lib}.a)
  if(NOT EXISTS ${path})
    message(FATAL_ERROR "missing ${path}: install libclang-19-dev")
  endif()
  list(APPEND clang_libfiles ${path})
endforeach()

# System libraries LLVM's archives need, preferring static archives so that the
# binary depends on nothing beyond glibc and libstdc++.
find_library(KOPT_ZSTD_STATIC NAMES libzstd.a REQUIRED)
find_library(KOPT_Z_STATIC NAMES libz.a REQUIRED)
find_package(Threads REQUIRED)

# LLVM Support alone: every module uses it (llvm::Expected, paths, processes).
execute_process(COMMAND ${KOPT_LLVM_CONFIG} --link-static --libfiles support
  OUTPUT_VARIABLE support_libfiles OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(support_libfiles UNIX_COMMAND "${support_libfiles}")
add_library(kopt_llvm_support INTERFACE)
target_include_directories(kopt_llvm_support SYSTEM INTERFACE ${KOPT_LLVM_INCLUDEDIR})
target_link_libraries(kopt_llvm_support INTERFACE ${support_libfiles}
  ${KOPT_ZSTD_STATIC} ${KOPT_Z_STATIC} Threads::Threads ${CMAKE_DL_LIBS})
target_compile_definitions(kopt_llvm_support INTERFACE _GNU_SOURCE __STDC_CONSTANT_MACROS
  __STDC_FORMAT_MACROS __STDC_LIMIT_MACROS)

# Everything clang: archives in a group because they reference one another.
add_library(kopt_clang_static INTERFACE)
# Clang's classes are built without RTTI; code deriving from them must match.
target_compile_options(kopt_clang_static INTERFACE -fno-rtti)
target_link_libraries(kopt_clang_static INTERFACE kopt_llvm_support
  "-Wl,--start-group" ${clang_libfiles} ${llvm_libfiles} "-Wl,--end-group"
  ${KOPT_ZSTD_STATIC} ${KOPT_Z_STATIC} Threads::Threads ${CMAKE_DL_LIBS})

# lld links the large static binary several times faster than ld.bfd.
find_program(KOPT_LLD NAMES ld.lld-19 ld.lld HINTS ${KOPT_LLVM_PREFIX}/bin)
if(KOPT_LLD)
  add_link_options(-fuse-ld=lld)
endif()

set(KOPT_CLANG_RESOURCE_DIR ${KOPT_LLVM_LIBDIR}/clang/19)
if(NOT EXISTS ${KOPT_CLANG_RESOURCE_DIR}/include/__clang_cuda_runtime_wrapper.h)
  message(FATAL_ERROR "clang's resource headers not found under ${KOPT_CLANG_RESOURCE_DIR}")
endif()
message(STATUS "kopt: clang ${KOPT_LLVM_VERSION}, static, resource headers from ${KOPT_CLANG_RESOURCE_DIR}")

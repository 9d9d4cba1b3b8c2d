# Clang 19 and LLVM, linked statically so that one kopt binary runs on machines
# without clang (the GPU machine has none). Debian's ClangConfig links the shared
# libLLVM, so the static archives are named here directly. The clang plugin is
# the exception: it links the shared libraries (below).
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

# The shared libraries clang++-19 itself loads. The clang plugin links these
# instead of the archives: a plugin must share clang++'s one copy of LLVM and
# clang (their option registries, pass and plugin registries are globals).
execute_process(COMMAND ${KOPT_LLVM_CONFIG} --link-shared --libfiles support
  OUTPUT_VARIABLE KOPT_LIBLLVM_SHARED OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX MATCH "^[0-9]+\\.[0-9]+" llvm_major_minor ${KOPT_LLVM_VERSION})
find_file(KOPT_LIBCLANG_CPP_SHARED NAMES libclang-cpp.so.${llvm_major_minor} libclang-cpp.so
  HINTS ${KOPT_LLVM_LIBDIR} NO_DEFAULT_PATH)

# Which LLVM and clang a binary gets is the choice of the target being linked
# ($<TARGET_PROPERTY:P> in a link interface reads the target being linked):
# the static archives, or, where its KOPT_SHARED_LLVM property is ON, the
# shared libraries above. Module libraries link kopt_llvm_support/kopt_clang
# and serve both.
set(kopt_shared_llvm "$<BOOL:$<TARGET_PROPERTY:KOPT_SHARED_LLVM>>")
function(kopt_link_llvm_either target shared)
  set(static_items)
  foreach(item ${ARGN})
    list(APPEND static_items "$<$<NOT:${kopt_shared_llvm}>:${item}>")
  endforeach()
  target_link_libraries(${target} INTERFACE "$<${kopt_shared_llvm}:${shared}>" ${static_items})
endfunction()

# LLVM Support alone: every module uses it (llvm::Expected, paths, processes).
execute_process(COMMAND ${KOPT_LLVM_CONFIG} --link-static --libfiles support
  OUTPUT_VARIABLE support_libfiles OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(support_libfiles UNIX_COMMAND "${support_libfiles}")
add_library(kopt_llvm_support INTERFACE)
target_include_directories(kopt_llvm_support SYSTEM INTERFACE ${KOPT_LLVM_INCLUDEDIR})
kopt_link_llvm_either(kopt_llvm_support "${KOPT_LIBLLVM_SHARED}" ${support_libfiles}
  ${KOPT_ZSTD_STATIC} ${KOPT_Z_STATIC})
target_link_libraries(kopt_llvm_support INTERFACE Threads::Threads ${CMAKE_DL_LIBS})
target_compile_definitions(kopt_llvm_support INTERFACE _GNU_SOURCE __STDC_CONSTANT_MACROS
  __STDC_FORMAT_MACROS __STDC_LIMIT_MACROS)

# Everything clang: archives in a group because they reference one another.
add_library(kopt_clang INTERFACE)
# Clang's classes are built without RTTI; code deriving from them must match.
target_compile_options(kopt_clang INTERFACE -fno-rtti)
target_link_libraries(kopt_clang INTERFACE kopt_llvm_support)
kopt_link_llvm_either(kopt_clang "${KOPT_LIBCLANG_CPP_SHARED}"
  "-Wl,--start-group" ${clang_libfiles} ${llvm_libfiles} "-Wl,--end-group"
  ${KOPT_ZSTD_STATIC} ${KOPT_Z_STATIC})

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

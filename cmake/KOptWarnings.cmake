# Warning flags shared by every kopt target.
add_library(kopt_warnings INTERFACE)
target_compile_options(kopt_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow
  -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough)
if(KOPT_WERROR)
  target_compile_options(kopt_warnings INTERFACE -Werror)
endif()

# Sources that include LLVM/clang headers compile those headers as system headers.
function(kopt_add_library name)
  add_library(${name} STATIC ${ARGN})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
  target_link_libraries(${name} PRIVATE kopt_warnings)
endfunction()

# `cmake --build build --target bundle`: one tarball of the installed tree that
# unpacks anywhere (everything is found relative to bin/kopt) and runs on the
# GPU machine. Fails if the tarball reaches 64 MiB, the device tool's carry limit.
set(KOPT_BUNDLE_NAME kopt-${PROJECT_VERSION}-linux-x86_64)
set(KOPT_BUNDLE_FILE ${PROJECT_BINARY_DIR}/${KOPT_BUNDLE_NAME}.tar.xz)
add_custom_target(bundle
  COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DNAME=${KOPT_BUNDLE_NAME}
    -DOUTPUT=${KOPT_BUNDLE_FILE} -DLIMIT_BYTES=67108864
    -P ${PROJECT_SOURCE_DIR}/cmake/MakeBundle.cmake
  DEPENDS kopt
  COMMENT "Bundling the install tree into ${KOPT_BUNDLE_FILE}" VERBATIM)
# Everything installed must be built first.
add_dependencies(bundle kopt kcc kopt-eval-rate)
foreach(optional kopt-gpu-tests kopt-clang-plugin)
  if(TARGET ${optional})
    add_dependencies(bundle ${optional})
  endif()
endforeach()

# CUDA 13: headers for the driver API, NVRTC and CUPTI. Nothing here links libcuda:
# the driver is loaded at run time (evaluator/device/CudaDriver), so kcc runs without it.
if(NOT DEFINED CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
  set(CUDAToolkit_ROOT /usr/local/cuda)
endif()
find_package(CUDAToolkit 13 REQUIRED)
message(STATUS "kopt: CUDA ${CUDAToolkit_VERSION} at ${CUDAToolkit_BIN_DIR}")
add_library(kopt_cuda_headers INTERFACE)
target_include_directories(kopt_cuda_headers SYSTEM INTERFACE ${CUDAToolkit_INCLUDE_DIRS})

# CUPTI's range profiler (evaluator/profile/KernelProfiler): headers at build time, the
# library dlopen'ed at run time (this path is the fallback after the loader's).
find_path(KOPT_CUPTI_INCLUDE_DIR cupti_range_profiler.h
  HINTS ${CUDAToolkit_INCLUDE_DIRS} ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/include REQUIRED)
find_file(KOPT_CUPTI_LIBRARY libcupti.so.13
  HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64)
if(NOT KOPT_CUPTI_LIBRARY)
  set(KOPT_CUPTI_LIBRARY "${CUDAToolkit_LIBRARY_DIR}/libcupti.so.13")
endif()
target_include_directories(kopt_cuda_headers SYSTEM INTERFACE ${KOPT_CUPTI_INCLUDE_DIR})

# CUDA 13: headers for the driver API, NVRTC and CUPTI. Nothing here links libcuda:
# the driver is loaded at run time (evaluator/CudaDriver), so kcc runs without it.
if(NOT DEFINED CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
  set(CUDAToolkit_ROOT /usr/local/cuda)
endif()
find_package(CUDAToolkit 13 REQUIRED)
message(STATUS "kopt: CUDA ${CUDAToolkit_VERSION} at ${CUDAToolkit_BIN_DIR}")
add_library(kopt_cuda_headers INTERFACE)
target_include_directories(kopt_cuda_headers SYSTEM INTERFACE ${CUDAToolkit_INCLUDE_DIRS})

// Shipped by kopt. clang 19's CUDA wrapper includes texture_fetch_functions.h (the texture
// reference functions, which CUDA 12 removed) after CUDA's math headers. kopt uses that
// place to declare what CUDA's headers give nvcc and clang's wrapper does not.
#pragma once
#include "kopt/host_min_max.h"
#include "kopt/surface_functions.h"

// Nor does the wrapper include nvcc's crt/sm_90_rt.h: the thread block cluster
// intrinsics that variants use (split-k) are declared here so that they parse.
__device__ void __cluster_barrier_arrive();
__device__ void __cluster_barrier_wait();
__device__ unsigned __clusterRelativeBlockRank();
__device__ void *__cluster_map_shared_rank(const void *ptr, unsigned target_block_rank);

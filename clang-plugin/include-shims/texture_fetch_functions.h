// Shipped by kopt. clang 19's CUDA wrapper includes texture_fetch_functions.h, which CUDA 13
// no longer provides in a form clang parses; kopt's parse needs none of it.
#pragma once

// Nor does the wrapper include nvcc's crt/sm_90_rt.h: the thread block cluster
// intrinsics that variants use (split-k) are declared here so that they parse.
__device__ void __cluster_barrier_arrive();
__device__ void __cluster_barrier_wait();
__device__ unsigned __clusterRelativeBlockRank();
__device__ void *__cluster_map_shared_rank(const void *ptr, unsigned target_block_rank);

// Stands for CUDA's <cooperative_groups.h> in emulated kernels: what the
// emulation supports of it is in cluster.h, which cuda_threads.h includes.
#pragma once
#include "cuda_threads.h"

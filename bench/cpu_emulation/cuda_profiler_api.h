// cudaProfilerStart and cudaProfilerStop come with cuda_runtime.h's stand-in.
#pragma once

#include "cuda_runtime.h"

// Device helpers in a header next to the kernels.
#pragma once

#define HELPER_SCALE 2.0f

__device__ inline float twice(float x) { return HELPER_SCALE * x; }

__device__ inline float unused_header_helper(float x) { return x - 1.0f; }

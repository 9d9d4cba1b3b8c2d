#pragma once
// Device helpers in a header, as real projects keep them.
__device__ inline float relu(float v) { return v > 0.0f ? v : 0.0f; }

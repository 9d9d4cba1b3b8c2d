#pragma once
__device__ inline float plus_one(float v) { return v + 1.0f; }

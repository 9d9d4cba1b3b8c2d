// A user header whose pragma has a mistake.
#pragma once

#pragma kopt optimize launch(grid: 1; blok: 32)
__global__ void broken(float *x) { x[threadIdx.x] = 0.0f; }

#include "scale.cuh"
#include "also_scale.cuh"

void run(float *x, int n) { scale<<<(n + 255) / 256, 256>>>(n, 2.0f, x); }

// class: other
// Dot product by atomics in the manner of the introductory CUDA books' first reduction: a
// fixed grid of threads strides over the vectors with a while loop (tid += blockDim.x *
// gridDim.x) and every product goes to one float in global memory through atomicAdd; the
// host zeroes the result first. No shared memory, no histogram, no second pass.
// Sizes: n = 16777216, 1024 blocks of 256 threads.
// Naive estimate on the H100: 1.7e7 atomic additions to one address, serialized in L2:
// ~10-20 ms.
// Check: the result against a double sum (absolute tolerance 1: float atomics in any
// order on a sum of 1.7e7 terms of either sign).
#include "textbook_util.h"

#define N 16777216
#define THREADS_PER_BLOCK 256
#define BLOCKS_PER_GRID 1024

#pragma kopt optimize launch(grid: BLOCKS_PER_GRID; block: THREADS_PER_BLOCK) args(n = N) \
    buffers(a[n] in, b[n] in, c[1] inout) tol(rtol = 1e-3, atol = 1.0)
__global__ void dot(const float *a, const float *b, float *c, int n)
{
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    while (tid < n) {
        atomicAdd(c, a[tid] * b[tid]);
        tid += blockDim.x * gridDim.x;
    }
}

int main(void)
{
    float *dev_a = bench::uniformBuffer(N, 351);
    float *dev_b = bench::uniformBuffer(N, 352);
    float *dev_c = bench::zeroBuffer<float>(1);

    float ms = bench::medianMs([&] {
        cudaMemset(dev_c, 0, sizeof(float));
        dot<<<BLOCKS_PER_GRID, THREADS_PER_BLOCK>>>(dev_a, dev_b, dev_c, N);
    });

    double sum = 0;
    for (size_t i = 0; i < N; i++)
        sum += double(bench::uniformAt(351, i)) * bench::uniformAt(352, i);
    return bench::report(__FILE__, ms, bench::checkOutput(dev_c, 1, 1, [&](size_t) { return sum; }, 1e-3, 1.0));
}

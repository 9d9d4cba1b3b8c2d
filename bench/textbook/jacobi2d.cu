// class: stencil
// 2-D Jacobi relaxation (5-point average) in the manner of a CUDA course exercise: one
// kernel reads `in` and writes `out`, the host swaps the two pointers after each sweep;
// n is a parameter; i from y and j from x with an interior guard; both arrays start
// equal so that the fixed boundary is the same in each.
// Sizes: n = 2048 (16 MB an array, resident in L2), 200 sweeps.
// Naive estimate on the H100: ~10 us a sweep plus launch latency: ~2-4 ms.
// Check: the final grid in full against the same sweeps in double on the host.
#include "textbook_util.h"

#define SIZE 2048
#define ITERATIONS 200

#pragma kopt optimize launch(grid: (n + 31) / 32, (n + 7) / 8; block: 32, 8) args(n = SIZE) \
    buffers(in[n * n] in, out[n * n] out) tol(rtol = 1e-5, atol = 1e-6)
__global__ void jacobi2d_step(const float *in, float *out, int n)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1) {
        out[i * n + j] = 0.2f * (in[i * n + j] + in[i * n + j - 1] + in[i * n + j + 1] +
                                 in[(i + 1) * n + j] + in[(i - 1) * n + j]);
    }
}

int main()
{
    int n = SIZE;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *d_a = bench::uniformBuffer((size_t)n * n, 251);
    float *d_b = bench::deviceAlloc<float>((size_t)n * n);
    float *d_init = textbook::snapshot(d_a, (size_t)n * n);

    dim3 threads(32, 8);
    dim3 blocks((n + 31) / 32, (n + 7) / 8);
    float *d_result = nullptr;
    float ms = bench::medianMsWithReset(
        [&] {
            cudaMemcpy(d_a, d_init, bytes, cudaMemcpyDeviceToDevice);
            cudaMemcpy(d_b, d_init, bytes, cudaMemcpyDeviceToDevice);
        },
        [&] {
            float *src = d_a, *dst = d_b;
            for (int iter = 0; iter < ITERATIONS; iter++) {
                jacobi2d_step<<<blocks, threads>>>(src, dst, n);
                float *tmp = src;
                src = dst;
                dst = tmp;
            }
            d_result = src;
        });

    std::vector<double> a = textbook::widen(textbook::uniformHost((size_t)n * n, 251)), b = a;
    for (int iter = 0; iter < ITERATIONS; iter++) {
        for (size_t i = 1; i + 1 < (size_t)n; i++)
            for (size_t j = 1; j + 1 < (size_t)n; j++)
                b[i * n + j] = double(0.2f) * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] +
                                               a[(i + 1) * n + j] + a[(i - 1) * n + j]);
        a.swap(b);
    }
    return bench::report(__FILE__, ms, textbook::checkAll(d_result, a, 1e-4, 1e-5));
}

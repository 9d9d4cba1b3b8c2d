// class: linalg
// Matrix product with one thread an output over a 1-D grid, as tutorials and generated code
// often write it: the global index is split into row = idx / N and col = idx % N, the bound is
// idx < M * N, and the launch is (M * N + 255) / 256 blocks of 256. No transform that tiles a
// product sees a row and a column here until the grid is made 2-D (grid-2d).
// Naive estimate on the H100: 2048 x 2048 x 2048 = 8.6e9 multiply-adds, like matmul_named: ~3 ms.
// Check: 2048 sampled elements of C recomputed in double.
#include "textbook_util.h"

#define M 2048
#define N 2048
#define K 2048

#pragma kopt optimize launch(grid: (m * n + 255) / 256; block: 256) args(m = M, n = N, k = K) \
    buffers(A[m * k] in, B[k * n] in, C[m * n] out) tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void matmul_flat(const float *A, const float *B, float *C, int m, int n, int k)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < m * n) {
        int row = idx / n;
        int col = idx % n;
        float sum = 0.0f;
        for (int i = 0; i < k; ++i)
            sum += A[row * k + i] * B[i * n + col];
        C[idx] = sum;
    }
}

int main()
{
    int m = M, n = N, k = K;
    float *A = bench::uniformBuffer((size_t)m * k, 41);
    float *B = bench::uniformBuffer((size_t)k * n, 42);
    float *C = bench::deviceAlloc<float>((size_t)m * n);

    int blocks = (m * n + 255) / 256;
    float ms = bench::medianMs([&] { matmul_flat<<<blocks, 256>>>(A, B, C, m, n, k); });

    auto ref = [&](size_t idx) {
        size_t row = idx / n, col = idx % n;
        double sum = 0;
        for (size_t i = 0; i < (size_t)k; i++)
            sum += double(bench::uniformAt(41, row * k + i)) * bench::uniformAt(42, i * n + col);
        return sum;
    };
    return bench::report(__FILE__, ms, bench::checkOutput(C, (size_t)m * n, 2048, ref, 1e-3, 1e-3));
}

// class: linalg
// C = alpha * A^T * B + beta * C in the manner of a BLAS reference kernel ported to CUDA
// (sgemm "TN"): A is stored K x M, so the operand is read transposed (A[k*M+i]); sizes
// and scalars are parameters; the row index i comes from x and the column j from y, so
// the writes to C are strided; a register accumulator `acc`, `k += 1`, an early return.
// Sizes: M = 4096, N = 3968, K = 2048 (3.3e10 multiply-adds).
// Naive estimate on the H100: like a naive product of that size (~13 ms), with the
// strided C traffic on top: ~15-20 ms.
// Check: 2048 sampled elements of C recomputed in double.
#include "textbook_util.h"

#define M_SIZE 4096
#define N_SIZE 3968
#define K_SIZE 2048
#define BLOCK_X 16
#define BLOCK_Y 16

#pragma kopt optimize launch(grid: (m + BLOCK_X - 1) / BLOCK_X, (n + BLOCK_Y - 1) / BLOCK_Y; \
    block: BLOCK_X, BLOCK_Y) args(m = M_SIZE, n = N_SIZE, k = K_SIZE, alpha = 0.5f, beta = -1.0f) \
    buffers(A[k * m] in, B[k * n] in, C[m * n] inout) tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void sgemm_tn(int m, int n, int k, float alpha, const float *A, const float *B,
                         float beta, float *C)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= m || j >= n)
        return;

    float acc = 0.0f;
    for (int l = 0; l < k; l += 1)
        acc += A[l * m + i] * B[l * n + j];
    C[i * n + j] = alpha * acc + beta * C[i * n + j];
}

int main()
{
    const int m = M_SIZE, n = N_SIZE, k = K_SIZE;
    const float alpha = 0.5f, beta = -1.0f;
    float *A = bench::uniformBuffer((size_t)k * m, 21);
    float *B = bench::uniformBuffer((size_t)k * n, 22);
    float *C = bench::uniformBuffer((size_t)m * n, 23);
    float *C0 = textbook::snapshot(C, (size_t)m * n);

    dim3 threads(BLOCK_X, BLOCK_Y);
    dim3 blocks((m + BLOCK_X - 1) / BLOCK_X, (n + BLOCK_Y - 1) / BLOCK_Y);
    float ms = bench::medianMsWithReset([&] { textbook::restore(C, C0, (size_t)m * n); },
                                        [&] { sgemm_tn<<<blocks, threads>>>(m, n, k, alpha, A, B, beta, C); });

    auto ref = [&](size_t idx) {
        size_t i = idx / n, j = idx % n;
        double acc = 0;
        for (size_t l = 0; l < (size_t)k; l++)
            acc += double(bench::uniformAt(21, l * m + i)) * bench::uniformAt(22, l * n + j);
        return alpha * acc + beta * double(bench::uniformAt(23, idx));
    };
    return bench::report(__FILE__, ms, bench::checkOutput(C, (size_t)m * n, 2048, ref, 1e-3, 1e-3));
}

// class: solver
// Cholesky factorization A = L L^T, right-looking, in the manner of a course assignment's
// first GPU version: 2-D array parameters with a macro size (float A[][N]), a host loop
// over k with three launches each: one thread takes the square root of the pivot, one
// thread per row below it divides the column, and a 2-D kernel updates the lower
// trailing block (the `if (j <= i)` triangle) with a grid that shrinks with k.
// L overwrites the lower triangle; the upper triangle keeps the input.
// Sizes: N = 2048 (6144 launches, 2.9e9 multiply-adds).
// Naive estimate on the H100: ~20-40 ms, much of it launch latency.
// Check: all of A against the same steps in double on the host, from the same
// symmetric positive definite float input.
#include "textbook_util.h"

#define N 2048
#define BS 16

#pragma kopt optimize launch(grid: 1; block: 1) args(k = 0) buffers(A[N * N] inout) tol(rtol = 1e-3, atol = 1e-5)
__global__ void chol_sqrt(float A[][N], int k)
{
    A[k][k] = sqrtf(A[k][k]);
}

#pragma kopt optimize launch(grid: (N - k - 1 + 255) / 256; block: 256) args(k = 0) buffers(A[N * N] inout) \
    tol(rtol = 1e-3, atol = 1e-5)
__global__ void chol_column(float A[][N], int k)
{
    int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        A[i][k] = A[i][k] / A[k][k];
}

#pragma kopt optimize launch(grid: (N - k - 1 + BS - 1) / BS, (N - k - 1 + BS - 1) / BS; block: BS, BS) \
    args(k = 0) buffers(A[N * N] inout) tol(rtol = 1e-3, atol = 1e-5)
__global__ void chol_update(float A[][N], int k)
{
    int i = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
    int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N && j < N) {
        if (j <= i)
            A[i][j] -= A[i][k] * A[j][k];
    }
}

int main()
{
    std::vector<float> A0 = textbook::symmetricPositiveDefinite(N, 171);
    float *d_A = textbook::upload(A0);
    float *d_A0 = textbook::snapshot(d_A, (size_t)N * N);
    float (*A)[N] = (float (*)[N])d_A;

    float ms = bench::medianMsWithReset([&] { textbook::restore(d_A, d_A0, (size_t)N * N); },
                                        [&] {
                                            for (int k = 0; k < N; k++) {
                                                int rest = N - k - 1;
                                                chol_sqrt<<<1, 1>>>(A, k);
                                                if (rest == 0)
                                                    break;
                                                chol_column<<<(rest + 255) / 256, 256>>>(A, k);
                                                dim3 grid((rest + BS - 1) / BS, (rest + BS - 1) / BS);
                                                chol_update<<<grid, dim3(BS, BS)>>>(A, k);
                                            }
                                        },
                                        1, 7);

    std::vector<double> a = textbook::widen(A0);
    for (size_t k = 0; k < N; k++) {
        a[k * N + k] = std::sqrt(a[k * N + k]);
        for (size_t i = k + 1; i < N; i++)
            a[i * N + k] /= a[k * N + k];
        for (size_t i = k + 1; i < N; i++)
            for (size_t j = k + 1; j <= i; j++)
                a[i * N + j] -= a[i * N + k] * a[j * N + k];
    }
    return bench::report(__FILE__, ms, textbook::checkAll(d_A, a, 1e-3, 1e-5));
}

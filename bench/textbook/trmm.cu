// class: linalg
// Triangular matrix product B_out = alpha * (I + L^T) * B, with L the strictly lower part
// of A (a unit lower-triangular A in BLAS terms), in the manner of a BLAS trmm reference
// loop nest moved to CUDA out of place: the triangular loop `for (k = i + 1; k < M; k++)`
// reads A transposed (A[k*M+i]); the register `temp` starts from B[i][j]; i from y, j
// from x; sizes as macros, alpha a parameter.
// Sizes: M = 4096, N = 2048 (1.7e10 multiply-adds, most of them in the low rows).
// Naive estimate on the H100: ~15-25 ms (the blocks of the top rows run longest).
// Check: 2048 sampled elements recomputed in double.
#include "textbook_util.h"

#define M 4096
#define N 2048

#pragma kopt optimize launch(grid: (N + 15) / 16, (M + 15) / 16; block: 16, 16) args(alpha = 0.5f) \
    buffers(A[M * M] in, B[M * N] in, B_out[M * N] out) tol(rtol = 1e-3, atol = 1e-3)
__global__ void trmm_kernel(float alpha, const float *A, const float *B, float *B_out)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < M && j < N) {
        float temp = B[i * N + j];
        for (int k = i + 1; k < M; k++)
            temp += A[k * M + i] * B[k * N + j];
        B_out[i * N + j] = alpha * temp;
    }
}

int main()
{
    float alpha = 0.5f;
    float *A = bench::uniformBuffer((size_t)M * M, 131);
    float *B = bench::uniformBuffer((size_t)M * N, 132);
    float *B_out = bench::deviceAlloc<float>((size_t)M * N);

    dim3 threads(16, 16), grid((N + 15) / 16, (M + 15) / 16);
    float ms = bench::medianMs([&] { trmm_kernel<<<grid, threads>>>(alpha, A, B, B_out); });

    auto ref = [&](size_t idx) {
        size_t i = idx / N, j = idx % N;
        double temp = bench::uniformAt(132, idx);
        for (size_t k = i + 1; k < M; k++)
            temp += double(bench::uniformAt(131, k * M + i)) * bench::uniformAt(132, k * N + j);
        return alpha * temp;
    };
    return bench::report(__FILE__, ms, bench::checkOutput(B_out, (size_t)M * N, 2048, ref, 1e-3, 1e-3));
}

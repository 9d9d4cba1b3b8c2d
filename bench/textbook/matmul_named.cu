// class: linalg
// Rectangular matrix product in the manner of course notes that name the thread
// geometry first (`int bx = blockIdx.x, by = blockIdx.y; int tx = threadIdx.x, ty =
// threadIdx.y;`), then Row and Col from them with blockDim, sizes hA, wA, wB as
// parameters (C = A * B with A hA x wA, B wA x wB), the sum in a register named Csub.
// Sizes: hA = 2000, wA = 1500, wB = 2500 (7.5e9 multiply-adds); none a multiple of 128.
// Naive estimate on the H100: like matmul_kirk scaled by the work: ~3-4 ms.
// Check: 2048 sampled elements of C recomputed in double.
#include "textbook_util.h"

#define BLOCK 16
#define HA 2000
#define WA 1500
#define WB 2500

#pragma kopt optimize launch(grid: (wB + BLOCK - 1) / BLOCK, (hA + BLOCK - 1) / BLOCK; \
    block: BLOCK, BLOCK) args(hA = HA, wA = WA, wB = WB) \
    buffers(A[hA * wA] in, B[wA * wB] in, C[hA * wB] out) tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void matrixMulNamed(float *C, const float *A, const float *B, int hA, int wA, int wB)
{
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;

    int Row = by * blockDim.y + ty;
    int Col = bx * blockDim.x + tx;
    if (Row >= hA || Col >= wB)
        return;

    float Csub = 0.0f;
    for (int e = 0; e < wA; ++e)
        Csub += A[Row * wA + e] * B[e * wB + Col];
    C[Row * wB + Col] = Csub;
}

int main()
{
    int hA = HA, wA = WA, wB = WB;
    float *A = bench::uniformBuffer((size_t)hA * wA, 31);
    float *B = bench::uniformBuffer((size_t)wA * wB, 32);
    float *C = bench::deviceAlloc<float>((size_t)hA * wB);

    dim3 threads(BLOCK, BLOCK);
    dim3 grid((wB + BLOCK - 1) / BLOCK, (hA + BLOCK - 1) / BLOCK);
    float ms = bench::medianMs([&] { matrixMulNamed<<<grid, threads>>>(C, A, B, hA, wA, wB); });

    auto ref = [&](size_t idx) {
        size_t row = idx / wB, col = idx % wB;
        double sum = 0;
        for (size_t e = 0; e < (size_t)wA; e++)
            sum += double(bench::uniformAt(31, row * wA + e)) * bench::uniformAt(32, e * wB + col);
        return sum;
    };
    return bench::report(__FILE__, ms, bench::checkOutput(C, (size_t)hA * wB, 2048, ref, 1e-3, 1e-3));
}

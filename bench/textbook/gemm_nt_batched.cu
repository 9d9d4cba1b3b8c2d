// class: linalg
// Strided batched product C[b] = A[b] * B[b]^T in the manner of a reference kernel for a
// strided-batched BLAS call: leading dimensions and batch strides as parameters (long
// long strides), the batch from blockIdx.z, B read transposed (B[col*ldb+k]), the row
// from x and the column from y, batch base pointers as locals, an early-return guard.
// Sizes: 16 batches of 1024 x 960 x 512 (8.1e9 multiply-adds).
// Naive estimate on the H100: with rows along x both operands are read across rows
// (uncoalesced): ~30-60 ms.
// Check: 2048 sampled elements of C recomputed in double.
#include "textbook_util.h"

#define BATCH 16
#define ROWS 1024
#define COLS 960
#define DEPTH 512

#pragma kopt optimize launch(grid: (M + 15) / 16, (N + 15) / 16, batchCount; block: 16, 16) \
    args(M = ROWS, N = COLS, K = DEPTH, lda = DEPTH, ldb = DEPTH, ldc = COLS, \
         strideA = ROWS * DEPTH, strideB = COLS * DEPTH, strideC = ROWS * COLS, batchCount = BATCH) \
    buffers(A[batchCount * strideA] in, B[batchCount * strideB] in, C[batchCount * strideC] out) \
    tol(rtol = 1e-3, atol = 1e-3)
__global__ void batched_gemm_nt(int M, int N, int K, const float *A, int lda, long long strideA,
                                const float *B, int ldb, long long strideB, float *C, int ldc,
                                long long strideC, int batchCount)
{
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  int batch = blockIdx.z;
  if (row >= M || col >= N || batch >= batchCount) return;

  const float *Ab = A + batch * strideA;
  const float *Bb = B + batch * strideB;
  float *Cb = C + batch * strideC;

  float dot = 0.f;
  for (int k = 0; k < K; ++k)
    dot += Ab[row * lda + k] * Bb[col * ldb + k];
  Cb[row * ldc + col] = dot;
}

int main()
{
  const long long strideA = (long long)ROWS * DEPTH, strideB = (long long)COLS * DEPTH;
  const long long strideC = (long long)ROWS * COLS;
  float *A = bench::uniformBuffer(BATCH * strideA, 31);
  float *B = bench::uniformBuffer(BATCH * strideB, 32);
  float *C = bench::deviceAlloc<float>(BATCH * strideC);

  dim3 block(16, 16);
  dim3 grid((ROWS + 15) / 16, (COLS + 15) / 16, BATCH);
  float ms = bench::medianMs([&] {
    batched_gemm_nt<<<grid, block>>>(ROWS, COLS, DEPTH, A, DEPTH, strideA, B, DEPTH, strideB, C,
                                     COLS, strideC, BATCH);
  });

  auto ref = [&](size_t idx) {
    size_t b = idx / strideC, row = idx % strideC / COLS, col = idx % COLS;
    double dot = 0;
    for (size_t k = 0; k < DEPTH; k++)
      dot += double(bench::uniformAt(31, b * strideA + row * DEPTH + k)) *
             bench::uniformAt(32, b * strideB + col * DEPTH + k);
    return dot;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(C, BATCH * strideC, 2048, ref, 1e-3, 1e-3));
}

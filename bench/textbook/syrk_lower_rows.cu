// class: linalg
// Lower triangle of C = alpha * A^T * A + beta * C (a "syrk, lower, transposed" update)
// in the manner of a loop nest ported with one thread per row: a 1-D grid, thread i runs
// the triangular loop over j <= i and the loop over k, with A stored K x N so that both
// operands are read transposed (A[k*N+i], A[k*N+j]); a register sum; the upper
// triangle is left as it was.
// Sizes: N = 2048, K = 1024 (2.1e9 multiply-adds on 2048 threads; thread i does i * K).
// Naive estimate on the H100: too little parallelism, the last rows run longest:
// ~10-40 ms.
// Check: 2048 sampled elements of C (both triangles) recomputed in double.
#include "textbook_util.h"

#define N 2048
#define K 1024

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = N, k = K, alpha = 2.0f, beta = -0.5f) \
    buffers(A[k * n] in, C[n * n] inout) tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void syrk_lt_rows(int n, int k, float alpha, const float *A, float beta, float *C)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j <= i; ++j) {
      float sum = 0.0f;
      for (int l = 0; l < k; ++l)
        sum += A[l * n + i] * A[l * n + j];
      C[i * n + j] = alpha * sum + beta * C[i * n + j];
    }
  }
}

int main()
{
  int n = N, k = K;
  float alpha = 2.0f, beta = -0.5f;
  float *A = bench::uniformBuffer((size_t)k * n, 151);
  float *C = bench::uniformBuffer((size_t)n * n, 152);
  float *C0 = textbook::snapshot(C, (size_t)n * n);

  float ms = bench::medianMsWithReset([&] { textbook::restore(C, C0, (size_t)n * n); },
                                      [&] { syrk_lt_rows<<<(n + 127) / 128, 128>>>(n, k, alpha, A, beta, C); });

  auto ref = [&](size_t idx) {
    size_t i = idx / n, j = idx % n;
    double c = bench::uniformAt(152, idx);
    if (j > i)
      return c;
    double sum = 0;
    for (size_t l = 0; l < (size_t)k; l++)
      sum += double(bench::uniformAt(151, l * n + i)) * bench::uniformAt(151, l * n + j);
    return alpha * sum + beta * c;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(C, (size_t)n * n, 2048, ref, 1e-3, 1e-3));
}

// class: reduction
// The squared L2 norm of a long vector by the classic two-level shared-memory reduction
// of CUDA course notes: each thread loads one element (its square kept in a `register`
// variable), the block halves its active threads with __syncthreads between steps and
// writes one partial sum; the host relaunches a plain sum kernel on the partials until one
// value is left.
// Sizes: 2^27 floats (512 MB): 524288 partials, then 2048, 8, 1.
// Naive estimate on the H100/H200: reduceSquares ~0.4 ms, reduceSum ~10 us a pass; the
// program ~0.45 ms.
// Check: the total against double, and the first pass's 4096 sampled partials.
#include "apps_util.h"

// cpu emulation: N=20000 BLOCK=64

#define N (1 << 27)
#define BLOCK 256

#pragma kopt optimize launch(grid: (n + BLOCK - 1) / BLOCK; block: BLOCK) args(n = N) \
    buffers(in[n] in, partial[(n + BLOCK - 1) / BLOCK] out) tol(rtol = 1e-5, atol = 1e-6)
__global__ void reduceSquares(const float *in, float *partial, unsigned int n)
{
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  register float v = 0.0f;
  if (i < n) v = in[i] * in[i];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

#pragma kopt optimize launch(grid: (n + BLOCK - 1) / BLOCK; block: BLOCK) args(n = N / BLOCK) \
    buffers(in[n] in, partial[(n + BLOCK - 1) / BLOCK] out) tol(rtol = 1e-5, atol = 1e-6)
__global__ void reduceSum(const float *in, float *partial, unsigned int n)
{
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

int main()
{
  const unsigned int n = N, nPartial = (N + BLOCK - 1) / BLOCK;
  float *x = bench::uniformBuffer(n, 221);
  float *first = bench::deviceAlloc<float>(nPartial), *a = bench::deviceAlloc<float>(nPartial), *b = bench::deviceAlloc<float>(nPartial);

  float *result = nullptr;
  float ms = apps::programMs([&] {
    reduceSquares<<<nPartial, BLOCK>>>(x, first, n);
    float *in = first, *out = a;
    for (unsigned int m = nPartial; m > 1; m = (m + BLOCK - 1) / BLOCK) {
      reduceSum<<<(m + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, m);
      in = out;
      out = out == a ? b : a;
    }
    result = in;
  });

  std::vector<double> blockSums(nPartial, 0.0), total(1, 0.0);
  apps::parallelFor(nPartial, [&](size_t blk) {
    for (size_t i = blk * BLOCK; i < std::min<size_t>((blk + 1) * BLOCK, n); i++) {
      double v = bench::uniformAt(221, i);
      blockSums[blk] += v * v;
    }
  });
  for (double s : blockSums) total[0] += s;
  bench::CheckResult r = bench::checkOutput(first, nPartial, 4096, [&](size_t k) { return blockSums[k]; }, 1e-5, 1e-6);
  r = bench::combine(r, apps::checkHost(textbook::download(result, 1), total, 1e-5, 0));
  return bench::report(__FILE__, ms, r);
}

// Kernels whose threads each compute a value over all points and whose block
// then sums (or takes the largest of) those values through a shared-memory
// tree, thread 0 adding the block's total to global memory with one atomic:
// nearest neighbours, pair energies, a longest run. Only a few thousand
// points, so a thread a point fills a fraction of the GPU.
#include <cfloat>
#define BLOCK 128

// The nearest neighbour of each point and the sum of the distances: a float
// tree from blockDim.x / 2 by >>= 1, a local holding threadIdx.x, the block's
// sum widened to double, a continue in the loop over the other points.
#pragma kopt optimize launch(grid: (n + BLOCK - 1) / BLOCK; block: BLOCK) args(n = 100, dim = 3) \
    buffers(pts[n * dim] in, nnDist[n] out, total[1] inout) tol(rtol = 1e-5, atol = 1e-6)
__global__ void nearest(const float *pts, float *nnDist, double *total, int n, int dim) {
  __shared__ float partial[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  float mine = 0.0f;
  if (i < n) {
    float best = FLT_MAX;
    for (int j = 0; j < n; j++) {
      if (j == i)
        continue;
      float d2 = 0.0f;
      for (int k = 0; k < dim; k++) {
        float diff = pts[i * dim + k] - pts[j * dim + k];
        d2 += diff * diff;
      }
      best = fminf(best, d2);
    }
    mine = sqrtf(best);
    nnDist[i] = mine;
  }
  partial[tid] = mine;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(total, (double)partial[0]);
}

// A Lennard-Jones-like pair energy in double: a constant start of half the
// block halved by /= 2, threadIdx.x itself, the pair test as an if, the atomic
// in braces.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 90, cutoff2 = 0.5) \
    buffers(x[n] in, y[n] in, energy[1] inout) tol(rtol = 1e-6, atol = 1e-9)
__global__ void pair_energy(const double *x, const double *y, double *energy, int n,
                            double cutoff2) {
  __shared__ double e[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double sum = 0.0;
  if (i < n) {
    for (int j = 0; j < n; j++) {
      if (j != i) {
        double dx = x[i] - x[j], dy = y[i] - y[j];
        double r2 = dx * dx + dy * dy + 0.01;
        if (r2 < cutoff2)
          sum += 1.0 / (r2 * r2 * r2) - 1.0 / (r2 * r2 * r2 * r2);
      }
    }
  }
  e[threadIdx.x] = 0.5 * sum;
  __syncthreads();
  for (int s = 64; s > 0; s /= 2) {
    if (threadIdx.x < s)
      e[threadIdx.x] = e[threadIdx.x] + e[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(energy, e[0]);
  }
}

// The largest count in each row above a threshold, and the largest of all:
// an integer maximum, s = s >> 1 while s != 0, atomicMax.
#pragma kopt optimize launch(grid: (rows + 63) / 64; block: 64) args(rows = 70, cols = 40, t = 0) \
    buffers(v[rows * cols] in, largest[1] inout)
__global__ void largest_count(const int *v, int *largest, int rows, int cols, int t) {
  __shared__ int runs[64];
  unsigned tid = threadIdx.x;
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int best = 0;
  if (r < rows)
    for (int c = 0; c < cols; c++)
      if (v[r * cols + c] > t)
        best = max(best, v[r * cols + c]);
  runs[tid] = best;
  __syncthreads();
  for (unsigned s = blockDim.x >> 1; s != 0; s = s >> 1) {
    if (tid < s)
      runs[tid] = max(runs[tid], runs[tid + s]);
    __syncthreads();
  }
  if (!tid)
    atomicMax(largest, runs[0]);
}

// Refused: the block's sum goes to its own element, not through an atomic
// (the partial sums' count follows the grid).
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 300) \
    buffers(a[n * n] in, partial[(n + 127) / 128] out)
__global__ void block_partials(const float *a, float *partial, int n) {
  __shared__ float s_sum[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float row = 0.0f;
  if (i < n)
    for (int j = 0; j < n; j++)
      row += a[i * n + j];
  s_sum[threadIdx.x] = row;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      s_sum[threadIdx.x] += s_sum[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s_sum[0];
}

// Refused: every thread reads the block's total after the tree.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 300) \
    buffers(a[n * n] in, share[n] out, total[1] inout)
__global__ void row_shares(const float *a, float *share, float *total, int n) {
  __shared__ float s_sum[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float row = 0.0f;
  if (i < n)
    for (int j = 0; j < n; j++)
      row += a[i * n + j];
  s_sum[threadIdx.x] = row;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      s_sum[threadIdx.x] += s_sum[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(total, s_sum[0]);
  if (i < n)
    share[i] = row / s_sum[0];
}

// Refused: after the tree, each thread reads a neighbour's store, which the
// tree's barriers ordered.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 300) \
    buffers(a[n] in, smooth[n] inout, total[1] inout)
__global__ void neighbour_after(const float *a, float *smooth, float *total, int n) {
  __shared__ float s_sum[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) {
    for (int j = 0; j < n; j++)
      v += a[j] * (j == i ? 2.0f : 1.0f);
    smooth[i] = v;
  }
  s_sum[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      s_sum[threadIdx.x] += s_sum[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(total, s_sum[0]);
  if (i + 1 < n && threadIdx.x + 1 < blockDim.x)
    smooth[i] = 0.5f * (smooth[i] + smooth[i + 1]);
}

// Block reductions through a shared-memory tree, as CUDA samples, lecture
// notes and application codes write them: sums, maxima and minima of floats,
// doubles and ints, halving by >>= 1, /= 2 or s = s >> 1, from blockDim.x / 2
// or a constant block size.
#define BLOCK 256

// The textbook sum: blockDim.x / 2 down by >>= 1, the block's sum by thread 0.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 3000) \
    buffers(in[n] in, out[(n + 255) / 256] out) tol(rtol = 1e-4, atol = 1e-4)
__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// A maximum with fmaxf over a constant block size, halved by /= 2.
#pragma kopt optimize launch(grid: 8; block: 256) args(n = 5000) \
    buffers(x[n] in, peak[8] out)
__global__ void block_max(const float *x, float *peak, int n) {
  __shared__ float m[BLOCK];
  int tid = threadIdx.x;
  float best = -1e30f;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x)
    best = fmaxf(best, x[i]);
  m[tid] = best;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s /= 2) {
    if (tid < s) {
      m[tid] = fmaxf(m[tid], m[tid + s]);
    }
    __syncthreads();
  }
  if (tid == 0)
    peak[blockIdx.x] = m[0];
}

// Integer counts, the sum spelled out, s = s >> 1 while s != 0, threadIdx.x
// itself as the index.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 2000) \
    buffers(v[n] in, counts[(n + 127) / 128] out)
__global__ void block_count(const int *v, int *counts, int n) {
  __shared__ int c[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[threadIdx.x] = (i < n && v[i] > 0) ? 1 : 0;
  __syncthreads();
  for (int s = blockDim.x >> 1; s != 0; s = s >> 1) {
    if (threadIdx.x < s)
      c[threadIdx.x] = c[threadIdx.x] + c[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    counts[blockIdx.x] = c[0];
}

// A minimum of doubles with fmin; every thread reads the result.
#pragma kopt optimize launch(grid: 4; block: 512) args(n = 7000) \
    buffers(d[n] in, dist[n] out) tol(rtol = 1e-12, atol = 1e-12)
__global__ void shift_by_min(const double *d, double *dist, int n) {
  __shared__ double lo[512];
  int tid = threadIdx.x;
  double mine = 1e300;
  for (int i = tid; i < n; i += blockDim.x)
    mine = fmin(mine, d[i]);
  lo[tid] = mine;
  __syncthreads();
  for (int s = blockDim.x / 2; s >= 1; s >>= 1) {
    if (tid < s)
      lo[tid] = fmin(lo[tid + s], lo[tid]);
    __syncthreads();
  }
  double least = lo[0];
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
    dist[i] = d[i] - least;
}

// A softmax row: a maximum, then a sum in the same array, which each thread
// writes again between the two trees.
#pragma kopt optimize launch(grid: rows; block: 128) args(rows = 6, cols = 300) \
    buffers(x[rows * cols] in, y[rows * cols] out) tol(rtol = 1e-4, atol = 1e-5)
__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
  __shared__ float red[128];
  int tid = threadIdx.x;
  const float *row = x + blockIdx.x * cols;
  float m = -1e30f;
  for (int j = tid; j < cols; j += blockDim.x)
    m = fmaxf(m, row[j]);
  red[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  float rowMax = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int j = tid; j < cols; j += blockDim.x)
    sum += expf(row[j] - rowMax);
  red[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      red[tid] += red[tid + s];
    __syncthreads();
  }
  float total = red[0];
  for (int j = tid; j < cols; j += blockDim.x)
    y[blockIdx.x * cols + j] = expf(row[j] - rowMax) / total;
}

// Refused: the partial sums of sdata[1] are read after the tree.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 3000) \
    buffers(in[n] in, out[(n + 255) / 256] out)
__global__ void reads_partial(const float *in, float *out, int n) {
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0] - sdata[1];
}

// Refused: threads past the end return before the tree.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 3000) \
    buffers(in[n] in, out[(n + 255) / 256] out)
__global__ void returns_early(const float *in, float *out, int n) {
  __shared__ float sdata[256];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  sdata[tid] = in[i];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Not offered: 96 threads are no whole power of two of warps.
#pragma kopt optimize launch(grid: (n + 95) / 96; block: 96) args(n = 3000) \
    buffers(in[n] in, out[(n + 95) / 96] out)
__global__ void odd_block(const float *in, float *out, int n) {
  __shared__ float sdata[96];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

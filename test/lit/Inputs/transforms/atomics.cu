// Sums, counts and dot products into one global location by atomicAdd, as
// introductory books and quick ports write them.

// The book's dot product: a fixed grid strides over the vectors in a while
// loop, every product an atomicAdd.
#pragma kopt optimize launch(grid: 4; block: 64) args(n = 1000) \
    buffers(a[n] in, b[n] in, c[1] inout) tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void dot(const float *a, const float *b, float *c, int n) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  while (tid < n) {
    atomicAdd(c, a[tid] * b[tid]);
    tid += blockDim.x * gridDim.x;
  }
}

// A count under a condition, into &count[0]; __restrict__ instead of noalias.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 1000) \
    buffers(x[n] in, count[1] inout)
__global__ void count_positive(int n, const float *__restrict__ x, int *__restrict__ count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (x[i] > 0.0f)
      atomicAdd(&count[0], 1);
  }
}

// A 2-D sum of doubles over 16 x 16 blocks, two atomicAdds in branches.
#pragma kopt optimize launch(grid: (w + 15) / 16, (h + 15) / 16; block: 16, 16) \
    args(w = 45, h = 37) buffers(m[w * h] in, total[1] inout) tol(rtol = 1e-9, atol = 1e-9) noalias
__global__ void sum2d(const double *m, double *total, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    if (m[y * w + x] > 0)
      atomicAdd(total, m[y * w + x]);
    else
      atomicAdd(total, -m[y * w + x]);
  }
}

// Refused: the old value is used.
#pragma kopt optimize launch(grid: 4; block: 64) args(n = 1000) buffers(x[n] in, slot[n] out, next[1] inout) noalias
__global__ void claim(int n, const int *x, int *slot, int *next) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    slot[i] = atomicAdd(next, x[i]);
}

// Refused: a histogram (the address depends on the data).
#pragma kopt optimize launch(grid: 4; block: 64) args(n = 1000) buffers(v[n] in, bins[16] inout) noalias
__global__ void histogram(int n, const int *v, int *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[v[i] & 15], 1);
}

// Refused: an early return leaves threads out of the warp's sum.
#pragma kopt optimize launch(grid: 4; block: 64) args(n = 1000) buffers(x[n] in, s[1] inout) noalias
__global__ void sum_early(int n, const float *x, float *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(s, x[i]);
}

// Refused: the total is read while it is summed.
#pragma kopt optimize launch(grid: 4; block: 64) args(n = 1000) buffers(x[n] in, s[1] inout) noalias
__global__ void sum_capped(int n, const float *x, float *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && *s < 100.0f)
    atomicAdd(s, x[i]);
}

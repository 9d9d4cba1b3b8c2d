// Per-thread arrays the way application kernels write them, for
// local-arrays-to-shared (lit transforms/local-arrays-to-shared.test): a
// histogram of a window of labels, a traversal stack, a sorted top-k list; and
// arrays it must leave alone.

// The most frequent label in each element's window (a mode filter over class
// maps): counts indexed by the labels read.
#pragma kopt optimize launch(grid: (n + 63) / 64; block: 64) args(n = 4096) \
    buffers(labels[n] in, mode[n] out)
__global__ void window_mode(const int *labels, int *mode, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int counts[8] = {0};
  for (int d = -3; d <= 3; d++) {
    int j = i + d < 0 ? 0 : i + d >= n ? n - 1 : i + d;
    counts[((labels[j] % 8) + 8) % 8] += 1;
  }
  int best = 0;
  for (int c = 1; c < 8; c++)
    if (counts[c] > counts[best])
      best = c;
  mode[i] = best;
}

// The sum of the values above a threshold in a heap-ordered tree, walked
// depth first from each thread's root with an explicit stack.
#pragma kopt optimize launch(grid: (roots + 127) / 128; block: 128) args(roots = 512, n = 8192) \
    buffers(value[n] in, total[roots] out)
__global__ void subtree_sums(const float *value, float *total, int roots, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < roots) {
    int stack[24];
    int top = 0;
    float sum = 0.0f;
    stack[top++] = r;
    while (top > 0) {
      int node = stack[--top];
      if (value[node] < -0.5f)
        continue; // Prunes the subtree.
      sum += value[node];
      int left = 2 * node + 1;
      if (left < n)
        stack[top++] = left;
      if (left + 1 < n)
        stack[top++] = left + 1;
    }
    total[r] = sum;
  }
}

// Each query's four nearest points (squared distances, sorted), kept by
// insertion in a per-thread list.
#pragma kopt optimize launch(grid: (q + 31) / 32, 1; block: 32, 2) args(q = 300, m = 200) \
    buffers(qx[q] in, px[m] in, nearest[4 * q] out)
__global__ void nearest_four(const float *qx, const float *px, float *nearest, int q, int m) {
  int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (i >= q)
    return;
  float best[4];
  for (int k = 0; k < 4; k++)
    best[k] = 1e30f;
  for (int j = 0; j < m; j++) {
    float d = (qx[i] - px[j]) * (qx[i] - px[j]);
    if (d < best[3]) {
      int p = 3;
      while (p > 0 && best[p - 1] > d) {
        best[p] = best[p - 1];
        p--;
      }
      best[p] = d;
    }
  }
  for (int k = 0; k < 4; k++)
    nearest[4 * i + k] = best[k];
}

// Indices nvcc resolves once it unrolls: the array is in registers already.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 4096) \
    buffers(x[n] in, y[n] out)
__global__ void unrolled_taps(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float taps[5];
  for (int k = 0; k < 5; k++)
    taps[k] = x[i + k < n ? i + k : n - 1];
  y[i] = taps[0] + 2.0f * taps[2] + taps[4];
}

__device__ int first_above(const int *counts, int t) {
  for (int c = 0; c < 8; c++)
    if (counts[c] > t)
      return c;
  return -1;
}

// The counts go to a function: their slices would have another layout there.
#pragma kopt optimize launch(grid: (n + 63) / 64; block: 64) args(n = 4096) \
    buffers(labels[n] in, mode[n] out)
__global__ void passed_on(const int *labels, int *mode, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int counts[8] = {};
  counts[((labels[i] % 8) + 8) % 8] += 1;
  mode[i] = first_above(counts, 0);
}

// 256 floats for each of 256 threads: four times what a block may have.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 4096) \
    buffers(keys[n] in, out[n] out)
__global__ void wide_table(const int *keys, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float table[256];
  for (int k = 0; k < 256; k++)
    table[k] = 0.0f;
  table[keys[i] & 255] = 1.0f;
  out[i] = table[(keys[i] + 1) & 255];
}

// Starts from counts other than zeros.
#pragma kopt optimize launch(grid: (n + 63) / 64; block: 64) args(n = 4096) \
    buffers(labels[n] in, mode[n] out)
__global__ void seeded_counts(const int *labels, int *mode, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int counts[4] = {1, 0, 0, 0};
  counts[((labels[i] % 4) + 4) % 4] += 1;
  mode[i] = counts[0];
}

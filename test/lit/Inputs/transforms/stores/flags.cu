// Flags that tell the host to go on, as iterative graph and relaxation codes
// raise them: a top-down BFS level over an ELL graph (padding -1) that sets
// *changed for every vertex it labels (no noalias), a pull relaxation of
// distances that sets a byte (noalias), a relaxation sweep over rows that
// flags a slot chosen by the host and may leave its loop by a return, and
// kernels whose flag is not deferred: read before it is set, set to two
// values, set outside a loop, in a kernel with a lambda, in a kernel that polls
// a volatile word the host writes.

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 300, width = 4, depth = 3) \
    buffers(nbr[n * width] in range(-1, 300), level[n] inout range(-1, 6), changed[1] inout)
__global__ void bfsEll(const int *nbr, int *level, int *changed, int n, int width, int depth) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || level[v] != depth)
    return;
  for (int j = 0; j < width; j++) {
    int u = nbr[v * width + j];
    if (u < 0)
      continue;
    if (level[u] < 0) {
      level[u] = depth + 1;
      *changed = 1;
    }
  }
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 500, width = 6) noalias \
    buffers(nbr[n * width] in range(-1, 500), weight[n * width] in range(0, 1), dist[n] in, \
            next[n] out, relaxed[1] inout)
__global__ void relaxPull(const int *nbr, const float *weight, const float *dist, float *next,
                          unsigned char *relaxed, int n, int width) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    float best = dist[v];
    int j = 0;
    while (j < width) {
      int u = nbr[v * width + j];
      if (u >= 0 && dist[u] + weight[v * width + j] < best) {
        best = dist[u] + weight[v * width + j];
        relaxed[0] = 1;
      }
      j++;
    }
    next[v] = best;
  }
}

#pragma kopt optimize launch(grid: (rows + 63) / 64; block: 64) args(rows = 100, m = 40, limit = 30, parity = 1, tol = 0.1) \
    buffers(x[rows * m] in, y[rows * m] out, flags[2] inout)
__global__ void relaxRows(const double *x, double *y, int *flags, int rows, int m, int limit, int parity,
                          double tol) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  for (int k = 1; k < m - 1; k++) {
    double nv = 0.5 * (x[r * m + k - 1] + x[r * m + k + 1]);
    if (fabs(nv - x[r * m + k]) > tol)
      flags[parity] = 1;
    y[r * m + k] = nv;
    if (k >= limit)
      return;
  }
}

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 300) \
    buffers(x[n] in, changed[1] inout)
__global__ void readsFlag(const float *x, int *changed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4 && i < n; k++)
    if (x[i] > k && *changed == 0)
      *changed = 1;
}

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 300) \
    buffers(x[n] in, state[1] inout)
__global__ void twoValues(const float *x, int *state, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  for (int k = 0; k < 4; k++)
    if (x[i] > k)
      *state = 1;
  if (x[i] < -2.0f)
    *state = 2;
}

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 300) \
    buffers(x[n] in, changed[1] inout)
__global__ void notInLoop(const float *x, int *changed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 0.5f)
    *changed = 1;
}

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 300) \
    buffers(x[n] in, changed[1] inout)
__global__ void inLambda(const float *x, int *changed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto visit = [&](int k) {
    if (x[i] > k)
      return;
  };
  for (int k = 0; k < 4 && i < n; k++) {
    visit(k);
    if (x[i] > k)
      *changed = 1;
  }
}

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 300) \
    buffers(x[n] in, stop[1] in range(0, 1), seen[1] inout)
__global__ void polls(const float *x, volatile int *stop, int *seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4 && i < n && !*stop; k++)
    if (x[i] > k)
      *seen = 1;
}

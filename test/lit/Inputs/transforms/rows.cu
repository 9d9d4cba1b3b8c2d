// Row-wise kernels written one thread per row, for the row-cooperative tests.
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 64, cols = 1000) \
    buffers(x[rows * cols] in, y[rows * cols] out) tol(rtol = 1e-3, atol = 1e-8)
__global__ void softmax(int rows, int cols, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *in = x + (size_t)r * cols;
    float *out = y + (size_t)r * cols;
    float mx = in[0];
    for (int j = 1; j < cols; j++)
      mx = fmaxf(mx, in[j]);
    float sum = 0.0f;
    for (int j = 0; j < cols; j++)
      sum += expf(in[j] - mx);
    for (int j = 0; j < cols; j++)
      out[j] = expf(in[j] - mx) / sum;
  }
}

#pragma kopt optimize launch(grid: (m + 255) / 256; block: 256) args(m = 100, k = 300) \
    buffers(a[m * k] in, x[k] in, y[m] out) tol(rtol = 1e-3, atol = 1e-3)
__global__ void matvec(int m, int k, const float *a, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m)
    return;
  float sum = 1.0f;
  for (int p = 0; p < k; ++p)
    sum += a[(size_t)row * k + p] * x[p];
  y[row] = sum;
}

#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) \
    args(rows = 64, cols = 512, eps = 1e-5f) \
    buffers(x[rows * cols] in, gamma[cols] in, beta[cols] in, y[rows * cols] out) \
    tol(rtol = 1e-3, atol = 1e-4)
__global__ void layer_norm(int rows, int cols, float eps, const float *x, const float *gamma,
                           const float *beta, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *in = x + (size_t)r * cols;
    float *out = y + (size_t)r * cols;
    float mean = 0.0f;
    for (int j = 0; j < cols; j += 1)
      mean += in[j];
    mean /= cols;
    float var = 0.0f;
    for (int j = 0; j < cols; j++) {
      float d = in[j] - mean;
      var += d * d;
    }
    var /= cols;
    float inv = 1.0f / sqrtf(var + eps);
    for (int j = 0; j < cols; j++)
      out[j] = (in[j] - mean) * inv * gamma[j] + beta[j];
  }
}

#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 64, cols = 100) \
    buffers(x[rows * cols] in, y[rows] out)
__global__ void row_min(int rows, int cols, const int *x, int *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int lo = x[r * cols];
    for (int j = 1; j < cols; j++)
      lo = min(x[r * cols + j], lo);
    y[r] = lo;
  }
}

// Negative cases. A scan: the loop both carries the sum and stores it.
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 64, cols = 100) \
    buffers(x[rows * cols] in, y[rows * cols] out)
__global__ void cumsum(int rows, int cols, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float sum = 0.0f;
    for (int j = 0; j < cols; j++) {
      sum += x[(size_t)r * cols + j];
      y[(size_t)r * cols + j] = sum;
    }
  }
}

// A store to the previous element: iterations depend on the order.
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 64, cols = 100) \
    buffers(y[rows * cols] inout)
__global__ void shift(int rows, int cols, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float *row = y + (size_t)r * cols;
    for (int j = 1; j < cols; j++)
      row[j - 1] = row[j];
  }
}

// A store at p[j] that reads p at another index.
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 64, cols = 100) \
    buffers(y[rows * cols] inout)
__global__ void smear(int rows, int cols, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float *row = y + (size_t)r * cols;
    for (int j = 1; j < cols; j++)
      row[j] = row[j] + row[j - 1];
  }
}

// The loop reads its accumulator: not a plain reduction.
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 64, cols = 100) \
    buffers(x[rows * cols] in, y[rows] out)
__global__ void recurrence(int rows, int cols, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int j = 0; j < cols; j++)
      s = s * 0.5f + x[r * cols + j];
    y[r] = s;
  }
}

// A while loop over the row.
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 64, cols = 100) \
    buffers(x[rows * cols] in, y[rows] out)
__global__ void walk(int rows, int cols, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    int j = 0;
    while (j < cols)
      s += x[r * cols + j++];
    y[r] = s;
  }
}

// Reads row[0] and then stores over it: the block waits for every read first.
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 64, cols = 100) \
    buffers(y[rows * cols] inout)
__global__ void rescale(int rows, int cols, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float *row = y + (size_t)r * cols;
    float first = row[0];
    for (int j = 0; j < cols; j++)
      row[j] = row[j] / first;
  }
}

// Row loops and stores as branches of an if without braces.
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) \
    args(rows = 64, cols = 100, mode = 1) buffers(x[rows * cols] in, y[rows * cols] out)
__global__ void copy_or_clear(int rows, int cols, int mode, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    if (mode)
      for (int j = 0; j < cols; j++)
        y[(size_t)r * cols + j] = x[(size_t)r * cols + j];
    else
      y[(size_t)r * cols] = x[(size_t)r * cols];
    y[(size_t)r * cols] += 1.0f;
  }
}

// Two local pointers into one buffer: the store's neighbour read hides behind
// the second pointer.
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 64, cols = 100) \
    buffers(y[rows * cols + 1] inout)
__global__ void alias(int rows, int cols, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float *row = y + (size_t)r * cols;
    float *next = row + 1;
    for (int j = 0; j < cols; j++)
      row[j] = next[j];
  }
}

// The partial escapes through a local: t = (s += e) feeds the next update.
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 64, cols = 100) \
    buffers(x[rows * cols] in, y[rows] out)
__global__ void escape(int rows, int cols, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int j = 0; j < cols; j++) {
      float t = (s += x[r * cols + j]);
      s += t;
    }
    y[r] = s;
  }
}

__device__ float total;

// A __device__ variable is memory every thread shares, not a partial.
#pragma kopt optimize launch(grid: (rows + 255) / 256; block: 256) args(rows = 64, cols = 100) \
    buffers(x[rows * cols] in)
__global__ void global_sum(int rows, int cols, const float *x) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    for (int j = 0; j < cols; j++)
      total += x[r * cols + j];
}

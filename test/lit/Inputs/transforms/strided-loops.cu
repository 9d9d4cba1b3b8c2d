// Block- and grid-stride loops over contiguous elements, as research codes
// write them: a row normalization with two block-stride loops (a sum and a
// square sum, then the scaled row), a grid-stride axpy through locals, a
// double loop with a maximum, and loops that must stay as they are.

// Layer normalization: a block a row, two reductions through shared memory.
__global__ void row_norm(const float *x, const float *gamma, float *y, int rows, int cols) {
  __shared__ float part[2][256];
  int row = blockIdx.x;
  int tid = threadIdx.x;
  if (row >= rows)
    return;
  const float *xr = x + (long long)row * cols;
  float *yr = y + (long long)row * cols;
  float sum = 0.0f, sq = 0.0f;
  for (int c = tid; c < cols; c += blockDim.x) {
    float v = xr[c];
    sum += v;
    sq += v * v;
  }
  part[0][tid] = sum;
  part[1][tid] = sq;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      part[0][tid] += part[0][tid + s];
      part[1][tid] += part[1][tid + s];
    }
    __syncthreads();
  }
  float mu = part[0][0] / cols;
  float r = 1.0f / sqrtf(part[1][0] / cols - mu * mu + 1e-5f);
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    yr[c] = (xr[c] - mu) * r * gamma[c];
}

// A grid-stride loop with its stride in a local; y is read and written.
__global__ void axpy_grid(int n, float a, const float *x, float *y) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    y[i] += a * x[i];
  }
}

// Doubles (two a vector), a maximum into a per-block output, and the counter
// used as a value.
__global__ void abs_max(const double *v, double *scaled, double *blockMax, int n) {
  __shared__ double best[128];
  double m = 0.0;
  for (int k = threadIdx.x; k < n; k += blockDim.x) {
    double a = fabs(v[k]);
    m = fmax(m, a);
    scaled[k] = a * (k % 3);
  }
  best[threadIdx.x] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    double b = 0.0;
    for (int t = 0; t < blockDim.x; ++t)
      b = fmax(b, best[t]);
    blockMax[blockIdx.x] = b;
  }
}

// Refused: a running value carried from one element to the next (a scan).
__global__ void running(const float *x, float *y, int n) {
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    s += x[i];
    y[i] = s;
  }
}

// Refused: a neighbour read.
__global__ void neighbour(const float *x, float *y, int n) {
  for (int i = threadIdx.x; i < n - 1; i += blockDim.x)
    y[i] = x[i + 1] - x[i];
}

// Refused: only some threads of the block run the loop.
__global__ void half_block(const float *x, float *y, int n) {
  if (threadIdx.x < 64)
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      y[i] = 2.0f * x[i];
}

// Refused: a read through one pointer after a store through another (y may be x).
__global__ void store_then_read(float *x, float *y, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    y[i] = 1.0f;
    x[i] = x[i] * 2.0f;
  }
}

// Rows handed out by a grid-stride loop over blocks, columns by the block's
// threads: the outer counter steps alike in every thread of a block.
__global__ void scale_rows(float *m, const float *scale, int rows, int cols) {
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    float *row = m + (long long)r * cols;
    float f = scale[r];
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
      row[c] *= f;
  }
}

// Refused: the bound is a local that some threads change.
__global__ void uneven_bound(const float *x, float *y, int n) {
  int end = n;
  if (threadIdx.x % 2 == 1)
    end = n / 2;
  for (int i = threadIdx.x; i < end; i += blockDim.x)
    y[i] = x[i];
}

// Refused: a thread leaves the row loop early, so it skips its part of the
// later rows.
__global__ void early_exit(const float *x, float *y, int rows, int cols) {
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
      y[(long long)r * cols + c] = x[(long long)r * cols + c];
    if (threadIdx.x == 7)
      break;
  }
}

// Refused: another pointer read after the store (w may point into y).
__global__ void store_then_gather(float *y, const float *w, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    y[i] = 0.0f;
    y[i] += w[n - 1 - i];
  }
}

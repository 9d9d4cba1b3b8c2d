// Kernels written to run on any grid: a grid-stride loop walks the range
// (the style of NVIDIA's "grid-stride loops" advice and of library kernels).
#define ROWS 37
#define COLS 29

// A row per iteration with a dot product inside, __restrict__ pointers.
#pragma kopt optimize launch(grid: 3; block: 32) args(n = 45) \
    buffers(A[n * n] in, x[n] in, y[n] out)
__global__ void gemv_stride(int n, const float *__restrict__ A, const float *__restrict__ x,
                            float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = 0.0f;
    for (int k = 0; k < n; k++)
      s += A[i * n + k] * x[k];
    y[i] = s;
  }
}

// size_t counter, the start and the stride kept in locals, a bare statement body.
#pragma kopt optimize launch(grid: 2; block: 64) args(n = 1000, a = 2.0f) \
    buffers(x[n] in, y[n] inout)
__global__ void saxpy_stride(size_t n, float a, const float *x, float *y) {
  const size_t stride = gridDim.x * blockDim.x;
  size_t idx = threadIdx.x + blockIdx.x * blockDim.x;
  for (size_t i = idx; i < n; i += stride)
    y[i] = a * x[i] + y[i];
}

// Macro sizes in the bound, `i = i + stride`, a loop of its own inside.
#pragma kopt optimize launch(grid: 4; block: 32) buffers(m[ROWS * COLS] inout)
__global__ void clamp_cells(float *m) {
  for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < ROWS * COLS;
       i = i + blockDim.x * gridDim.x) {
    for (int r = 0; r < 3; ++r) {
      if (m[i] > 0.5f)
        break;
      m[i] = m[i] < 0.0f ? 0.0f : m[i] * 2.0f;
    }
  }
}

// Refused: an early return skips the thread's later cells.
#pragma kopt optimize launch(grid: 4; block: 32) buffers(m[ROWS * COLS] inout)
__global__ void clamp_until(float *m) {
  for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < ROWS * COLS;
       i += blockDim.x * gridDim.x) {
    if (m[i] > 0.5f)
      return;
    m[i] = m[i] * 2.0f;
  }
}

// Refused: a per-thread sum reduced after the loop.
#pragma kopt optimize launch(grid: 2; block: 64) args(n = 1000) buffers(x[n] in, out[1] inout)
__global__ void sum_stride(int n, const float *x, float *out) {
  float s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    s += x[i];
  atomicAdd(out, s);
}

// Refused: a count carried from one iteration to the next.
#pragma kopt optimize launch(grid: 2; block: 64) args(n = 1000) buffers(x[n] in, y[n] out)
__global__ void running_stride(int n, const float *x, int *y) {
  int seen = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    seen += x[i] > 0;
    y[i] = seen;
  }
}

// Refused: a break leaves the loop (the thread's later iterations are skipped).
#pragma kopt optimize launch(grid: 2; block: 64) args(n = 1000) buffers(x[n] in, y[n] out)
__global__ void until_negative(int n, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (x[i] < 0)
      break;
    y[i] = x[i];
  }
}

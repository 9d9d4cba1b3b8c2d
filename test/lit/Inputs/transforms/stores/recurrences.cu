// Recurrences that keep their running values in global memory, as application
// codes write them: the Thomas algorithm along rows (one thread a row, two
// coefficient arrays and a back substitution; no noalias), the same along
// columns through a local index, a recursive (IIR) smoothing filter over image
// rows with a local row pointer (noalias), a running trapezoid integral in
// double stepping by two, and loops where the read-back is not carried: a
// store under a condition, a barrier, a read two iterations back, a pointer
// passed to a library call.

#pragma kopt optimize launch(grid: (ny + 63) / 64; block: 64) args(nx = 200, ny = 96, r = 1.0f) \
    buffers(u[nx * ny] in, x[nx * ny] out, cp[nx * ny] out, dp[nx * ny] out)
__global__ void thomasRows(const float *u, float *x, float *cp, float *dp, int nx, int ny, float r) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= ny)
    return;
  size_t row = (size_t)j * nx;
  float a = -0.5f * r, b = 1.0f + r, c = -0.5f * r;
  cp[row] = 0.0f;
  dp[row] = u[row];
  for (int i = 1; i < nx; i++) {
    float m = b - a * cp[row + i - 1];
    cp[row + i] = c / m;
    dp[row + i] = (u[row + i] - a * dp[row + i - 1]) / m;
  }
  x[row + nx - 1] = dp[row + nx - 1];
  for (int i = nx - 2; i >= 0; --i)
    x[row + i] = dp[row + i] - cp[row + i] * x[row + i + 1];
}

#pragma kopt optimize launch(grid: (nx + 63) / 64; block: 64) args(nx = 96, ny = 150, r = 0.5f) \
    buffers(rhs[nx * ny] in, cp[nx * ny] out, dp[nx * ny] out)
__global__ void thomasColumns(const float *rhs, float *cp, float *dp, int nx, int ny, float r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nx)
    return;
  float a = -r, b = 1.0f + 2.0f * r;
  cp[i] = a / b;
  dp[i] = rhs[i] / b;
  for (int j = 1; j < ny; j += 1) {
    size_t id = (size_t)j * nx + i;
    float m = b - a * cp[id - nx];
    cp[id] = a / m;
    dp[id] = (rhs[id] - a * dp[id - nx]) / m;
  }
}

#pragma kopt optimize launch(grid: (h + 127) / 128; block: 128) args(w = 300, h = 64, alpha = 0.25f) \
    buffers(img[w * h] in, out[w * h] out) noalias
__global__ void iirRows(const float *img, float *out, int w, int h, float alpha) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= h)
    return;
  float *o = out + (size_t)y * w;
  const float *in = img + (size_t)y * w;
  o[0] = in[0];
  for (int x = 1; x < w; ++x)
    o[x] = alpha * in[x] + (1.0f - alpha) * o[x - 1];
  for (int x = w - 2; x >= 0; x--)
    o[x] = alpha * o[x] + (1.0f - alpha) * o[x + 1];
}

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 500, len = 64, dt = 0.01) \
    buffers(f[n * len] in, cum[n * len] out)
__global__ void cumulativeTrapezoid(const double *f, double *cum, int n, int len, double dt) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  cum[t * len] = 0.0;
  cum[t * len + 1] = 0.0;
  for (int k = 2; k < len; k += 2)
    cum[t * len + k] = cum[t * len + k - 2] + dt * (f[t * len + k - 2] + f[t * len + k]);
}

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 500, len = 64) \
    buffers(v[n * len] inout, s[n * len] out)
__global__ void notCarried(float *v, float *s, int n, int len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  for (int k = 1; k < len; k++)
    if (v[t * len + k] > 0.0f)
      s[t * len + k] = s[t * len + k - 1] + v[t * len + k];
  for (int k = 2; k < len; k++)
    v[t * len + k] = v[t * len + k - 2] * 0.5f;
}

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 500, len = 64) \
    buffers(v[n * len] inout, w[n * len] out)
__global__ void synchronized(float *v, float *w, int n, int len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < len; k++) {
    w[t * len + k] = w[t * len + k - 1] + v[t * len + k];
    __syncthreads();
  }
}

#include <cstring>

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 500, len = 64) \
    buffers(v[n * len] in, w[n * len] out, log[len] out)
__global__ void passesPointer(const float *v, float *w, float *log, int n, int len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 1; k < len; k++) {
    w[t * len + k] = w[t * len + k - 1] + v[t * len + k];
    memcpy(log + k, v + t * len + k, sizeof(float));
  }
}

// Small integer powers as research codes write them: squared distances through
// pow(d, 2), a soil-physics curve through powf(r, 3.0f), std::pow on a float,
// Lennard-Jones terms through pow(sr, 12) and pow(sr, 6),
// a power inside another's argument, one behind a macro, and powers that stay
// pow (a fractional or a runtime exponent).
#include <cmath>

#define SQUARE(v) pow(v, 2.0)

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20, cx = 0.25, cy = -0.5) buffers(x[n] in, y[n] in, d2[n] out)
__global__ void distance2(int n, double cx, double cy, const double *x, const double *y,
                          double *d2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d2[i] = pow(x[i] - cx, 2) + pow(y[i] - cy, 2.0);
}

#pragma kopt optimize launch(grid: (cells + 127) / 128; block: 128) args(cells = 1 << 18, layers = 8, ks = 1.5f) buffers(theta[cells * layers] in, k[cells * layers] out)
__global__ void conductivity(int cells, int layers, float ks, const float *theta, float *k) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cells)
    return;
  for (int l = 0; l < layers; ++l) {
    float r = theta[l * cells + c];
    float se = 0.5f * (r + 1.0f);
    k[l * cells + c] = ks * powf(se, 3.0f) + powf(ks * se, 4.0f);
  }
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20) buffers(v[n] in, e[n] out)
__global__ void energy(int n, const float *v, double *e) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    e[i] = 0.5 * std::pow(v[i], 2);
}

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 4096, sigma = 0.9f) buffers(pos[n] in range(1, 3), e[n] out)
__global__ void lennard_jones(int n, float sigma, const float *pos, float *e) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) {
    float sr = sigma / (2.5f + pos[j] - pos[i]);
    sum += 4.0f * (pow(sr, 12) - pow(sr, 6));
  }
  e[i] = sum;
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20) buffers(a[n] in, b[n] out)
__global__ void nested(int n, const double *a, double *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = pow(pow(a[i], 2) + 1.0, 3);
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20) buffers(a[n] in, b[n] out)
__global__ void from_macro(int n, const double *a, double *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = SQUARE(a[i]);
}

#pragma kopt optimize launch(grid: 1; block: 256) args(n = 4096) buffers(a[n] in, b[256] out)
__global__ void with_effects(int n, const float *a, float *b) {
  float s = 0;
  for (int j = threadIdx.x; j < n;)
    s += powf(a[(j += 256) - 256], 2.0f);
  b[threadIdx.x] = s;
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20, p = 1.7f) buffers(a[n] in, b[n] out)
__global__ void general(int n, float p, const float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = powf(fabsf(a[i]), 2.5f) + powf(fabsf(a[i]), p) + powf(fabsf(a[i]), 17.0f) + powf(a[i], -2.0f);
}

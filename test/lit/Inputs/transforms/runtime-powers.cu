// pow with exponents known only at run time or fractional, as application codes
// write them: an inverse-distance weight (powf(d2, 0.5f * power) in the station
// loop), a van Genuchten retention curve in double (pow of a pow, a negative
// exponent, a parameter n), a Romberg factor through std::pow(4.0, j) with an int
// j (computed in double), a softened gravity term with a literal 1.5f, one behind
// a macro, and a kernel whose only pow has an integer literal (strength-reduction's).
#include <cmath>

#define POW_MACRO(v, e) powf(v, e)

#pragma kopt optimize launch(grid: (side + 15) / 16, (side + 15) / 16; block: 16, 16) \
    args(side = 256, nst = 512, power = 2.0f) \
    buffers(sx[nst] in range(0, 1), sy[nst] in range(0, 1), sv[nst] in, grid[side * side] out)
__global__ void idw(const float *sx, const float *sy, const float *sv, float *grid, int side,
                    int nst, float power) {
  int gx = blockIdx.x * blockDim.x + threadIdx.x;
  int gy = blockIdx.y * blockDim.y + threadIdx.y;
  if (gx >= side || gy >= side)
    return;
  float x = (gx + 0.5f) / side, y = (gy + 0.5f) / side;
  float num = 0.0f, den = 0.0f;
  for (int s = 0; s < nst; s++) {
    float dx = x - sx[s], dy = y - sy[s];
    float w = 1.0f / powf(dx * dx + dy * dy, 0.5f * power);
    num += w * sv[s];
    den += w;
  }
  grid[gy * side + gx] = num / den;
}

#pragma kopt optimize launch(grid: (ncell + 127) / 128; block: 128) \
    args(ncell = 1 << 16, alpha = 0.8, n = 2.0) buffers(h[ncell] in, theta[ncell] out)
__global__ void retention(const double *h, double *theta, int ncell, double alpha, double n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= ncell)
    return;
  double m = 1.0 - 1.0 / n;
  double ah = fabs(alpha * h[c]);
  theta[c] = 0.1 + 0.3 * pow(1.0 + pow(ah, n), -m);
}

#pragma kopt optimize launch(grid: (n + 63) / 64; block: 64) args(n = 4096, levels = 6) \
    buffers(r[n * levels] inout)
__global__ void richardson(float *r, int n, int levels) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  for (int j = 1; j < levels; j++)
    r[i * levels + j] = r[i * levels + j - 1] +
                        (r[i * levels + j - 1] - r[i * levels + j]) / (float)(std::pow(4.0f, j) - 1.0);
}

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 2048, eps2 = 0.01f) \
    buffers(x[n] in, f[n] out)
__global__ void softened(const float *x, float *f, int n, float eps2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float sum = 0.0f;
  for (int j = 0; j < n; j++) {
    float d = x[j] - x[i];
    float r2 = d * d + eps2;
    sum += d / powf(r2, 1.5f) + POW_MACRO(r2, -0.5f);
  }
  f[i] = sum;
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 1 << 20) \
    buffers(a[n] in, b[n] out)
__global__ void squares_only(int n, const float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = powf(a[i], 2.0f);
}

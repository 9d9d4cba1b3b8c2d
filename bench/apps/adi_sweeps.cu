// class: physics
// Alternating-direction implicit (Peaceman-Rachford) diffusion on a square plate with
// zero Dirichlet edges, as a solver course or an ocean model's first GPU port writes it:
// each half step solves one tridiagonal system per grid line with the Thomas algorithm,
// one thread per line, the forward sweep's coefficients kept in global scratch arrays.
// sweepX walks along rows (thread j owns row j: strided across the warp), sweepY along
// columns (coalesced). The host loop runs NSTEPS full steps (2 launches each).
// Sizes: 1024 x 1024 floats, NSTEPS = 40 (80 launches).
// Naive estimate on the H100/H200: only 1024 threads a launch, each a serial walk of
// 1024 cells and back: sweepX ~0.8 ms, sweepY ~0.4 ms; the program ~50 ms.
// Check: every cell after NSTEPS steps against the same sweeps in double.
#include "apps_util.h"

#define N 1024
#define NSTEPS 40
#define THREADS 64

#pragma kopt optimize launch(grid: (ny + THREADS - 1) / THREADS; block: THREADS) \
    args(nx = N, ny = N, r = 1.0f) \
    buffers(u[nx * ny] in, ustar[nx * ny] out, cp[nx * ny] out, dp[nx * ny] out) \
    tol(rtol = 1e-4, atol = 1e-5)
__global__ void sweepX(const float *u, float *ustar, float *cp, float *dp, int nx, int ny, float r)
{
  int j = blockIdx.x * blockDim.x + threadIdx.x;  // the row this thread solves
  if (j >= ny) return;
  size_t row = (size_t)j * nx;
  if (j == 0 || j == ny - 1) {
    for (int i = 0; i < nx; i++) ustar[row + i] = 0.0f;
    return;
  }
  float a = -0.5f * r, b = 1.0f + r, c = -0.5f * r;
  cp[row] = 0.0f;
  dp[row] = 0.0f;  // u = 0 at i = 0
  for (int i = 1; i < nx - 1; i++) {
    float d = u[row + i] + 0.5f * r * (u[row + i - nx] - 2.0f * u[row + i] + u[row + i + nx]);
    float m = b - a * cp[row + i - 1];
    cp[row + i] = c / m;
    dp[row + i] = (d - a * dp[row + i - 1]) / m;
  }
  ustar[row + nx - 1] = 0.0f;
  for (int i = nx - 2; i >= 1; i--)
    ustar[row + i] = dp[row + i] - cp[row + i] * ustar[row + i + 1];
  ustar[row] = 0.0f;
}

#pragma kopt optimize launch(grid: (nx + THREADS - 1) / THREADS; block: THREADS) \
    args(nx = N, ny = N, r = 1.0f) \
    buffers(ustar[nx * ny] in, u[nx * ny] out, cp[nx * ny] out, dp[nx * ny] out) \
    tol(rtol = 1e-4, atol = 1e-5)
__global__ void sweepY(const float *ustar, float *u, float *cp, float *dp, int nx, int ny, float r)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;  // the column this thread solves
  if (i >= nx) return;
  if (i == 0 || i == nx - 1) {
    for (int j = 0; j < ny; j++) u[(size_t)j * nx + i] = 0.0f;
    return;
  }
  float a = -0.5f * r, b = 1.0f + r, c = -0.5f * r;
  cp[i] = 0.0f;
  dp[i] = 0.0f;
  for (int j = 1; j < ny - 1; j++) {
    size_t id = (size_t)j * nx + i;
    float d = ustar[id] + 0.5f * r * (ustar[id - 1] - 2.0f * ustar[id] + ustar[id + 1]);
    float m = b - a * cp[id - nx];
    cp[id] = c / m;
    dp[id] = (d - a * dp[id - nx]) / m;
  }
  u[(size_t)(ny - 1) * nx + i] = 0.0f;
  for (int j = ny - 2; j >= 1; j--) {
    size_t id = (size_t)j * nx + i;
    u[id] = dp[id] - cp[id] * u[id + nx];
  }
  u[i] = 0.0f;
}

// One Thomas solve of (1 - r/2 d2) x = rhs with x = 0 at both ends, in double.
static void thomas(std::vector<double> &x, const std::vector<double> &rhs, double r)
{
  size_t n = rhs.size();
  std::vector<double> cp(n, 0.0), dp(n, 0.0);
  double a = -0.5 * r, b = 1.0 + r, c = -0.5 * r;
  for (size_t i = 1; i + 1 < n; i++) {
    double m = b - a * cp[i - 1];
    cp[i] = c / m;
    dp[i] = (rhs[i] - a * dp[i - 1]) / m;
  }
  x.assign(n, 0.0);
  for (size_t i = n - 2; i >= 1; i--)
    x[i] = dp[i] - cp[i] * x[i + 1];
}

int main()
{
  const int nx = N, ny = N;
  const size_t n = (size_t)nx * ny;
  const float r = 1.0f;
  std::vector<float> init = textbook::uniformHost(n, 51, 0.0f, 1.0f);
  float *u = textbook::upload(init), *u0 = textbook::snapshot(u, n);
  float *ustar = bench::deviceAlloc<float>(n), *cp = bench::deviceAlloc<float>(n), *dp = bench::deviceAlloc<float>(n);

  int blocks = (N + THREADS - 1) / THREADS;
  float ms = apps::programMs([&] { textbook::restore(u, u0, n); },
                             [&] {
                               for (int step = 0; step < NSTEPS; step++) {
                                 sweepX<<<blocks, THREADS>>>(u, ustar, cp, dp, nx, ny, r);
                                 sweepY<<<blocks, THREADS>>>(ustar, u, cp, dp, nx, ny, r);
                               }
                             }, 1, 7);

  std::vector<double> cur = textbook::widen(init), star(n);
  for (int step = 0; step < NSTEPS; step++) {
    apps::parallelFor(ny, [&](size_t j) {
      std::vector<double> rhs(nx, 0.0), x;
      if (j > 0 && j + 1 < (size_t)ny)
        for (int i = 1; i < nx - 1; i++) {
          size_t id = j * nx + i;
          rhs[i] = cur[id] + 0.5 * r * (cur[id - nx] - 2.0 * cur[id] + cur[id + nx]);
        }
      thomas(x, rhs, r);
      for (int i = 0; i < nx; i++) star[j * nx + i] = (j > 0 && j + 1 < (size_t)ny) ? x[i] : 0.0;
    });
    apps::parallelFor(nx, [&](size_t i) {
      std::vector<double> rhs(ny, 0.0), x;
      if (i > 0 && i + 1 < (size_t)nx)
        for (int j = 1; j < ny - 1; j++) {
          size_t id = (size_t)j * nx + i;
          rhs[j] = star[id] + 0.5 * r * (star[id - 1] - 2.0 * star[id] + star[id + 1]);
        }
      thomas(x, rhs, r);
      for (int j = 0; j < ny; j++) cur[(size_t)j * nx + i] = (i > 0 && i + 1 < (size_t)nx) ? x[j] : 0.0;
    });
  }
  return bench::report(__FILE__, ms, apps::checkHost(textbook::download(u, n), cur, 1e-4, 1e-5));
}

// class: physics
// A 2-D heat-conduction solver as engineering codes write it: forward Euler in time,
// five-point Laplacian in space, a plate with a hot left edge, a cold right edge and
// insulated top and bottom. Two kernels a step, launched from the host loop NSTEPS
// times each (the time-stepped case of issue 31: a kernel's error accumulates over
// hundreds of launches): the interior update, then the boundary conditions.
// Sizes: 2048 x 2048 floats (16 MB a field, resident in L2), NSTEPS = 400 (800 launches).
// Naive estimate on the H100/H200: heatStep ~15 us, applyBoundary ~3 us: each launch is
// short, the program (~8 ms) is their sum and the launch overhead between them.
// Check: every cell after NSTEPS steps against the same steps in double.
#include "apps_util.h"

#define NX 2048
#define NY 2048
#define NSTEPS 400
#define T_HOT 100.0f
#define T_COLD 0.0f

#pragma kopt optimize launch(grid: (nx + 15) / 16, (ny + 15) / 16; block: 16, 16) \
    args(nx = NX, ny = NY, rx = 0.2f, ry = 0.2f) buffers(T[nx * ny] in, Tnew[nx * ny] out) \
    tol(rtol = 1e-5, atol = 1e-5)
__global__ void heatStep(const float *T, float *Tnew, int nx, int ny, float rx, float ry)
{
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix > 0 && ix < nx - 1 && iy > 0 && iy < ny - 1) {
    int id = iy * nx + ix;
    Tnew[id] = T[id] + rx * (T[id - 1] - 2.0f * T[id] + T[id + 1])
                     + ry * (T[id - nx] - 2.0f * T[id] + T[id + nx]);
  }
}

#pragma kopt optimize launch(grid: (max(nx, ny) + 255) / 256; block: 256) \
    args(nx = NX, ny = NY, tLeft = T_HOT, tRight = T_COLD) buffers(T[nx * ny] inout)
__global__ void applyBoundary(float *T, int nx, int ny, float tLeft, float tRight)
{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < ny) {  // fixed temperatures on the left and right edges
    T[k * nx] = tLeft;
    T[k * nx + nx - 1] = tRight;
  }
  if (k > 0 && k < nx - 1) {  // insulated top and bottom: zero normal gradient
    T[k] = T[nx + k];
    T[(ny - 1) * nx + k] = T[(ny - 2) * nx + k];
  }
}

int main()
{
  const int nx = NX, ny = NY;
  const size_t n = (size_t)nx * ny;
  const float rx = 0.2f, ry = 0.2f;  // alpha dt / dx^2: stable below 0.25 each
  std::vector<float> init = textbook::uniformHost(n, 41, 20.0f, 30.0f);
  float *T = textbook::upload(init), *Tnew = textbook::upload(init);
  float *T0 = textbook::snapshot(T, n);

  dim3 block(16, 16), grid((nx + 15) / 16, (ny + 15) / 16);
  int edgeBlocks = (std::max(nx, ny) + 255) / 256;
  float *result = nullptr;
  float ms = apps::programMs(
      [&] {
        textbook::restore(T, T0, n);
        textbook::restore(Tnew, T0, n);
      },
      [&] {
        float *cur = T, *next = Tnew;
        for (int step = 0; step < NSTEPS; step++) {
          heatStep<<<grid, block>>>(cur, next, nx, ny, rx, ry);
          applyBoundary<<<edgeBlocks, 256>>>(next, nx, ny, T_HOT, T_COLD);
          std::swap(cur, next);
        }
        result = cur;
      });

  // The same steps in double. Both fields start as init: the kernel writes only the
  // interior, so the other field's edges are the last boundary update's.
  std::vector<double> cur = textbook::widen(init), next = cur;
  for (int step = 0; step < NSTEPS; step++) {
    apps::parallelFor(ny - 2, [&](size_t r) {
      size_t iy = r + 1;
      for (int ix = 1; ix < nx - 1; ix++) {
        size_t id = iy * nx + ix;
        next[id] = cur[id] + rx * (cur[id - 1] - 2.0 * cur[id] + cur[id + 1]) +
                   ry * (cur[id - nx] - 2.0 * cur[id] + cur[id + nx]);
      }
    });
    for (int k = 0; k < ny; k++) {
      next[(size_t)k * nx] = T_HOT;
      next[(size_t)k * nx + nx - 1] = T_COLD;
    }
    for (int k = 1; k < nx - 1; k++) {
      next[k] = next[nx + k];
      next[(size_t)(ny - 1) * nx + k] = next[(size_t)(ny - 2) * nx + k];
    }
    cur.swap(next);
  }
  return bench::report(__FILE__, ms, apps::checkHost(textbook::download(result, n), cur, 1e-4, 1e-3));
}

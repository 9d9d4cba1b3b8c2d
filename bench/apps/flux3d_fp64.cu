// class: physics
// Finite-volume diffusion in 3-D with a cell-centred conductivity, in double, as
// groundwater and heat-conduction codes write it: one kernel computes the flux through the
// +x, +y and +z face of every cell (harmonic mean of the two cells' conductivities), a
// second updates each cell from the divergence of its face fluxes; no-flux walls. Threads
// cover (i, j) of a plane, the grid's z dimension the planes. The host loop runs NSTEPS
// explicit steps.
// Sizes: 320 x 320 x 256 cells (26.2M doubles, 210 MB an array), NSTEPS = 6.
// Naive estimate on the H100/H200: faceFluxes reads 2 and writes 3 arrays (~1.05 GB):
// ~0.35 ms; divergenceUpdate reads 4 and writes 1 (~1.05 GB): ~0.35 ms; the program ~4.5 ms.
// Check: every cell after NSTEPS steps against the same steps on the host.
#include "apps_util.h"

#define NX 320
#define NY 320
#define NZ 256
#define NSTEPS 6

#pragma kopt optimize launch(grid: (nx + 31) / 32, (ny + 7) / 8, nz; block: 32, 8) \
    args(nx = NX, ny = NY, nz = NZ, invdx = 1.0) \
    buffers(u[nx * ny * nz] in, kappa[nx * ny * nz] in, fx[nx * ny * nz] out, \
            fy[nx * ny * nz] out, fz[nx * ny * nz] out) tol(rtol = 1e-10, atol = 1e-12)
__global__ void faceFluxes(const double *u, const double *kappa, double *fx, double *fy, double *fz,
                           int nx, int ny, int nz, double invdx)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z;
  if (i >= nx || j >= ny || k >= nz) return;
  size_t c = ((size_t)k * ny + j) * nx + i;
  size_t sx = 1, sy = nx, sz = (size_t)nx * ny;
  double kc = kappa[c];
  double kf;
  if (i < nx - 1) {
    kf = 2.0 * kc * kappa[c + sx] / (kc + kappa[c + sx]);
    fx[c] = -kf * (u[c + sx] - u[c]) * invdx;
  } else {
    fx[c] = 0.0;
  }
  if (j < ny - 1) {
    kf = 2.0 * kc * kappa[c + sy] / (kc + kappa[c + sy]);
    fy[c] = -kf * (u[c + sy] - u[c]) * invdx;
  } else {
    fy[c] = 0.0;
  }
  if (k < nz - 1) {
    kf = 2.0 * kc * kappa[c + sz] / (kc + kappa[c + sz]);
    fz[c] = -kf * (u[c + sz] - u[c]) * invdx;
  } else {
    fz[c] = 0.0;
  }
}

#pragma kopt optimize launch(grid: (nx + 31) / 32, (ny + 7) / 8, nz; block: 32, 8) \
    args(nx = NX, ny = NY, nz = NZ, dt = 0.1, invdx = 1.0) \
    buffers(u[nx * ny * nz] inout, fx[nx * ny * nz] in, fy[nx * ny * nz] in, fz[nx * ny * nz] in) \
    tol(rtol = 1e-10, atol = 1e-12)
__global__ void divergenceUpdate(double *u, const double *fx, const double *fy, const double *fz,
                                 int nx, int ny, int nz, double dt, double invdx)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z;
  if (i >= nx || j >= ny || k >= nz) return;
  size_t c = ((size_t)k * ny + j) * nx + i;
  double div = fx[c] - (i > 0 ? fx[c - 1] : 0.0)
             + fy[c] - (j > 0 ? fy[c - nx] : 0.0)
             + fz[c] - (k > 0 ? fz[c - (size_t)nx * ny] : 0.0);
  u[c] -= dt * invdx * div;
}

int main()
{
  const int nx = NX, ny = NY, nz = NZ;
  const size_t n = (size_t)nx * ny * nz;
  const double dt = 0.1, invdx = 1.0;  // stable: dt * max(kappa) * 6 / dx^2 < 1
  std::vector<double> u0(n), kap(n);
  apps::parallelFor(n, [&](size_t c) {
    u0[c] = bench::uniformAt(21, c, 0.0f, 1.0f);
    kap[c] = bench::uniformAt(22, c, 0.5f, 1.5f);
  });
  double *u = textbook::upload(u0), *kappa = textbook::upload(kap);
  double *uInit = textbook::snapshot(u, n);
  double *fx = bench::deviceAlloc<double>(n), *fy = bench::deviceAlloc<double>(n), *fz = bench::deviceAlloc<double>(n);

  dim3 block(32, 8);
  dim3 grid((nx + 31) / 32, (ny + 7) / 8, nz);
  float ms = apps::programMs([&] { textbook::restore(u, uInit, n); },
                             [&] {
                               for (int step = 0; step < NSTEPS; step++) {
                                 faceFluxes<<<grid, block>>>(u, kappa, fx, fy, fz, nx, ny, nz, invdx);
                                 divergenceUpdate<<<grid, block>>>(u, fx, fy, fz, nx, ny, nz, dt, invdx);
                               }
                             });

  std::vector<double> ref = u0, gx(n), gy(n), gz(n);
  auto harmonic = [&](size_t a, size_t b) { return 2.0 * kap[a] * kap[b] / (kap[a] + kap[b]); };
  for (int step = 0; step < NSTEPS; step++) {
    apps::parallelFor(nz, [&](size_t k) {
      for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
          size_t c = (k * ny + j) * nx + i;
          gx[c] = i < nx - 1 ? -harmonic(c, c + 1) * (ref[c + 1] - ref[c]) * invdx : 0.0;
          gy[c] = j < ny - 1 ? -harmonic(c, c + nx) * (ref[c + nx] - ref[c]) * invdx : 0.0;
          gz[c] = (int)k < nz - 1 ? -harmonic(c, c + (size_t)nx * ny) * (ref[c + (size_t)nx * ny] - ref[c]) * invdx : 0.0;
        }
    });
    apps::parallelFor(nz, [&](size_t k) {
      for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
          size_t c = (k * ny + j) * nx + i;
          double div = gx[c] - (i > 0 ? gx[c - 1] : 0.0) + gy[c] - (j > 0 ? gy[c - nx] : 0.0) +
                       gz[c] - (k > 0 ? gz[c - (size_t)nx * ny] : 0.0);
          ref[c] -= dt * invdx * div;
        }
    });
  }
  return bench::report(__FILE__, ms, apps::checkHost(textbook::download(u, n), ref, 1e-9, 1e-12));
}

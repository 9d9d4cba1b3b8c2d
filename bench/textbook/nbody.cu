// class: other
// One step of an all-pairs gravitational n-body simulation in the manner of the classic
// "mini n-body" CUDA tutorials, with the bodies as separate coordinate arrays: one thread
// per body loops over all bodies (rsqrtf with Plummer softening) and updates its
// velocity; a second kernel moves the bodies; dt and n as parameters.
// Sizes: n = 65536 bodies (4.3e9 interactions, ~20 flops each).
// Naive estimate on the H100: the inner loop reads the same body for the whole warp
// (broadcast): ~5-10 ms.
// Check: velocities and positions of 1024 sampled bodies against double.
#include "textbook_util.h"

#define NBODIES 65536
#define SOFTENING 0.0025f

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(dt = 0.001f, n = NBODIES) \
    buffers(x[n] in, y[n] in, z[n] in, m[n] in, vx[n] inout, vy[n] inout, vz[n] inout) \
    tol(rtol = 1e-3, atol = 1e-3) noalias
__global__ void bodyForce(float *x, float *y, float *z, float *m, float *vx, float *vy, float *vz, float dt, int n)
{
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) {
    float Fx = 0.0f; float Fy = 0.0f; float Fz = 0.0f;

    for (int j = 0; j < n; j++) {
      float dx = x[j] - x[i];
      float dy = y[j] - y[i];
      float dz = z[j] - z[i];
      float distSqr = dx * dx + dy * dy + dz * dz + SOFTENING;
      float invDist = rsqrtf(distSqr);
      float invDist3 = invDist * invDist * invDist;

      Fx += m[j] * dx * invDist3; Fy += m[j] * dy * invDist3; Fz += m[j] * dz * invDist3;
    }

    vx[i] += dt * Fx; vy[i] += dt * Fy; vz[i] += dt * Fz;
  }
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(dt = 0.001f, n = NBODIES) \
    buffers(x[n] inout, y[n] inout, z[n] inout, vx[n] in, vy[n] in, vz[n] in) noalias
__global__ void integratePosition(float *x, float *y, float *z, float *vx, float *vy, float *vz, float dt, int n)
{
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) {
    x[i] += vx[i] * dt;
    y[i] += vy[i] * dt;
    z[i] += vz[i] * dt;
  }
}

int main()
{
  const int n = NBODIES;
  const float dt = 0.001f;
  float *pos[3], *vel[3], *pos0[3], *vel0[3];
  for (int d = 0; d < 3; d++) {
    pos[d] = bench::uniformBuffer(n, 341 + d);
    vel[d] = bench::uniformBuffer(n, 344 + d, -0.1f, 0.1f);
    pos0[d] = textbook::snapshot(pos[d], n);
    vel0[d] = textbook::snapshot(vel[d], n);
  }
  float *mass = bench::uniformBuffer(n, 347, 0.5f, 1.5f);

  int nBlocks = (n + 255) / 256;
  float ms = bench::medianMsWithReset(
      [&] {
        for (int d = 0; d < 3; d++) {
          textbook::restore(pos[d], pos0[d], n);
          textbook::restore(vel[d], vel0[d], n);
        }
      },
      [&] {
        bodyForce<<<nBlocks, 256>>>(pos[0], pos[1], pos[2], mass, vel[0], vel[1], vel[2], dt, n);
        integratePosition<<<nBlocks, 256>>>(pos[0], pos[1], pos[2], vel[0], vel[1], vel[2], dt, n);
      });

  std::vector<float> p[3], v[3];
  for (int d = 0; d < 3; d++) {
    p[d] = textbook::uniformHost(n, 341 + d);
    v[d] = textbook::uniformHost(n, 344 + d, -0.1f, 0.1f);
  }
  std::vector<float> m = textbook::uniformHost(n, 347, 0.5f, 1.5f);
  // Velocity component d of body i after the step, in double.
  auto velocity = [&](size_t i, int d) {
    double f = 0;
    for (size_t j = 0; j < (size_t)n; j++) {
      double dx = double(p[0][j]) - p[0][i], dy = double(p[1][j]) - p[1][i], dz = double(p[2][j]) - p[2][i];
      double inv = 1.0 / std::sqrt(dx * dx + dy * dy + dz * dz + double(SOFTENING));
      f += m[j] * (d == 0 ? dx : d == 1 ? dy : dz) * inv * inv * inv;
    }
    return v[d][i] + double(dt) * f;
  };
  std::vector<size_t> bodies = bench::sampleIndices(n, 1024);
  bench::CheckResult r;
  for (int d = 0; d < 3; d++) {
    r = bench::combine(r, bench::checkOutputAt(vel[d], bodies, [&](size_t i) { return velocity(i, d); }, 1e-3, 1e-3));
    r = bench::combine(r, bench::checkOutputAt(pos[d], bodies,
                                               [&](size_t i) { return p[d][i] + velocity(i, d) * double(dt); }, 1e-3, 1e-5));
  }
  return bench::report(__FILE__, ms, r);
}

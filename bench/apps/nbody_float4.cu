// class: physics
// Direct-summation gravitational n-body as astrophysics codes write their first GPU
// version: bodies as float4 (position in xyz, mass in w), one thread per body summing the
// pull of every other body through a __device__ helper with Plummer softening, then a
// kick-drift kernel; the host loop runs NSTEPS steps with G = 1.
// Sizes: NBODY = 24576 bodies (6.0e8 interactions a step, ~20 flops each), NSTEPS = 3.
// Naive estimate on the H100/H200: gravityAccel ~1.2 ms a step (the whole warp reads the
// same body j: a broadcast), kickDrift ~5 us; the program ~4 ms.
// Check: every body's position and velocity after NSTEPS steps against the same steps in
// double.
#include "apps_util.h"

#define NBODY 24576
#define NSTEPS 3
#define BLOCK 256
#define SOFT2 0.0004f // Plummer softening length squared (box of side 2)
#define DT 0.001f

// Acceleration of a body at bi due to body bj (mass in bj.w), added to acc.
__device__ float3 pairAccel(float4 bi, float4 bj, float3 acc, float soft2)
{
  float dx = bj.x - bi.x;
  float dy = bj.y - bi.y;
  float dz = bj.z - bi.z;
  float r2 = dx * dx + dy * dy + dz * dz + soft2;
  float rinv = rsqrtf(r2);
  float f = bj.w * rinv * rinv * rinv;
  acc.x += f * dx;
  acc.y += f * dy;
  acc.z += f * dz;
  return acc;
}

#pragma kopt optimize launch(grid: (nbody + BLOCK - 1) / BLOCK; block: BLOCK) \
    args(nbody = NBODY, soft2 = SOFT2) buffers(pos[nbody] in, accel[nbody] out) \
    tol(rtol = 1e-3, atol = 1e-3)
__global__ void gravityAccel(const float4 *pos, float4 *accel, int nbody, float soft2)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nbody) return;
  float4 me = pos[i];
  float3 acc = make_float3(0.0f, 0.0f, 0.0f);
  for (int j = 0; j < nbody; j++)
    acc = pairAccel(me, pos[j], acc, soft2);
  accel[i] = make_float4(acc.x, acc.y, acc.z, 0.0f);
}

#pragma kopt optimize launch(grid: (nbody + BLOCK - 1) / BLOCK; block: BLOCK) \
    args(nbody = NBODY, dt = DT) buffers(pos[nbody] inout, vel[nbody] inout, accel[nbody] in)
__global__ void kickDrift(float4 *pos, float4 *vel, const float4 *accel, int nbody, float dt)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nbody) return;
  float4 p = pos[i], v = vel[i], a = accel[i];
  v.x += a.x * dt; v.y += a.y * dt; v.z += a.z * dt;
  p.x += v.x * dt; p.y += v.y * dt; p.z += v.z * dt;
  pos[i] = p;  // p.w, the mass, unchanged
  vel[i] = v;
}

int main()
{
  const int n = NBODY;
  // Bodies in the cube [-1, 1)^3, masses summing to about 1, small random velocities.
  std::vector<float4> hpos(n), hvel(n);
  for (int i = 0; i < n; i++) {
    hpos[i] = make_float4(bench::uniformAt(11, 3 * i), bench::uniformAt(11, 3 * i + 1),
                          bench::uniformAt(11, 3 * i + 2), bench::uniformAt(12, i, 0.5f, 1.5f) / n);
    hvel[i] = make_float4(bench::uniformAt(13, 3 * i, -0.1f, 0.1f), bench::uniformAt(13, 3 * i + 1, -0.1f, 0.1f),
                          bench::uniformAt(13, 3 * i + 2, -0.1f, 0.1f), 0.0f);
  }
  float4 *pos = textbook::upload(hpos), *vel = textbook::upload(hvel);
  float4 *pos0 = textbook::snapshot(pos, n), *vel0 = textbook::snapshot(vel, n);
  float4 *accel = bench::deviceAlloc<float4>(n);

  int blocks = (n + BLOCK - 1) / BLOCK;
  float ms = apps::programMs(
      [&] {
        textbook::restore(pos, pos0, n);
        textbook::restore(vel, vel0, n);
      },
      [&] {
        for (int step = 0; step < NSTEPS; step++) {
          gravityAccel<<<blocks, BLOCK>>>(pos, accel, n, SOFT2);
          kickDrift<<<blocks, BLOCK>>>(pos, vel, accel, n, DT);
        }
      });

  // The same steps in double.
  std::vector<double> p(4 * n), v(3 * n), a(3 * n);
  for (int i = 0; i < n; i++) {
    p[4 * i] = hpos[i].x; p[4 * i + 1] = hpos[i].y; p[4 * i + 2] = hpos[i].z; p[4 * i + 3] = hpos[i].w;
    v[3 * i] = hvel[i].x; v[3 * i + 1] = hvel[i].y; v[3 * i + 2] = hvel[i].z;
  }
  for (int step = 0; step < NSTEPS; step++) {
    apps::parallelFor(n, [&](size_t i) {
      double ax = 0, ay = 0, az = 0;
      for (int j = 0; j < n; j++) {
        double dx = p[4 * j] - p[4 * i], dy = p[4 * j + 1] - p[4 * i + 1], dz = p[4 * j + 2] - p[4 * i + 2];
        double rinv = 1.0 / std::sqrt(dx * dx + dy * dy + dz * dz + double(SOFT2));
        double f = p[4 * j + 3] * rinv * rinv * rinv;
        ax += f * dx; ay += f * dy; az += f * dz;
      }
      a[3 * i] = ax; a[3 * i + 1] = ay; a[3 * i + 2] = az;
    });
    for (int i = 0; i < n; i++)
      for (int d = 0; d < 3; d++) {
        v[3 * i + d] += a[3 * i + d] * double(DT);
        p[4 * i + d] += v[3 * i + d] * double(DT);
      }
  }
  std::vector<float4> gpos = textbook::download(pos, n), gvel = textbook::download(vel, n);
  std::vector<float> got(7 * n);
  std::vector<double> want(7 * n);
  for (int i = 0; i < n; i++) {
    float g[7] = {gpos[i].x, gpos[i].y, gpos[i].z, gpos[i].w, gvel[i].x, gvel[i].y, gvel[i].z};
    for (int d = 0; d < 7; d++) {
      got[7 * i + d] = g[d];
      want[7 * i + d] = d < 4 ? p[4 * i + d] : v[3 * i + d - 4];
    }
  }
  return bench::report(__FILE__, ms, apps::checkHost(got, want, 1e-3, 1e-5));
}

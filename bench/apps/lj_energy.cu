// class: physics
// Lennard-Jones potential energy of each particle in a periodic box, as a molecular-dynamics
// analysis code writes it: one thread per particle walks every other particle (minimum
// image through rintf), squared distances and the r^-6 and r^-12 terms through powf with
// integer exponents, as the formulas are printed.
// Sizes: 16384 particles in a box of side 32 (2.7e8 pairs).
// Naive estimate on the H100/H200: ~10 ms (five general powf calls a pair).
// Check: 1024 sampled particles against double.
#include "apps_util.h"

// cpu emulation: NPART=256

#define NPART 16384
#define BOX 32.0f
#define RCUT 2.5f

#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) \
    args(n = NPART, box = BOX, rcut = RCUT) buffers(pos[3 * n] in range(0, 32), energy[n] out) \
    tol(rtol = 1e-4, atol = 1e-4)
__global__ void ljEnergy(const float *pos, float *energy, int n, float box, float rcut)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
  float e = 0.0f;
  for (int j = 0; j < n; j++) {
    if (j == i) continue;
    float dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
    dx -= box * rintf(dx / box);
    dy -= box * rintf(dy / box);
    dz -= box * rintf(dz / box);
    float r2 = powf(dx, 2) + powf(dy, 2) + powf(dz, 2);
    if (r2 < powf(rcut, 2)) {
      float sr6 = powf(1.0f / r2, 3);
      e += 4.0f * (powf(sr6, 2) - sr6);
    }
  }
  energy[i] = 0.5f * e;
}

int main()
{
  const int n = NPART;
  // Particles on a jittered lattice (no two closer than about half a spacing), as after
  // equilibration: 26^3 sites for 16384 particles.
  int side = 1;
  while (side * side * side < n) side++;
  const float spacing = BOX / side;
  std::vector<float> jitter = textbook::uniformHost(3 * (size_t)n, 311, -0.2f, 0.2f);
  std::vector<float> hp(3 * (size_t)n);
  for (int p = 0; p < n; p++) {
    int site[3] = {p % side, (p / side) % side, p / (side * side)};
    for (int d = 0; d < 3; d++) hp[3 * p + d] = (site[d] + 0.5f + jitter[3 * p + d]) * spacing;
  }
  float *pos = textbook::upload(hp);
  float *energy = bench::deviceAlloc<float>(n);

  float ms = apps::programMs([&] { ljEnergy<<<(n + 127) / 128, 128>>>(pos, energy, n, BOX, RCUT); });

  auto want = [&](size_t i) {
    double e = 0;
    for (int j = 0; j < n; j++) {
      if (j == (int)i) continue;
      double r2 = 0;
      for (int k = 0; k < 3; k++) {
        double v = double(hp[3 * j + k]) - hp[3 * i + k];
        v -= BOX * std::rint(v / BOX);
        r2 += v * v;
      }
      if (r2 < double(RCUT) * RCUT) {
        double sr6 = 1.0 / (r2 * r2 * r2);
        e += 4.0 * (sr6 * sr6 - sr6);
      }
    }
    return 0.5 * e;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(energy, (size_t)n, 1024, want, 1e-3, 1e-4));
}

// class: physics
// Inverse-distance-weighted interpolation of scattered station measurements (rainfall,
// temperature) onto a square grid, as a geoscience tool writes it: one thread per grid
// node sums w = 1 / d^p over every station (powf with the power a parameter), the grid's
// side computed on the host as sqrt of the node count. A station on a node takes its value.
// Sizes: 4096 stations, a 1024 x 1024 grid (4.3e9 station-node pairs).
// Naive estimate on the H100/H200: ~4 ms (powf per pair; the stations are read by the whole
// warp at once).
// Check: 4096 sampled nodes against double.
#include "apps_util.h"

// cpu emulation: NGRID=1600 NSTATIONS=67

#define NGRID (1024 * 1024)
#define NSTATIONS 4096
#define POWER 2.5f

#pragma kopt optimize launch(grid: (side + 15) / 16, (side + 15) / 16; block: 16, 16) \
    args(side = (int)sqrt((double)NGRID), nst = NSTATIONS, power = POWER) \
    buffers(sx[nst] in range(0, 1), sy[nst] in range(0, 1), sv[nst] in, grid[side * side] out) \
    tol(rtol = 1e-4, atol = 1e-5)
__global__ void idwGrid(const float *sx, const float *sy, const float *sv, float *grid, int side, int nst, float power)
{
  int gx = blockIdx.x * blockDim.x + threadIdx.x;
  int gy = blockIdx.y * blockDim.y + threadIdx.y;
  if (gx >= side || gy >= side) return;
  float x = (gx + 0.5f) / side, y = (gy + 0.5f) / side;
  float num = 0.0f, den = 0.0f;
  for (int s = 0; s < nst; s++) {
    float dx = x - sx[s], dy = y - sy[s];
    float d2 = dx * dx + dy * dy;
    if (d2 < 1e-12f) {  // on a station
      num = sv[s];
      den = 1.0f;
      break;
    }
    float w = 1.0f / powf(d2, 0.5f * power);
    num += w * sv[s];
    den += w;
  }
  grid[gy * side + gx] = num / den;
}

int main()
{
  const int side = (int)sqrt((double)NGRID), nst = NSTATIONS;
  std::vector<float> hx = textbook::uniformHost(nst, 241, 0.0f, 1.0f), hy = textbook::uniformHost(nst, 242, 0.0f, 1.0f);
  std::vector<float> hv(nst);
  for (int s = 0; s < nst; s++) hv[s] = 10.0f + 5.0f * std::sin(6.0f * hx[s]) * std::cos(4.0f * hy[s]) + bench::uniformAt(243, s);
  float *sx = textbook::upload(hx), *sy = textbook::upload(hy), *sv = textbook::upload(hv);
  float *grid = bench::deviceAlloc<float>((size_t)side * side);

  dim3 block(16, 16), blocks((side + 15) / 16, (side + 15) / 16);
  float ms = apps::programMs([&] { idwGrid<<<blocks, block>>>(sx, sy, sv, grid, side, nst, POWER); });

  auto want = [&](size_t node) {
    float x = (node % side + 0.5f) / side, y = (node / side + 0.5f) / side;
    double num = 0, den = 0;
    for (int s = 0; s < nst; s++) {
      double dx = double(x) - hx[s], dy = double(y) - hy[s], d2 = dx * dx + dy * dy;
      if (d2 < 1e-12) return double(hv[s]);
      double w = 1.0 / std::pow(d2, 0.5 * POWER);
      num += w * hv[s];
      den += w;
    }
    return num / den;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(grid, (size_t)side * side, 4096, want, 1e-4, 1e-5));
}

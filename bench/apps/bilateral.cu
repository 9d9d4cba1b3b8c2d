// class: image
// Edge-preserving smoothing of a grey image by a bilateral filter, as image-processing
// libraries' naive CUDA paths write it: a kernel template over the filter radius R
// (launched as bilateralFilter<RADIUS>), one thread per pixel, a (2R+1)^2 window with
// clamped borders, spatial and range Gaussian weights through expf.
// Sizes: a 4096 x 4096 float image, R = 4 (81 taps, 1.4e9 expf).
// Naive estimate on the H100/H200: ~2.5 ms (expf throughput; the window comes from L1).
// Check: 4096 sampled pixels against double.
#include "apps_util.h"

// cpu emulation: WIDTH=45 HEIGHT=38

#define WIDTH 4096
#define HEIGHT 4096
#define RADIUS 4
#define SIGMA_S 2.0f
#define SIGMA_R 0.2f

#pragma kopt optimize launch(grid: (width + 15) / 16, (height + 15) / 16; block: 16, 16) \
    args(width = WIDTH, height = HEIGHT, invTwoSigmaS2 = 1.0f / (2.0f * SIGMA_S * SIGMA_S), \
         invTwoSigmaR2 = 1.0f / (2.0f * SIGMA_R * SIGMA_R)) \
    buffers(in[width * height] in range(0, 1), out[width * height] out) tol(rtol = 1e-4, atol = 1e-5)
template <int R>
__global__ void bilateralFilter(const float *in, float *out, int width, int height, float invTwoSigmaS2,
                                float invTwoSigmaR2)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float center = in[y * width + x];
  float sum = 0.0f, norm = 0.0f;
  for (int dy = -R; dy <= R; dy++) {
    int yy = min(max(y + dy, 0), height - 1);
    for (int dx = -R; dx <= R; dx++) {
      int xx = min(max(x + dx, 0), width - 1);
      float v = in[yy * width + xx];
      float w = expf(-(dx * dx + dy * dy) * invTwoSigmaS2 - (v - center) * (v - center) * invTwoSigmaR2);
      sum += w * v;
      norm += w;
    }
  }
  out[y * width + x] = sum / norm;
}

int main()
{
  const int width = WIDTH, height = HEIGHT;
  const size_t n = (size_t)width * height;
  const float invS = 1.0f / (2.0f * SIGMA_S * SIGMA_S), invR = 1.0f / (2.0f * SIGMA_R * SIGMA_R);
  // A piecewise-constant scene (blocks of 64 x 64 pixels) plus noise: edges to preserve.
  std::vector<float> img(n);
  apps::parallelFor(height, [&](size_t y) {
    for (int x = 0; x < width; x++)
      img[y * width + x] = 0.5f * bench::uniformAt(101, (y / 64) * 1024 + x / 64, 0.0f, 1.0f) +
                           0.05f * bench::uniformAt(102, y * width + x);
  });
  float *in = textbook::upload(img), *out = bench::deviceAlloc<float>(n);

  dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
  float ms = apps::programMs([&] { bilateralFilter<RADIUS><<<grid, block>>>(in, out, width, height, invS, invR); });

  auto want = [&](size_t p) {
    int x = int(p % width), y = int(p / width);
    double c = img[p], sum = 0, norm = 0;
    for (int dy = -RADIUS; dy <= RADIUS; dy++)
      for (int dx = -RADIUS; dx <= RADIUS; dx++) {
        int xx = std::min(std::max(x + dx, 0), width - 1), yy = std::min(std::max(y + dy, 0), height - 1);
        double v = img[(size_t)yy * width + xx];
        double w = std::exp(-(dx * dx + dy * dy) * double(invS) - (v - c) * (v - c) * double(invR));
        sum += w * v;
        norm += w;
      }
    return sum / norm;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(out, n, 4096, want, 1e-4, 1e-5));
}

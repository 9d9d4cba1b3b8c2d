// class: image
// Gaussian blur of a large image by a separable convolution, the way an image pipeline's
// first CUDA version writes it: a row pass then a column pass, one thread per pixel, the
// taps in a device array, clamped borders, the radius a parameter.
// Sizes: an 8192 x 8192 float image (256 MB), radius 8 (17 taps).
// Naive estimate on the H100/H200: convolveRows ~0.35 ms, convolveColumns ~0.4 ms (17
// loads a pixel, mostly from L1/L2; the program reads and writes the image twice).
// Check: 4096 sampled pixels of the result against the two passes in double.
#include "apps_util.h"

// cpu emulation: WIDTH=45 HEIGHT=38

#define WIDTH 8192
#define HEIGHT 8192
#define KRADIUS 8

#pragma kopt optimize launch(grid: (width + 31) / 32, (height + 7) / 8; block: 32, 8) \
    args(width = WIDTH, height = HEIGHT, radius = KRADIUS) \
    buffers(src[width * height] in, dst[width * height] out, taps[2 * radius + 1] in range(0, 1)) \
    tol(rtol = 1e-5, atol = 1e-6)
__global__ void convolveRows(const float *src, float *dst, const float *taps, int width, int height, int radius)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int k = -radius; k <= radius; k++) {
    int xx = min(max(x + k, 0), width - 1);
    sum += taps[k + radius] * src[y * width + xx];
  }
  dst[y * width + x] = sum;
}

#pragma kopt optimize launch(grid: (width + 31) / 32, (height + 7) / 8; block: 32, 8) \
    args(width = WIDTH, height = HEIGHT, radius = KRADIUS) \
    buffers(src[width * height] in, dst[width * height] out, taps[2 * radius + 1] in range(0, 1)) \
    tol(rtol = 1e-5, atol = 1e-6)
__global__ void convolveColumns(const float *src, float *dst, const float *taps, int width, int height, int radius)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int k = -radius; k <= radius; k++) {
    int yy = min(max(y + k, 0), height - 1);
    sum += taps[k + radius] * src[yy * width + x];
  }
  dst[y * width + x] = sum;
}

int main()
{
  const int width = WIDTH, height = HEIGHT, radius = KRADIUS;
  const size_t n = (size_t)width * height;
  std::vector<float> htaps(2 * radius + 1);
  double norm = 0;
  for (int k = -radius; k <= radius; k++) norm += std::exp(-k * k / (2.0 * 3.0 * 3.0));
  for (int k = -radius; k <= radius; k++) htaps[k + radius] = float(std::exp(-k * k / (2.0 * 3.0 * 3.0)) / norm);
  float *taps = textbook::upload(htaps);
  float *img = bench::uniformBuffer(n, 121, 0.0f, 1.0f);
  float *tmp = bench::deviceAlloc<float>(n), *out = bench::deviceAlloc<float>(n);

  dim3 block(32, 8), grid((width + 31) / 32, (height + 7) / 8);
  float ms = apps::programMs([&] {
    convolveRows<<<grid, block>>>(img, tmp, taps, width, height, radius);
    convolveColumns<<<grid, block>>>(tmp, out, taps, width, height, radius);
  });

  auto rowPass = [&](int x, int y) {
    double s = 0;
    for (int k = -radius; k <= radius; k++)
      s += double(htaps[k + radius]) * bench::uniformAt(121, (size_t)y * width + std::min(std::max(x + k, 0), width - 1), 0.0f, 1.0f);
    return s;
  };
  auto want = [&](size_t p) {
    int x = int(p % width), y = int(p / width);
    double s = 0;
    for (int k = -radius; k <= radius; k++) s += double(htaps[k + radius]) * rowPass(x, std::min(std::max(y + k, 0), height - 1));
    return s;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(out, n, 4096, want, 1e-5, 1e-6));
}

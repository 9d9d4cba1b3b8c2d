// class: image
// Local (windowed) Shannon entropy of an 8-bit image, a texture feature of microscopy and
// remote-sensing codes: a kernel template over the block's shape (launched as
// localEntropy<16, 16>, the block index scaled by the template arguments rather than
// blockDim), one thread per pixel building a 16-bin histogram of its 9 x 9 window in a
// per-thread array, then -sum p log2 p.
// Sizes: a 4096 x 4096 image of unsigned char.
// Naive estimate on the H100/H200: ~3 ms (81 loads and 81 local-memory increments a pixel,
// the histogram indexed by data so it lives in local memory).
// Check: 4096 sampled pixels against double.
#include "apps_util.h"

// cpu emulation: WIDTH=45 HEIGHT=38

#define WIDTH 4096
#define HEIGHT 4096
#define HALF 4
#define NBINS 16

#pragma kopt optimize launch(grid: (width + 15) / 16, (height + 15) / 16; block: 16, 16) \
    args(width = WIDTH, height = HEIGHT) buffers(img[width * height] in range(0, 256), ent[width * height] out) \
    tol(rtol = 1e-5, atol = 1e-5)
template <int BX, int BY>
__global__ void localEntropy(const unsigned char *img, float *ent, int width, int height)
{
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  if (x >= width || y >= height) return;
  int hist[NBINS];
  for (int b = 0; b < NBINS; b++) hist[b] = 0;
  int count = 0;
  for (int dy = -HALF; dy <= HALF; dy++) {
    int yy = y + dy;
    if (yy < 0 || yy >= height) continue;
    for (int dx = -HALF; dx <= HALF; dx++) {
      int xx = x + dx;
      if (xx < 0 || xx >= width) continue;
      hist[img[yy * width + xx] * NBINS / 256]++;
      count++;
    }
  }
  float e = 0.0f;
  for (int b = 0; b < NBINS; b++) {
    if (hist[b] > 0) {
      float p = (float)hist[b] / count;
      e -= p * log2f(p);
    }
  }
  ent[y * width + x] = e;
}

int main()
{
  const int width = WIDTH, height = HEIGHT;
  const size_t n = (size_t)width * height;
  // Regions of different texture: the spread of the grey levels changes every 128 pixels.
  std::vector<unsigned char> img(n);
  apps::parallelFor(height, [&](size_t y) {
    for (int x = 0; x < width; x++) {
      int spread = bench::intAt(111, (y / 128) * 64 + x / 128, 4, 256);
      img[y * width + x] = (unsigned char)(128 - spread / 2 + bench::intAt(112, y * width + x, 0, spread));
    }
  });
  unsigned char *dimg = textbook::upload(img);
  float *ent = bench::deviceAlloc<float>(n);

  dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
  float ms = apps::programMs([&] { localEntropy<16, 16><<<grid, block>>>(dimg, ent, width, height); });

  auto want = [&](size_t p) {
    int x = int(p % width), y = int(p / width), hist[NBINS] = {0}, count = 0;
    for (int yy = std::max(0, y - HALF); yy <= std::min(height - 1, y + HALF); yy++)
      for (int xx = std::max(0, x - HALF); xx <= std::min(width - 1, x + HALF); xx++, count++)
        hist[img[(size_t)yy * width + xx] * NBINS / 256]++;
    double e = 0;
    for (int b = 0; b < NBINS; b++)
      if (hist[b] > 0) e -= double(hist[b]) / count * std::log2(double(hist[b]) / count);
    return e;
  };
  return bench::report(__FILE__, ms, bench::checkOutput(ent, n, 4096, want, 1e-5, 1e-5));
}

// Histogram kernels in the spellings application codes use, for
// shared-histogram (histograms.test).

#define NBINS 256

// An image's grey levels, one thread a pixel, &hist[v].
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 5000) \
    buffers(img[n] in range(0, 256), hist[NBINS] inout) noalias
__global__ void grey_levels(const unsigned char *img, unsigned int *hist, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[img[i]], 1u);
}

// The same without noalias: the block checks at run time, from the pragma's
// sizes, that img does not overlap the bins.
#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = 5000) \
    buffers(img[n] in range(0, 256), hist[NBINS] inout)
__global__ void grey_levels_unchecked(const unsigned char *img, unsigned int *hist, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[img[i]], 1u);
}

// Classes by key with an early return and `counts + k`; __restrict__ in place of
// noalias. The pragma says 32 bins where the keys reach 63 (histograms.test's
// buffer holds 64): keys past the shared bins go to the global ones.
#pragma kopt optimize launch(grid: (n + 127) / 128; block: 128) args(n = 3000) \
    buffers(keys[n] in, counts[32] inout)
__global__ void class_counts(int n, const int *__restrict__ keys, int *__restrict__ counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int k = keys[i] & 63;
  atomicAdd(counts + k, 1);
}

// Weighted bins over a grid-stride loop, float weights, a 2-D block.
#pragma kopt optimize launch(grid: 6; block: 16, 8) args(n = 4000, scale = 0.25f) \
    buffers(x[n] in range(0, 1), w[n] in, bins[64] inout) noalias
__global__ void weighted_bins(int n, float scale, const float *x, const float *w, float *bins) {
  int t = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  for (int i = t; i < n; i += gridDim.x * blockDim.x * blockDim.y) {
    int b = (int)(fabsf(x[i]) * 64.0f);
    atomicAdd(&bins[b < 63 ? b : 63], scale * w[i]);
  }
}

// Refused: the bin count is a parameter.
#pragma kopt optimize launch(grid: 4; block: 64) args(n = 200, nbins = 16) \
    buffers(v[n] in range(0, 16), bins[nbins] inout) noalias
__global__ void param_bins(int n, int nbins, const int *v, int *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[v[i] % nbins], 1);
}

// Refused: the bins are read.
#pragma kopt optimize launch(grid: 4; block: 64) args(n = 200) buffers(v[n] in range(0, 16), bins[16] inout) noalias
__global__ void read_bins(int n, const int *v, int *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && bins[0] < 1000)
    atomicAdd(&bins[v[i] & 15], 1);
}

// Refused: one address (atomic-aggregation's case).
#pragma kopt optimize launch(grid: 4; block: 64) args(n = 200) buffers(v[n] in, total[4] inout) noalias
__global__ void one_address(int n, const int *v, int *total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&total[0], v[i]);
}

// class: finance
// Monte Carlo pricing of an arithmetic-average Asian call under geometric Brownian
// motion, as a quant's first CUDA port writes it: one thread per path with its own
// xorshift32 generator seeded through an integer hash of the path number, Box-Muller
// normals, the discounted payoff reduced per block in shared memory (the classic halving
// loop), then one block sums the block partials in double.
// Sizes: 2^21 paths x 128 monitoring dates (1.3e8 normals), 8192 blocks of 256.
// Naive estimate on the H100/H200: asianCallPaths ~1 ms (logf/sqrtf/sincos and two expf a
// pair of dates), sumBlocks ~10 us; the program ~1 ms.
// Check: the partial sums of 64 sampled blocks against the same paths in double, and the
// price and its second moment against the sum of all the partials in double.
#include "apps_util.h"

// cpu emulation: NPATHS=3000 NDATES=8 BLOCK=256

#define NPATHS (1 << 21)
#define NDATES 128
#define BLOCK 256
#define SEED 20240601u

__host__ __device__ inline unsigned int hashPath(unsigned int x)
{
  x ^= x >> 16; x *= 0x7feb352du;
  x ^= x >> 15; x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// The next uniform in (0, 1] of a xorshift32 stream: 24 bits, exact in float and double.
__host__ __device__ inline float nextUniform(unsigned int &state)
{
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return ((state >> 8) + 1) * (1.0f / 16777216.0f);
}

#pragma kopt optimize launch(grid: (npaths + BLOCK - 1) / BLOCK; block: BLOCK) \
    args(s0 = 100.0f, strike = 100.0f, rate = 0.03f, sigma = 0.25f, maturity = 1.0f, \
         ndates = NDATES, npaths = NPATHS, seed = SEED) \
    buffers(blockSum[npaths / BLOCK] out, blockSumSq[npaths / BLOCK] out) tol(rtol = 1e-4, atol = 1e-3)
__global__ void asianCallPaths(float *blockSum, float *blockSumSq, float s0, float strike, float rate,
                               float sigma, float maturity, int ndates, int npaths, unsigned int seed)
{
  __shared__ float sSum[BLOCK];
  __shared__ float sSq[BLOCK];
  int tid = threadIdx.x;
  int path = blockIdx.x * blockDim.x + tid;
  float payoff = 0.0f;
  if (path < npaths) {
    unsigned int state = hashPath(path * 2654435761u + seed) | 1u;
    float dt = maturity / ndates;
    float drift = (rate - 0.5f * sigma * sigma) * dt;
    float vol = sigma * sqrtf(dt);
    float s = s0, avg = 0.0f;
    for (int k = 0; k < ndates; k += 2) {
      float u1 = nextUniform(state), u2 = nextUniform(state);
      float rad = sqrtf(-2.0f * logf(u1));
      float ang = 6.28318531f * u2;
      s *= expf(drift + vol * rad * cosf(ang));
      avg += s;
      s *= expf(drift + vol * rad * sinf(ang));
      avg += s;
    }
    avg /= ndates;
    payoff = expf(-rate * maturity) * fmaxf(avg - strike, 0.0f);
  }
  sSum[tid] = payoff;
  sSq[tid] = payoff * payoff;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      sSum[tid] += sSum[tid + stride];
      sSq[tid] += sSq[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) {
    blockSum[blockIdx.x] = sSum[0];
    blockSumSq[blockIdx.x] = sSq[0];
  }
}

#pragma kopt optimize launch(grid: 1; block: BLOCK) args(nblocks = NPATHS / BLOCK) \
    buffers(blockSum[nblocks] in, blockSumSq[nblocks] in, moments[2] out) tol(rtol = 1e-9, atol = 1e-9)
__global__ void sumBlocks(const float *blockSum, const float *blockSumSq, double *moments, int nblocks)
{
  __shared__ double s1[BLOCK];
  __shared__ double s2[BLOCK];
  int tid = threadIdx.x;
  double a = 0.0, b = 0.0;
  for (int i = tid; i < nblocks; i += blockDim.x) {
    a += blockSum[i];
    b += blockSumSq[i];
  }
  s1[tid] = a;
  s2[tid] = b;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s1[tid] += s1[tid + stride];
      s2[tid] += s2[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) {
    moments[0] = s1[0];
    moments[1] = s2[0];
  }
}

int main()
{
  const float s0 = 100.0f, strike = 100.0f, rate = 0.03f, sigma = 0.25f, maturity = 1.0f;
  const int npaths = NPATHS, nblocks = (NPATHS + BLOCK - 1) / BLOCK;
  float *blockSum = bench::deviceAlloc<float>(nblocks), *blockSumSq = bench::deviceAlloc<float>(nblocks);
  double *moments = bench::deviceAlloc<double>(2);

  float ms = apps::programMs([&] {
    asianCallPaths<<<nblocks, BLOCK>>>(blockSum, blockSumSq, s0, strike, rate, sigma, maturity, NDATES, npaths, SEED);
    sumBlocks<<<1, BLOCK>>>(blockSum, blockSumSq, moments, nblocks);
  });

  // A path's discounted payoff in double, from the same random numbers.
  auto payoff = [&](unsigned int path) {
    unsigned int state = hashPath(path * 2654435761u + SEED) | 1u;
    double dt = double(maturity) / NDATES, drift = (rate - 0.5 * sigma * sigma) * dt;
    double vol = sigma * std::sqrt(dt), s = s0, avg = 0.0;
    for (int k = 0; k < NDATES; k += 2) {
      double u1 = nextUniform(state), u2 = nextUniform(state);
      double rad = std::sqrt(-2.0 * std::log(u1)), ang = 2.0 * M_PI * u2;
      s *= std::exp(drift + vol * rad * std::cos(ang));
      avg += s;
      s *= std::exp(drift + vol * rad * std::sin(ang));
      avg += s;
    }
    double pay = std::exp(-double(rate) * maturity) * std::max(avg / NDATES - strike, 0.0);
    return std::make_pair(pay, pay * pay);
  };
  std::vector<size_t> blocks = bench::sampleIndices(nblocks, 64);
  std::vector<double> wantSum(blocks.size()), wantSq(blocks.size());
  apps::parallelFor(blocks.size(), [&](size_t k) {
    for (int t = 0; t < BLOCK; t++)
      if (blocks[k] * BLOCK + t < (size_t)npaths) {
        std::pair<double, double> p = payoff(unsigned(blocks[k] * BLOCK + t));
        wantSum[k] += p.first;
        wantSq[k] += p.second;
      }
  });
  bench::CheckResult r = bench::checkOutputAt(blockSum, blocks, apps::valuesAt(blocks, wantSum), 1e-4, 1e-3);
  r = bench::combine(r, bench::checkOutputAt(blockSumSq, blocks, apps::valuesAt(blocks, wantSq), 1e-4, 1e-1));
  // The reduction over every block, against a double sum of the same partials.
  std::vector<float> sums = textbook::download(blockSum, nblocks), sq = textbook::download(blockSumSq, nblocks);
  std::vector<double> total(2, 0.0);
  for (int b = 0; b < nblocks; b++) {
    total[0] += sums[b];
    total[1] += sq[b];
  }
  r = bench::combine(r, apps::checkHost(textbook::download(moments, 2), total, 1e-12, 1e-9));
  std::vector<double> m = textbook::download(moments, 2);
  double price = m[0] / npaths;
  std::fprintf(stderr, "asian call %.4f +- %.4f\n", price, std::sqrt((m[1] / npaths - price * price) / npaths));
  return bench::report(__FILE__, ms, r);
}

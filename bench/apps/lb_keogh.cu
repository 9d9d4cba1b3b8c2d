// class: bio
// Lower bounds for dynamic-time-warping search in a long time series (LB_Keogh, as
// subsequence-search codes write it): one kernel computes each window's mean and standard
// deviation through a __device__ helper that reads the window by a const pointer; the next
// z-normalizes each window and sums its squared excursions outside the query's warping
// envelope, which each block first copies into dynamic shared memory (extern __shared__,
// its size 2 m floats given at the launch).
// Sizes: a series of 2^22 samples, a query of m = 256, warping window 16.
// Naive estimate on the H100/H200: windowStats ~1.5 ms and lbKeogh ~2 ms (each thread
// walks 256 samples; neighbours share them through L1); the program ~3.5 ms.
// Check: every window's mean, deviation and bound against double.
#include "apps_util.h"

// cpu emulation: NSERIES=1500 QLEN=64 BLOCK=128

#define NSERIES (1 << 22)
#define QLEN 256
#define WARP_WINDOW 16
#define BLOCK 256

__device__ void windowMoments(const float *w, int m, float *mean, float *sd)
{
  float s = 0.0f, ss = 0.0f;
  for (int k = 0; k < m; k++) {
    s += w[k];
    ss += w[k] * w[k];
  }
  float mu = s / m;
  *mean = mu;
  *sd = sqrtf(fmaxf(ss / m - mu * mu, 1e-12f));
}

#pragma kopt optimize launch(grid: (n - m + BLOCK) / BLOCK; block: BLOCK) args(n = NSERIES, m = QLEN) \
    buffers(x[n] in, mu[n - m + 1] out, sigma[n - m + 1] out) tol(rtol = 1e-3, atol = 1e-4)
__global__ void windowStats(const float *x, float *mu, float *sigma, int n, int m)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n - m) return;
  windowMoments(x + i, m, &mu[i], &sigma[i]);
}

#pragma kopt optimize launch(grid: (n - m + BLOCK) / BLOCK; block: BLOCK; smem: 2 * m * sizeof(float)) \
    args(n = NSERIES, m = QLEN) \
    buffers(x[n] in, mu[n - m + 1] in, sigma[n - m + 1] in range(0.5, 1.5), envelope[2 * m] in, lb[n - m + 1] out) \
    tol(rtol = 1e-3, atol = 1e-3)
__global__ void lbKeogh(const float *x, const float *mu, const float *sigma, const float *envelope, float *lb,
                        int n, int m)
{
  extern __shared__ float env[];  // upper envelope, then lower
  for (int k = threadIdx.x; k < 2 * m; k += blockDim.x)
    env[k] = envelope[k];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > n - m) return;
  float mean = mu[i], inv = 1.0f / sigma[i];
  float sum = 0.0f;
  for (int k = 0; k < m; k++) {
    float z = (x[i + k] - mean) * inv;
    float up = env[k], lo = env[m + k];
    if (z > up) sum += (z - up) * (z - up);
    else if (z < lo) sum += (lo - z) * (lo - z);
  }
  lb[i] = sqrtf(sum);
}

int main()
{
  const int n = NSERIES, m = QLEN, nwin = NSERIES - QLEN + 1;
  // A noisy quasi-periodic signal; the query is a noisy copy of one of its windows.
  std::vector<float> hx(n);
  apps::parallelFor(n, [&](size_t i) { hx[i] = std::sin(0.013f * i) + 0.4f * bench::uniformAt(91, i); });
  std::vector<double> q(m);
  double qs = 0, qss = 0;
  for (int k = 0; k < m; k++) {
    q[k] = hx[n / 3 + k] + 0.2 * bench::uniformAt(92, k);
    qs += q[k];
    qss += q[k] * q[k];
  }
  double qmu = qs / m, qsd = std::sqrt(qss / m - qmu * qmu);
  std::vector<float> henv(2 * m);
  for (int k = 0; k < m; k++) {
    double up = -1e30, lo = 1e30;
    for (int j = std::max(0, k - WARP_WINDOW); j <= std::min(m - 1, k + WARP_WINDOW); j++) {
      up = std::max(up, (q[j] - qmu) / qsd);
      lo = std::min(lo, (q[j] - qmu) / qsd);
    }
    henv[k] = (float)up;
    henv[m + k] = (float)lo;
  }
  float *x = textbook::upload(hx), *envelope = textbook::upload(henv);
  float *mu = bench::deviceAlloc<float>(nwin), *sigma = bench::deviceAlloc<float>(nwin), *lb = bench::deviceAlloc<float>(nwin);

  int blocks = (n - m + BLOCK) / BLOCK;
  float ms = apps::programMs([&] {
    windowStats<<<blocks, BLOCK>>>(x, mu, sigma, n, m);
    lbKeogh<<<blocks, BLOCK, 2 * m * sizeof(float)>>>(x, mu, sigma, envelope, lb, n, m);
  });

  std::vector<double> rmu(nwin), rsd(nwin), rlb(nwin);
  apps::parallelFor(nwin, [&](size_t i) {
    double s = 0, ss = 0;
    for (int k = 0; k < m; k++) {
      s += hx[i + k];
      ss += double(hx[i + k]) * hx[i + k];
    }
    rmu[i] = s / m;
    rsd[i] = std::sqrt(std::max(ss / m - rmu[i] * rmu[i], 1e-12));
    double sum = 0;
    for (int k = 0; k < m; k++) {
      double z = (hx[i + k] - rmu[i]) / rsd[i];
      if (z > henv[k]) sum += (z - henv[k]) * (z - henv[k]);
      else if (z < henv[m + k]) sum += (henv[m + k] - z) * (henv[m + k] - z);
    }
    rlb[i] = std::sqrt(sum);
  });
  // The window moments are float sums of 256 samples: E[x^2] - mu^2 loses some digits.
  bench::CheckResult r = apps::checkHost(textbook::download(mu, nwin), rmu, 1e-4, 1e-5);
  r = bench::combine(r, apps::checkHost(textbook::download(sigma, nwin), rsd, 1e-3, 1e-4));
  r = bench::combine(r, apps::checkHost(textbook::download(lb, nwin), rlb, 1e-3, 1e-3));
  return bench::report(__FILE__, ms, r);
}

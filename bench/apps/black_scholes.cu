// class: finance
// European calls and puts in closed form (Black-Scholes-Merton with a continuous
// dividend yield) over a book of options, one thread per option, the normal CDF through
// erfcf in a __device__ helper, as a risk system's overnight revaluation writes it.
// Sizes: 2^26 options (spot, strike and maturity in, call and put out: 1.3 GB).
// Naive estimate on the H100/H200: ~0.45 ms (memory-bound; logf, sqrtf, two erfcf and two
// expf an option).
// Check: 4096 sampled options' call and put against the formula in double.
#include "apps_util.h"

// cpu emulation: NOPT=5000

#define NOPT (1 << 26)
#define RISKFREE 0.02f
#define DIVYIELD 0.01f
#define VOLATILITY 0.30f

__device__ inline float normalCdf(float d)
{
  return 0.5f * erfcf(-d * 0.70710678f);
}

#pragma kopt optimize launch(grid: (nopt + 127) / 128; block: 128) \
    args(r = RISKFREE, q = DIVYIELD, sigma = VOLATILITY, nopt = NOPT) \
    buffers(spot[nopt] in range(5, 30), strike[nopt] in range(1, 100), years[nopt] in range(0.25, 10), \
            call[nopt] out, put[nopt] out) tol(rtol = 1e-4, atol = 1e-4)
__global__ void priceEuropean(const float *spot, const float *strike, const float *years, float *call, float *put,
                              float r, float q, float sigma, int nopt)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nopt) {
    float S = spot[i], X = strike[i], T = years[i];
    float sqrtT = sqrtf(T);
    float d1 = (logf(S / X) + (r - q + 0.5f * sigma * sigma) * T) / (sigma * sqrtT);
    float d2 = d1 - sigma * sqrtT;
    float discS = S * expf(-q * T), discX = X * expf(-r * T);
    call[i] = discS * normalCdf(d1) - discX * normalCdf(d2);
    put[i] = discX * normalCdf(-d2) - discS * normalCdf(-d1);
  }
}

int main()
{
  const int n = NOPT;
  float *spot = bench::uniformBuffer(n, 61, 5.0f, 30.0f);
  float *strike = bench::uniformBuffer(n, 62, 1.0f, 100.0f);
  float *years = bench::uniformBuffer(n, 63, 0.25f, 10.0f);
  float *call = bench::deviceAlloc<float>(n), *put = bench::deviceAlloc<float>(n);

  float ms = apps::programMs([&] {
    priceEuropean<<<(n + 127) / 128, 128>>>(spot, strike, years, call, put, RISKFREE, DIVYIELD, VOLATILITY, n);
  });

  auto price = [](size_t i, bool isCall) {
    double S = bench::uniformAt(61, i, 5.0f, 30.0f), X = bench::uniformAt(62, i, 1.0f, 100.0f);
    double T = bench::uniformAt(63, i, 0.25f, 10.0f);
    double r = RISKFREE, q = DIVYIELD, v = VOLATILITY;
    double d1 = (std::log(S / X) + (r - q + 0.5 * v * v) * T) / (v * std::sqrt(T)), d2 = d1 - v * std::sqrt(T);
    auto N = [](double d) { return 0.5 * std::erfc(-d / std::sqrt(2.0)); };
    double discS = S * std::exp(-q * T), discX = X * std::exp(-r * T);
    return isCall ? discS * N(d1) - discX * N(d2) : discX * N(-d2) - discS * N(-d1);
  };
  // Prices are up to ~30: an absolute 2e-4 is float's resolution there after the
  // cancellation of the two terms.
  bench::CheckResult rc = bench::checkOutput(call, n, 4096, [&](size_t i) { return price(i, true); }, 1e-4, 2e-4);
  bench::CheckResult rp = bench::checkOutput(put, n, 4096, [&](size_t i) { return price(i, false); }, 1e-4, 2e-4);
  return bench::report(__FILE__, ms, bench::combine(rc, rp));
}

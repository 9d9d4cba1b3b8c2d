// class: physics
// The Lomb-Scargle periodogram of an unevenly sampled light curve (astronomy: finding a
// variable star's period), as a survey pipeline's GPU port writes it: one thread per trial
// frequency makes two passes over all observations, the first for the phase offset tau
// (atan2 of the sums of sin and cos of 2wt), the second for the four sums of the
// normalized power; sincosf in both.
// Sizes: 4096 observations over 200 nights, 2^18 trial frequencies up to 2.6 a day
// (2.1e9 sincos).
// Naive estimate on the H100/H200: ~5 ms (sincosf with range reduction; the observations
// are read by the whole warp at once).
// Check: 2048 sampled frequencies' power against double.
#include "apps_util.h"

// cpu emulation: NOBS=50 NFREQ=300

#define NOBS 4096
#define NFREQ (1 << 18)
#define FMIN 0.01f
#define DF 0.00001f
#define NNIGHTS 200

#pragma kopt optimize launch(grid: (nfreq + 255) / 256; block: 256) \
    args(nobs = NOBS, nfreq = NFREQ, fmin = FMIN, df = DF, variance = 0.5f) \
    buffers(t[nobs] in range(0, NNIGHTS), y[nobs] in, power[nfreq] out) tol(rtol = 1e-2, atol = 1e-3)
__global__ void lombScargle(const float *t, const float *y, float *power, int nobs, int nfreq, float fmin, float df,
                            float variance)
{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nfreq) return;
  float omega = 6.28318531f * (fmin + k * df);
  float s2 = 0.0f, c2 = 0.0f;
  for (int i = 0; i < nobs; i++) {
    float s, c;
    sincosf(2.0f * omega * t[i], &s, &c);
    s2 += s;
    c2 += c;
  }
  float tau = atan2f(s2, c2) / (2.0f * omega);
  float yc = 0.0f, ys = 0.0f, cc = 0.0f, ss = 0.0f;
  for (int i = 0; i < nobs; i++) {
    float s, c;
    sincosf(omega * (t[i] - tau), &s, &c);
    yc += y[i] * c;
    ys += y[i] * s;
    cc += c * c;
    ss += s * s;
  }
  power[k] = (yc * yc / cc + ys * ys / ss) / (2.0f * variance);
}

int main()
{
  const int nobs = NOBS, nfreq = NFREQ;
  // Observation times over 200 nights with gaps (three nights in four), a 3.7-day
  // sinusoid plus noise, mean removed.
  std::vector<float> ht(nobs), hy(nobs);
  double mean = 0, var = 0;
  for (int i = 0; i < nobs; i++) {
    int night = bench::intAt(251, i, 0, NNIGHTS);
    if (night % 4 == 3) night--;
    ht[i] = night + bench::uniformAt(252, i, 0.0f, 0.3f);
    hy[i] = std::sin(6.2831853f * ht[i] / 3.7f) + 0.5f * bench::uniformAt(253, i);
    mean += hy[i];
  }
  mean /= nobs;
  for (int i = 0; i < nobs; i++) {
    hy[i] -= (float)mean;
    var += double(hy[i]) * hy[i];
  }
  var /= nobs - 1;
  float *t = textbook::upload(ht), *y = textbook::upload(hy), *power = bench::deviceAlloc<float>(nfreq);

  float ms = apps::programMs([&] { lombScargle<<<(nfreq + 255) / 256, 256>>>(t, y, power, nobs, nfreq, FMIN, DF, (float)var); });

  auto want = [&](size_t k) {
    double omega = 2.0 * M_PI * (double(FMIN) + k * double(DF)), s2 = 0, c2 = 0;
    for (int i = 0; i < nobs; i++) {
      s2 += std::sin(2.0 * omega * ht[i]);
      c2 += std::cos(2.0 * omega * ht[i]);
    }
    double tau = std::atan2(s2, c2) / (2.0 * omega), yc = 0, ys = 0, cc = 0, ss = 0;
    for (int i = 0; i < nobs; i++) {
      double c = std::cos(omega * (ht[i] - tau)), s = std::sin(omega * (ht[i] - tau));
      yc += hy[i] * c;
      ys += hy[i] * s;
      cc += c * c;
      ss += s * s;
    }
    return (yc * yc / cc + ys * ys / ss) / (2.0 * var);
  };
  // Float phases omega * t reach ~3300 rad, where a float's rounding is ~2e-4 rad: the
  // power keeps about three digits.
  return bench::report(__FILE__, ms, bench::checkOutput(power, nfreq, 2048, want, 1e-2, 1e-2));
}

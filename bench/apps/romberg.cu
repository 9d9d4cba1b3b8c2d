// class: reduction
// Romberg integration of a family of damped oscillations f(x) = exp(-a x^2) cos(b x) on
// [0, 4], one integral per block, in double: at each level the block's threads evaluate
// the new trapezoid midpoints, a shared-memory tree reduction sums them, and thread 0
// extends its Romberg table (a local array) by Richardson extrapolation. The number of
// levels comes from the point count as the host computes it, through logf.
// Sizes: 4096 integrals, 2^16 intervals (16 levels) each: 2.7e8 evaluations of exp and cos.
// Naive estimate on the H100/H200: ~3 ms (fp64 exp and cos; 16 reductions a block).
// Check: 64 sampled integrals against the same Romberg scheme in double on the host.
#include "apps_util.h"

// cpu emulation: NINT=5 NPOINTS=256 BLOCK=64

#define NINT 4096
#define NPOINTS 65536
#define MAXLEV 20
#define BLOCK 256
#define XLO 0.0
#define XHI 4.0

__host__ __device__ inline double integrand(double x, double a, double b)
{
  return exp(-a * x * x) * cos(b * x);
}

#pragma kopt optimize launch(grid: nint; block: BLOCK) \
    args(nint = NINT, lower = XLO, upper = XHI, levels = (int)(logf((float)NPOINTS) / logf(2.0f) + 0.5f)) \
    buffers(a[nint] in range(0.1, 2), b[nint] in range(0.5, 8), result[nint] out) tol(rtol = 1e-9, atol = 1e-12)
__global__ void rombergIntegrate(const double *a, const double *b, double *result, int nint, double lower,
                                 double upper, int levels)
{
  __shared__ double partial[BLOCK];
  double R[MAXLEV + 1][MAXLEV + 1];  // the Romberg table, used by thread 0
  int p = blockIdx.x, tid = threadIdx.x;
  if (p >= nint) return;
  double ap = a[p], bp = b[p];
  double h = upper - lower;
  if (tid == 0) R[0][0] = 0.5 * h * (integrand(lower, ap, bp) + integrand(upper, ap, bp));
  for (int k = 1; k <= levels; k++) {
    int npts = 1 << (k - 1);  // the new midpoints at this level
    h *= 0.5;
    double s = 0.0;
    for (int i = tid; i < npts; i += blockDim.x)
      s += integrand(lower + (2 * i + 1) * h, ap, bp);
    partial[tid] = s;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
      if (tid < stride) partial[tid] += partial[tid + stride];
      __syncthreads();
    }
    if (tid == 0) {
      R[k][0] = 0.5 * R[k - 1][0] + h * partial[0];
      for (int j = 1; j <= k; j++)
        R[k][j] = R[k][j - 1] + (R[k][j - 1] - R[k - 1][j - 1]) / (pow(4.0, j) - 1.0);
    }
    __syncthreads();
  }
  if (tid == 0) result[p] = R[levels][levels];
}

int main()
{
  const int nint = NINT;
  const int levels = (int)(logf((float)NPOINTS) / logf(2.0f) + 0.5f);
  std::vector<double> ha(nint), hb(nint);
  for (int p = 0; p < nint; p++) {
    ha[p] = bench::uniformAt(231, p, 0.1f, 2.0f);
    hb[p] = bench::uniformAt(232, p, 0.5f, 8.0f);
  }
  double *a = textbook::upload(ha), *b = textbook::upload(hb), *result = bench::deviceAlloc<double>(nint);

  float ms = apps::programMs([&] { rombergIntegrate<<<nint, BLOCK>>>(a, b, result, nint, XLO, XHI, levels); });

  // The same scheme on the host: the midpoints summed in the block's order would not
  // change the double result beyond rounding.
  auto romberg = [&](size_t p) {
    std::vector<std::vector<double>> R(levels + 1, std::vector<double>(levels + 1));
    double h = XHI - XLO;
    R[0][0] = 0.5 * h * (integrand(XLO, ha[p], hb[p]) + integrand(XHI, ha[p], hb[p]));
    for (int k = 1; k <= levels; k++) {
      h *= 0.5;
      double s = 0;
      for (int i = 0; i < (1 << (k - 1)); i++) s += integrand(XLO + (2 * i + 1) * h, ha[p], hb[p]);
      R[k][0] = 0.5 * R[k - 1][0] + h * s;
      for (int j = 1; j <= k; j++) R[k][j] = R[k][j - 1] + (R[k][j - 1] - R[k - 1][j - 1]) / (std::pow(4.0, j) - 1.0);
    }
    return R[levels][levels];
  };
  return bench::report(__FILE__, ms, bench::checkOutput(result, nint, 64, romberg, 1e-9, 1e-12));
}

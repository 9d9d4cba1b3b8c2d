// class: physics
// Unsaturated flow in many independent soil columns (a land-surface or crop model's water
// module), in double: Richards' equation in head form, explicit in time. Each cell has a
// soil material (an int) whose retention parameters (theta_r, theta_s, alpha, n, Ks) come
// from a table; the retention model is an enum passed by value. One kernel evaluates the
// hydraulic conductivity K(h) and the moisture capacity C(h) of every cell (van Genuchten-
// Mualem or Brooks-Corey, many pow calls), the next moves water between layers with Darcy
// fluxes (ponded top, free drainage at the bottom). The host loop runs NSTEPS steps.
// Sizes: 65536 columns x 128 layers (8.4M cells), 8 materials, NSTEPS = 100.
// Naive estimate on the H100/H200: hydraulicProps ~0.3 ms (fp64 pow), richardsStep
// ~0.1 ms; the program ~40 ms.
// Check: the head of every cell of 64 sampled columns after NSTEPS steps against the same
// steps on the host (the columns are independent).
#include "apps_util.h"

#define NCOL 65536
#define NLAY 128
#define NMAT 8
#define NPAR 5 // theta_r, theta_s, alpha (1/m), n, Ks (m/day)
#define NSTEPS 100
#define CMIN 1e-2 // floor of the moisture capacity, 1/m
#define BLOCK 256

enum RetentionModel { VAN_GENUCHTEN = 0, BROOKS_COREY = 1 };

__host__ __device__ inline void retention(double h, const double *p, RetentionModel model, double *K, double *C)
{
  double thr = p[0], ths = p[1], alpha = p[2], n = p[3], Ks = p[4];
  if (model == VAN_GENUCHTEN) {
    double m = 1.0 - 1.0 / n;
    if (h < 0.0) {
      double ah = alpha * (-h);
      double ahn = pow(ah, n);
      double Se = pow(1.0 + ahn, -m);
      *K = Ks * sqrt(Se) * pow(1.0 - pow(1.0 - pow(Se, 1.0 / m), m), 2);
      *C = (ths - thr) * alpha * n * m * pow(ah, n - 1.0) * pow(1.0 + ahn, -m - 1.0);
    } else {
      *K = Ks;
      *C = 0.0;
    }
  } else {
    double hb = -1.0 / alpha, lambda = n - 1.0;
    if (h < hb) {
      double Se = pow(hb / h, lambda);
      *K = Ks * pow(Se, 3.0 + 2.0 / lambda);
      *C = (ths - thr) * lambda * Se / (-h);
    } else {
      *K = Ks;
      *C = 0.0;
    }
  }
}

#pragma kopt optimize launch(grid: (ncell + BLOCK - 1) / BLOCK; block: BLOCK) \
    args(ncell = NCOL * NLAY, model = VAN_GENUCHTEN) \
    buffers(h[ncell] in, mat[ncell] in range(0, NMAT), soil[NMAT * NPAR] in range(1, 2), \
            K[ncell] out, C[ncell] out) tol(rtol = 1e-9, atol = 1e-12)
__global__ void hydraulicProps(const double *h, const int *mat, const double *soil, double *K, double *C,
                               int ncell, RetentionModel model)
{
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= ncell) return;
  retention(h[c], soil + mat[c] * NPAR, model, &K[c], &C[c]);
}

#pragma kopt optimize launch(grid: (ncell + BLOCK - 1) / BLOCK; block: BLOCK) \
    args(ncell = NCOL * NLAY, nlay = NLAY, dt = 2e-3, dz = 1.0, htop = -0.1) \
    buffers(h[ncell] in, K[ncell] in range(0, 1), C[ncell] in range(0, 1), hnew[ncell] out) \
    tol(rtol = 1e-9, atol = 1e-12)
__global__ void richardsStep(const double *h, const double *K, const double *C, double *hnew,
                             int ncell, int nlay, double dt, double dz, double htop)
{
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= ncell) return;
  int l = c % nlay;  // layer, 0 at the surface; z points down
  double qin, qout;
  if (l == 0)
    qin = -K[c] * ((h[c] - htop) / (0.5 * dz) - 1.0);
  else
    qin = -0.5 * (K[c - 1] + K[c]) * ((h[c] - h[c - 1]) / dz - 1.0);
  if (l == nlay - 1)
    qout = K[c];  // free drainage: unit gradient
  else
    qout = -0.5 * (K[c] + K[c + 1]) * ((h[c + 1] - h[c]) / dz - 1.0);
  hnew[c] = h[c] + dt / fmax(C[c], CMIN) * (qin - qout) / dz;
}

int main()
{
  const int ncol = NCOL, nlay = NLAY, ncell = NCOL * NLAY;
  const double dt = 2e-3, dz = 1.0, htop = -0.1;
  const RetentionModel model = VAN_GENUCHTEN;
  std::vector<double> soilHost(NMAT * NPAR);
  for (int m = 0; m < NMAT; m++) {
    double lo[NPAR] = {0.02, 0.35, 0.5, 1.2, 0.05}, hi[NPAR] = {0.10, 0.50, 3.0, 2.8, 1.0};
    for (int p = 0; p < NPAR; p++)
      soilHost[m * NPAR + p] = lo[p] + (hi[p] - lo[p]) * bench::uniformAt(31, m * NPAR + p, 0.0f, 1.0f);
  }
  // Layered soils: the material changes every 16 layers, differently in each column.
  std::vector<int> matHost(ncell);
  std::vector<double> h0(ncell);
  apps::parallelFor(ncol, [&](size_t col) {
    for (int l = 0; l < nlay; l++) {
      matHost[col * nlay + l] = bench::intAt(32, col * (nlay / 16) + l / 16, 0, NMAT);
      h0[col * nlay + l] = bench::uniformAt(33, col * nlay + l, -3.0f, -0.5f);
    }
  });
  double *soil = textbook::upload(soilHost);
  int *mat = textbook::upload(matHost);
  double *h = textbook::upload(h0), *hInit = textbook::snapshot(h, ncell);
  double *hnew = bench::deviceAlloc<double>(ncell);
  double *K = bench::deviceAlloc<double>(ncell), *C = bench::deviceAlloc<double>(ncell);

  int blocks = (ncell + BLOCK - 1) / BLOCK;
  double *result = nullptr;
  float ms = apps::programMs([&] { textbook::restore(h, hInit, ncell); },
                             [&] {
                               double *cur = h, *next = hnew;
                               for (int step = 0; step < NSTEPS; step++) {
                                 hydraulicProps<<<blocks, BLOCK>>>(cur, mat, soil, K, C, ncell, model);
                                 richardsStep<<<blocks, BLOCK>>>(cur, K, C, next, ncell, nlay, dt, dz, htop);
                                 std::swap(cur, next);
                               }
                               result = cur;
                             });

  // Sampled columns on the host, step by step as the kernels go.
  std::vector<size_t> cols = bench::sampleIndices(ncol, 64), cells;
  std::vector<double> want;
  for (size_t col : cols) {
    std::vector<double> hc(h0.begin() + col * nlay, h0.begin() + (col + 1) * nlay), Kc(nlay), Cc(nlay), hn(nlay);
    for (int step = 0; step < NSTEPS; step++) {
      for (int l = 0; l < nlay; l++)
        retention(hc[l], &soilHost[matHost[col * nlay + l] * NPAR], model, &Kc[l], &Cc[l]);
      for (int l = 0; l < nlay; l++) {
        double qin = l == 0 ? -Kc[l] * ((hc[l] - htop) / (0.5 * dz) - 1.0)
                            : -0.5 * (Kc[l - 1] + Kc[l]) * ((hc[l] - hc[l - 1]) / dz - 1.0);
        double qout = l == nlay - 1 ? Kc[l] : -0.5 * (Kc[l] + Kc[l + 1]) * ((hc[l + 1] - hc[l]) / dz - 1.0);
        hn[l] = hc[l] + dt / std::fmax(Cc[l], CMIN) * (qin - qout) / dz;
      }
      hc.swap(hn);
    }
    for (int l = 0; l < nlay; l++) {
      cells.push_back(col * nlay + l);
      want.push_back(hc[l]);
    }
  }
  return bench::report(__FILE__, ms, bench::checkOutputAt(result, cells, apps::valuesAt(cells, want), 1e-8, 1e-10));
}

// class: graph
// PageRank by power iteration in the pull direction, as graph-analytics codes write it
// over a CSR of in-edges: one kernel divides each vertex's rank by its out-degree, the
// next sums, for each vertex (one thread), the contributions of its in-neighbours between
// rowPtr[v] and rowPtr[v + 1]. The host loop runs NITER iterations, swapping the ranks.
// Sizes: 2^23 vertices, in-degrees 4 to 20 (1.0e8 edges); 3/4 of the sources near the
// vertex (locality), 1/4 anywhere. NITER = 20.
// Naive estimate on the H100/H200: prPull ~1 ms (400 MB of column indices, 32 MB of
// contributions gathered), prContrib ~30 us; the program ~20 ms.
// Check: every vertex's rank after NITER iterations against the same iterations in double.
#include "apps_util.h"

// cpu emulation: NV=3000

#define NV (1 << 23)
#define NITER 20
#define DAMPING 0.85f

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = NV) \
    buffers(rank[n] in range(0, 1), outDeg[n] in range(1, 24), contrib[n] out)
__global__ void prContrib(const float *rank, const int *outDeg, float *contrib, int n)
{
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n)
    contrib[v] = outDeg[v] > 0 ? rank[v] / outDeg[v] : 0.0f;
}

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = NV, damping = DAMPING) \
    buffers(rowPtr[n + 1] in range(4, 21), colIdx[13 * n] in range(0, n), contrib[n] in range(0, 1), rankNew[n] out) \
    tol(rtol = 1e-5, atol = 1e-7)
__global__ void prPull(const int *rowPtr, const int *colIdx, const float *contrib, float *rankNew, int n, float damping)
{
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  float sum = 0.0f;
  for (int e = rowPtr[v]; e < rowPtr[v + 1]; e++)
    sum += contrib[colIdx[e]];
  rankNew[v] = (1.0f - damping) / n + damping * sum;
}

int main()
{
  const int n = NV;
  std::vector<int> rowPtr(n + 1, 0);
  for (int v = 0; v < n; v++) rowPtr[v + 1] = rowPtr[v] + bench::intAt(181, v, 4, 21);
  const int m = rowPtr[n];
  std::vector<int> colIdx(m), outDeg(n, 0);
  apps::parallelFor(n, [&](size_t v) {
    for (int e = rowPtr[v]; e < rowPtr[v + 1]; e++)
      colIdx[e] = bench::intAt(182, e, 0, 4) == 0 ? bench::intAt(183, e, 0, n)
                                                  : int((v + n + bench::intAt(184, e, -512, 512)) % n);
  });
  for (int e = 0; e < m; e++) outDeg[colIdx[e]]++;
  int *dRowPtr = textbook::upload(rowPtr), *dColIdx = textbook::upload(colIdx), *dOutDeg = textbook::upload(outDeg);
  std::vector<float> init(n, 1.0f / n);
  float *rank = textbook::upload(init), *rank0 = textbook::snapshot(rank, n);
  float *rankNew = bench::deviceAlloc<float>(n), *contrib = bench::deviceAlloc<float>(n);

  int blocks = (n + 255) / 256;
  float *result = nullptr;
  float ms = apps::programMs([&] { textbook::restore(rank, rank0, n); },
                             [&] {
                               float *cur = rank, *next = rankNew;
                               for (int it = 0; it < NITER; it++) {
                                 prContrib<<<blocks, 256>>>(cur, dOutDeg, contrib, n);
                                 prPull<<<blocks, 256>>>(dRowPtr, dColIdx, contrib, next, n, DAMPING);
                                 std::swap(cur, next);
                               }
                               result = cur;
                             });

  std::vector<double> r(n, 1.0 / n), rn(n), c(n);
  for (int it = 0; it < NITER; it++) {
    for (int v = 0; v < n; v++) c[v] = outDeg[v] > 0 ? r[v] / outDeg[v] : 0.0;
    apps::parallelFor(n, [&](size_t v) {
      double sum = 0;
      for (int e = rowPtr[v]; e < rowPtr[v + 1]; e++) sum += c[colIdx[e]];
      rn[v] = (1.0 - DAMPING) / n + DAMPING * sum;
    });
    r.swap(rn);
  }
  return bench::report(__FILE__, ms, apps::checkHost(textbook::download(result, n), r, 1e-4, 1e-12));
}

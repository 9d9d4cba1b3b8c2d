// class: graph
// Breadth-first search levels from one source, top-down and level-synchronous, as the
// first GPU BFS of many graph codes is written: every launch scans all vertices, a vertex
// on the current level visits its CSR out-neighbours and labels the unvisited ones with
// the next level (the same value from any writer, so the race is benign), raising a flag;
// the host loop copies the flag back and stops when no vertex was labelled.
// Sizes: 2^22 vertices with out-degrees 2 to 14 (3.4e7 edges), random targets: about 9
// levels.
// Naive estimate on the H100/H200: bfsLevel ~0.2 ms a level (a full scan of the levels plus
// the frontier's edges); the program ~3 ms with the flag copies.
// Check: every vertex's level against a host BFS (exact).
#include "apps_util.h"

// cpu emulation: NV=3000

#define NV (1 << 22)
#define SOURCE 0

#pragma kopt optimize launch(grid: (n + 255) / 256; block: 256) args(n = NV, depth = 2) \
    buffers(rowPtr[n + 1] in range(0, 16), colIdx[8 * n] in range(0, n), level[n] inout range(-1, 4), changed[1] inout)
__global__ void bfsLevel(const int *rowPtr, const int *colIdx, int *level, int *changed, int n, int depth)
{
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || level[v] != depth) return;
  for (int e = rowPtr[v]; e < rowPtr[v + 1]; e++) {
    int w = colIdx[e];
    if (level[w] < 0) {
      level[w] = depth + 1;
      *changed = 1;
    }
  }
}

int main()
{
  const int n = NV;
  std::vector<int> rowPtr(n + 1, 0);
  for (int v = 0; v < n; v++) rowPtr[v + 1] = rowPtr[v] + bench::intAt(191, v, 2, 15);
  std::vector<int> colIdx(rowPtr[n]);
  apps::parallelFor(colIdx.size(), [&](size_t e) { colIdx[e] = bench::intAt(192, e, 0, n); });
  std::vector<int> init(n, -1);
  init[SOURCE] = 0;
  int *dRowPtr = textbook::upload(rowPtr), *dColIdx = textbook::upload(colIdx);
  int *level = textbook::upload(init), *level0 = textbook::snapshot(level, n);
  int *changed = bench::deviceAlloc<int>(1);

  int blocks = (n + 255) / 256, depth = 0;
  float ms = apps::programMs([&] { textbook::restore(level, level0, n); },
                             [&] {
                               int flag = 1;
                               for (depth = 0; flag; depth++) {
                                 BENCH_CUDA(cudaMemset(changed, 0, sizeof(int)));
                                 bfsLevel<<<blocks, 256>>>(dRowPtr, dColIdx, level, changed, n, depth);
                                 BENCH_CUDA(cudaMemcpy(&flag, changed, sizeof(int), cudaMemcpyDeviceToHost));
                               }
                             });

  std::vector<double> want(n, -1.0);
  std::vector<int> frontier(1, SOURCE), next;
  want[SOURCE] = 0;
  for (int d = 0; !frontier.empty(); d++, frontier.swap(next)) {
    next.clear();
    for (int v : frontier)
      for (int e = rowPtr[v]; e < rowPtr[v + 1]; e++)
        if (want[colIdx[e]] < 0) {
          want[colIdx[e]] = d + 1;
          next.push_back(colIdx[e]);
        }
  }
  std::fprintf(stderr, "bfs: %d levels\n", depth);
  return bench::report(__FILE__, ms, apps::checkHost(textbook::download(level, n), want, 0, 0));
}

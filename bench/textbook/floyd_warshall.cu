// class: other
// All-pairs shortest paths by Floyd-Warshall in the manner of a GPU port of PolyBench's
// floyd-warshall: a host loop over the intermediate vertex k launches a 2-D kernel that
// relaxes every pair (i, j) through k in place; integer path lengths; k and n as scalar
// parameters. Row k and column k do not change during step k, so the in-place update has
// no race.
// Sizes: n = 1024 vertices (a complete graph with weights 1..999), 1024 launches of 1M
// threads on a 4 MB matrix resident in L2.
// Naive estimate on the H100: ~5-8 us a step: ~5-10 ms.
// Check: all path lengths, exactly, against the same loops on the host.
#include "textbook_util.h"

#define N 1024

#pragma kopt optimize launch(grid: (n + 31) / 32, (n + 7) / 8; block: 32, 8) args(k = N / 2, n = N) \
    buffers(path[n * n] inout)
__global__ void floyd_kernel(int *path, int k, int n)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if (i < n && j < n)
	{
		if (path[i * n + k] + path[k * n + j] < path[i * n + j])
			path[i * n + j] = path[i * n + k] + path[k * n + j];
	}
}

int main()
{
	int n = N;
	std::vector<int> graph((size_t)n * n);
	for (size_t i = 0; i < (size_t)n; i++)
		for (size_t j = 0; j < (size_t)n; j++)
			graph[i * n + j] = i == j ? 0 : bench::intAt(371, i * n + j, 1, 1000);
	int *path_d = textbook::upload(graph);
	int *graph_d = textbook::snapshot(path_d, (size_t)n * n);

	dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
	float ms = bench::medianMsWithReset([&] { textbook::restore(path_d, graph_d, (size_t)n * n); },
	                                    [&] {
		                                    for (int k = 0; k < n; k++)
			                                    floyd_kernel<<<grid, block>>>(path_d, k, n);
	                                    });

	std::vector<int> p = graph;
	for (size_t k = 0; k < (size_t)n; k++)
		for (size_t i = 0; i < (size_t)n; i++)
			for (size_t j = 0; j < (size_t)n; j++)
				p[i * n + j] = std::min(p[i * n + j], p[i * n + k] + p[k * n + j]);
	std::vector<double> ref(p.begin(), p.end());
	return bench::report(__FILE__, ms, textbook::checkAll(path_d, ref, 0.0, 0.0));
}

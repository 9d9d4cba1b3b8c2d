// class: other
// The assignment step of k-means in the manner of the Rodinia kmeans kernel: the features
// stored transposed (feature[l * npoints + point], so that a warp's reads coalesce), one
// thread per point loops over the clusters and the features, keeps the nearest cluster
// (strict <, FLT_MAX to start) and writes its index into membership.
// Sizes: 1048576 points, 64 clusters, 32 features (2.1e9 squared differences).
// Naive estimate on the H100: the cluster table is read by the whole warp at once
// (broadcast): ~3-6 ms.
// Check: at 65536 sampled points the chosen cluster's distance (recomputed in double)
// must be the smallest distance to within 1e-5 relative: a float near-tie may pick either
// of two clusters.
#include "textbook_util.h"

#include <cfloat>

#define NPOINTS 1048576
#define NCLUSTERS 64
#define NFEATURES 32
#define THREADS 256

#pragma kopt optimize launch(grid: (npoints + THREADS - 1) / THREADS; block: THREADS) \
    args(npoints = NPOINTS, nclusters = NCLUSTERS, nfeatures = NFEATURES) \
    buffers(feature[npoints * nfeatures] in, clusters[nclusters * nfeatures] in, membership[npoints] out)
__global__ void kmeansPoint(const float *feature, int nfeatures, int npoints, int nclusters, int *membership,
                            const float *clusters)
{
	unsigned int point_id = blockIdx.x * blockDim.x + threadIdx.x;
	int index = -1;

	if (point_id < npoints)
	{
		float min_dist = FLT_MAX;
		for (int i = 0; i < nclusters; i++)
		{
			float dist = 0;
			for (int l = 0; l < nfeatures; l++)
			{
				float diff = feature[l * npoints + point_id] - clusters[i * nfeatures + l];
				dist += diff * diff;
			}
			if (dist < min_dist)
			{
				min_dist = dist;
				index = i;
			}
		}
		membership[point_id] = index;
	}
}

int main()
{
	int npoints = NPOINTS, nclusters = NCLUSTERS, nfeatures = NFEATURES;
	float *feature_d = bench::uniformBuffer((size_t)npoints * nfeatures, 361, 0.0f, 1.0f);
	float *clusters_d = bench::uniformBuffer((size_t)nclusters * nfeatures, 362, 0.0f, 1.0f);
	int *membership_d = bench::deviceAlloc<int>(npoints);

	int num_blocks = (npoints + THREADS - 1) / THREADS;
	float ms = bench::medianMs([&] {
		kmeansPoint<<<num_blocks, THREADS>>>(feature_d, nfeatures, npoints, nclusters, membership_d, clusters_d);
	});

	std::vector<float> centre = textbook::uniformHost((size_t)nclusters * nfeatures, 362, 0.0f, 1.0f);
	std::vector<size_t> points = bench::sampleIndices(npoints, 65536);
	std::vector<int> got = bench::gather(membership_d, points);
	bench::CheckResult r;
	for (size_t s = 0; s < points.size(); s++)
	{
		double best = INFINITY, chosen = INFINITY;
		for (int i = 0; i < nclusters; i++)
		{
			double d = 0;
			for (int l = 0; l < nfeatures; l++)
			{
				double diff = double(bench::uniformAt(361, (size_t)l * npoints + points[s], 0.0f, 1.0f)) - centre[i * nfeatures + l];
				d += diff * diff;
			}
			best = std::min(best, d);
			if (i == got[s])
				chosen = d;
		}
		double err = (chosen - best) / best; // INFINITY when the index is out of range.
		r.MaxRelErr = std::max(r.MaxRelErr, err);
		++r.Checked;
		if (!(err <= 1e-5))
		{
			if (r.Failed < 5)
				std::fprintf(stderr, "point %zu: cluster %d at %.9g, nearest at %.9g\n", points[s], got[s], chosen, best);
			++r.Failed;
			r.Ok = false;
		}
	}
	return bench::report(__FILE__, ms, r);
}

// class: stats
// Correlation matrix of M variables over N samples in the manner of a PolyBench-style
// port with `typedef float DATA_TYPE;`: one thread per column for the mean and for the
// standard deviation (sqrt, and 1 where it is below EPS), a 2-D kernel that standardizes
// the data in place, and one thread per column j1 that loops over j2 > j1 with a
// register sum over the samples and mirrors the result.
// Sizes: M = 1024 variables, N = 1280 samples (6.7e8 multiply-adds on 1024 threads).
// Naive estimate on the H100: 4 blocks; thread 0 runs 1.3e6 loop steps: ~30-100 ms.
// Check: mean, stddev, the standardized data and symmat in full against a double
// reference.
#include "textbook_util.h"

typedef float DATA_TYPE;

#define M 1024
#define N 1280
#define EPS 0.001f
#define THREADS 256

#pragma kopt optimize launch(grid: (M + THREADS - 1) / THREADS; block: THREADS) args(float_n = N) \
    buffers(mean[M] out, data[N * M] in) tol(rtol = 1e-3, atol = 1e-5)
__global__ void mean_kernel(DATA_TYPE *mean, DATA_TYPE *data, DATA_TYPE float_n)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	if (j < M) {
		mean[j] = 0.0;
		for (int i = 0; i < N; i++)
			mean[j] += data[i * M + j];
		mean[j] /= float_n;
	}
}

#pragma kopt optimize launch(grid: (M + THREADS - 1) / THREADS; block: THREADS) args(float_n = N) \
    buffers(mean[M] in, stddev[M] out, data[N * M] in) tol(rtol = 1e-3, atol = 1e-5)
__global__ void std_kernel(DATA_TYPE *mean, DATA_TYPE *stddev, DATA_TYPE *data, DATA_TYPE float_n)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	if (j < M) {
		stddev[j] = 0.0;
		for (int i = 0; i < N; i++)
			stddev[j] += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]);
		stddev[j] /= float_n;
		stddev[j] = sqrtf(stddev[j]);
		if (stddev[j] <= EPS)
			stddev[j] = 1.0;
	}
}

#pragma kopt optimize launch(grid: (M + 31) / 32, (N + 7) / 8; block: 32, 8) args(float_n = N) \
    buffers(mean[M] in, stddev[M] in, data[N * M] inout) tol(rtol = 1e-4, atol = 1e-6)
__global__ void reduce_kernel(DATA_TYPE *mean, DATA_TYPE *stddev, DATA_TYPE *data, DATA_TYPE float_n)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if ((i < N) && (j < M)) {
		data[i * M + j] -= mean[j];
		data[i * M + j] /= (sqrtf(float_n) * stddev[j]);
	}
}

#pragma kopt optimize launch(grid: (M + THREADS - 1) / THREADS; block: THREADS) \
    buffers(symmat[M * M] out, data[N * M] in) tol(rtol = 1e-3, atol = 1e-5)
__global__ void corr_kernel(DATA_TYPE *symmat, DATA_TYPE *data)
{
	int j1 = blockIdx.x * blockDim.x + threadIdx.x;
	if (j1 < M) {
		symmat[j1 * M + j1] = 1.0;
		for (int j2 = j1 + 1; j2 < M; j2++) {
			DATA_TYPE sum = 0.0;
			for (int i = 0; i < N; ++i)
				sum += data[i * M + j1] * data[i * M + j2];
			symmat[j1 * M + j2] = sum;
			symmat[j2 * M + j1] = sum;
		}
	}
}

int main()
{
	DATA_TYPE float_n = (DATA_TYPE)N;
	DATA_TYPE *data = bench::uniformBuffer((size_t)N * M, 211, 0.0f, 1.0f);
	DATA_TYPE *data_in = textbook::snapshot(data, (size_t)N * M);
	DATA_TYPE *mean = bench::deviceAlloc<DATA_TYPE>(M);
	DATA_TYPE *stddev = bench::deviceAlloc<DATA_TYPE>(M);
	DATA_TYPE *symmat = bench::deviceAlloc<DATA_TYPE>((size_t)M * M);

	dim3 block1(THREADS), grid1((M + THREADS - 1) / THREADS);
	dim3 block2(32, 8), grid2((M + 31) / 32, (N + 7) / 8);
	float ms = bench::medianMsWithReset([&] { textbook::restore(data, data_in, (size_t)N * M); },
	                                    [&] {
		                                    mean_kernel<<<grid1, block1>>>(mean, data, float_n);
		                                    std_kernel<<<grid1, block1>>>(mean, stddev, data, float_n);
		                                    reduce_kernel<<<grid2, block2>>>(mean, stddev, data, float_n);
		                                    corr_kernel<<<grid1, block1>>>(symmat, data);
	                                    },
	                                    1, 7);

	std::vector<double> d = textbook::widen(textbook::uniformHost((size_t)N * M, 211, 0.0f, 1.0f));
	std::vector<double> rMean(M, 0.0), rStd(M, 0.0), rSym((size_t)M * M);
	for (size_t i = 0; i < N; i++)
		for (size_t j = 0; j < M; j++)
			rMean[j] += d[i * M + j];
	for (size_t j = 0; j < M; j++)
		rMean[j] /= N;
	for (size_t i = 0; i < N; i++)
		for (size_t j = 0; j < M; j++)
			rStd[j] += (d[i * M + j] - rMean[j]) * (d[i * M + j] - rMean[j]);
	for (size_t j = 0; j < M; j++) {
		rStd[j] = std::sqrt(rStd[j] / N);
		if (rStd[j] <= EPS)
			rStd[j] = 1.0;
	}
	std::vector<double> column((size_t)M * N); // The standardized data by column.
	for (size_t i = 0; i < N; i++)
		for (size_t j = 0; j < M; j++) {
			d[i * M + j] = (d[i * M + j] - rMean[j]) / (std::sqrt(double(N)) * rStd[j]);
			column[j * N + i] = d[i * M + j];
		}
	for (size_t j1 = 0; j1 < M; j1++) {
		rSym[j1 * M + j1] = 1.0;
		for (size_t j2 = j1 + 1; j2 < M; j2++) {
			double s = 0;
			for (size_t i = 0; i < N; i++)
				s += column[j1 * N + i] * column[j2 * N + i];
			rSym[j1 * M + j2] = rSym[j2 * M + j1] = s;
		}
	}
	bench::CheckResult r = textbook::checkAll(mean, rMean, 1e-4, 1e-6);
	r = bench::combine(r, textbook::checkAll(stddev, rStd, 1e-4, 1e-6));
	r = bench::combine(r, textbook::checkAll(data, d, 1e-3, 1e-5));
	r = bench::combine(r, textbook::checkAll(symmat, rSym, 1e-3, 1e-4));
	return bench::report(__FILE__, ms, r);
}

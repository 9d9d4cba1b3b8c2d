// class: stats
// Covariance matrix of M variables over N samples in the manner of PolyBench-GPU's
// covariance: one thread per column computes the column mean into global memory, a 2-D
// kernel centers the data in place, and one thread per column j1 loops over j2 >= j1 and
// over all samples, accumulating symmat[j1][j2] in global memory and mirroring it to
// symmat[j2][j1]; float_n is a scalar parameter.
// Sizes: M = 1024 variables, N = 1152 samples (6.0e8 multiply-adds on 1024 threads;
// thread j1 does (M - j1) * N of them).
// Naive estimate on the H100: 4 blocks of 256 threads, thread 0 runs 1.2e6 dependent
// global read-modify-writes: ~50-150 ms.
// Check: mean, the centered data and symmat in full against a double reference.
#include "textbook_util.h"

#define M 1024
#define N 1152

#define DIM_THREAD_BLOCK_KERNEL_1_X 256
#define DIM_THREAD_BLOCK_KERNEL_2_X 32
#define DIM_THREAD_BLOCK_KERNEL_2_Y 8
#define DIM_THREAD_BLOCK_KERNEL_3_X 256

#pragma kopt optimize launch(grid: (M + DIM_THREAD_BLOCK_KERNEL_1_X - 1) / DIM_THREAD_BLOCK_KERNEL_1_X; \
    block: DIM_THREAD_BLOCK_KERNEL_1_X) args(float_n = N) buffers(mean[M] out, data[N * M] in) \
    tol(rtol = 1e-3, atol = 1e-5)
__global__ void mean_kernel(float *mean, float *data, float float_n)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if (j < M)
	{
		mean[j] = 0.0;

		int i;
		for (i = 0; i < N; i++)
		{
			mean[j] += data[i * M + j];
		}
		mean[j] /= float_n;
	}
}

#pragma kopt optimize launch(grid: (M + DIM_THREAD_BLOCK_KERNEL_2_X - 1) / DIM_THREAD_BLOCK_KERNEL_2_X, \
    (N + DIM_THREAD_BLOCK_KERNEL_2_Y - 1) / DIM_THREAD_BLOCK_KERNEL_2_Y; \
    block: DIM_THREAD_BLOCK_KERNEL_2_X, DIM_THREAD_BLOCK_KERNEL_2_Y) \
    buffers(mean[M] in, data[N * M] inout)
__global__ void reduce_kernel(float *mean, float *data)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < N) && (j < M))
	{
		data[i * M + j] -= mean[j];
	}
}

#pragma kopt optimize launch(grid: (M + DIM_THREAD_BLOCK_KERNEL_3_X - 1) / DIM_THREAD_BLOCK_KERNEL_3_X; \
    block: DIM_THREAD_BLOCK_KERNEL_3_X) args(float_n = N) buffers(symmat[M * M] out, data[N * M] in) \
    tol(rtol = 1e-3, atol = 1e-5)
__global__ void covar_kernel(float *symmat, float *data, float float_n)
{
	int j1 = blockIdx.x * blockDim.x + threadIdx.x;
	int i, j2;

	if (j1 < M)
	{
		for (j2 = j1; j2 < M; j2++)
		{
			symmat[j1 * M + j2] = 0.0;
			for (i = 0; i < N; i++)
			{
				symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
			}
			symmat[j1 * M + j2] /= (float_n - 1.0f);
			symmat[j2 * M + j1] = symmat[j1 * M + j2];
		}
	}
}

int main()
{
	float float_n = (float)N;
	float *data_gpu = bench::uniformBuffer((size_t)N * M, 201);
	float *data_start = textbook::snapshot(data_gpu, (size_t)N * M);
	float *mean_gpu = bench::deviceAlloc<float>(M);
	float *symmat_gpu = bench::deviceAlloc<float>((size_t)M * M);

	dim3 block1(DIM_THREAD_BLOCK_KERNEL_1_X);
	dim3 grid1((M + DIM_THREAD_BLOCK_KERNEL_1_X - 1) / DIM_THREAD_BLOCK_KERNEL_1_X);
	dim3 block2(DIM_THREAD_BLOCK_KERNEL_2_X, DIM_THREAD_BLOCK_KERNEL_2_Y);
	dim3 grid2((M + DIM_THREAD_BLOCK_KERNEL_2_X - 1) / DIM_THREAD_BLOCK_KERNEL_2_X,
	           (N + DIM_THREAD_BLOCK_KERNEL_2_Y - 1) / DIM_THREAD_BLOCK_KERNEL_2_Y);
	dim3 block3(DIM_THREAD_BLOCK_KERNEL_3_X);
	dim3 grid3((M + DIM_THREAD_BLOCK_KERNEL_3_X - 1) / DIM_THREAD_BLOCK_KERNEL_3_X);
	float ms = bench::medianMsWithReset([&] { textbook::restore(data_gpu, data_start, (size_t)N * M); },
	                                    [&] {
		                                    mean_kernel<<<grid1, block1>>>(mean_gpu, data_gpu, float_n);
		                                    reduce_kernel<<<grid2, block2>>>(mean_gpu, data_gpu);
		                                    covar_kernel<<<grid3, block3>>>(symmat_gpu, data_gpu, float_n);
	                                    },
	                                    1, 7);

	std::vector<double> data = textbook::widen(textbook::uniformHost((size_t)N * M, 201));
	std::vector<double> mean(M, 0.0), symmat((size_t)M * M);
	for (size_t i = 0; i < N; i++)
		for (size_t j = 0; j < M; j++)
			mean[j] += data[i * M + j];
	for (size_t j = 0; j < M; j++)
		mean[j] /= N;
	for (size_t i = 0; i < N; i++)
		for (size_t j = 0; j < M; j++)
			data[i * M + j] -= mean[j];
	std::vector<double> column((size_t)M * N); // The centered data by column, for fast dots.
	for (size_t i = 0; i < N; i++)
		for (size_t j = 0; j < M; j++)
			column[j * N + i] = data[i * M + j];
	for (size_t j1 = 0; j1 < M; j1++)
		for (size_t j2 = j1; j2 < M; j2++)
		{
			double s = 0;
			for (size_t i = 0; i < N; i++)
				s += column[j1 * N + i] * column[j2 * N + i];
			symmat[j1 * M + j2] = symmat[j2 * M + j1] = s / (N - 1.0);
		}
	bench::CheckResult r = textbook::checkAll(mean_gpu, mean, 1e-3, 1e-5);
	r = bench::combine(r, textbook::checkAll(data_gpu, data, 1e-3, 1e-5));
	r = bench::combine(r, textbook::checkAll(symmat_gpu, symmat, 1e-3, 1e-5));
	return bench::report(__FILE__, ms, r);
}

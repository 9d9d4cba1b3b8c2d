// class: stencil
// 2-D finite-difference time domain (Yee scheme, TE mode) in the manner of PolyBench-GPU's
// fdtd-2d: per time step three kernels update ey (row 0 from the source _fict_[t]), ex and
// hz, each a 2-D grid with j from x and i from y; the time step t is a scalar parameter
// of the first; macro sizes; float literal coefficients.
// Sizes: NX = 2048, NY = 2304 (19 MB a field), TMAX = 100 (300 launches).
// Naive estimate on the H100: ~10-20 us a kernel: ~4-6 ms.
// Check: ex, ey and hz in full against the same steps in double on the host.
#include "textbook_util.h"

#define NX 2048
#define NY 2304
#define TMAX 100

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

#pragma kopt optimize launch(grid: (NY + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, \
    (NX + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y; block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) \
    args(t = 0) buffers(_fict_[TMAX] in, ex[NX * NY] in, ey[NX * NY] inout, hz[NX * NY] in) tol(rtol = 1e-5, atol = 1e-6)
__global__ void fdtd_step1_kernel(float *_fict_, float *ex, float *ey, float *hz, int t)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NX) && (j < NY))
	{
		if (i == 0)
		{
			ey[i * NY + j] = _fict_[t];
		}
		else
		{
			ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
		}
	}
}

#pragma kopt optimize launch(grid: (NY + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, \
    (NX + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y; block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) \
    buffers(ex[NX * NY] inout, ey[NX * NY] in, hz[NX * NY] in) tol(rtol = 1e-5, atol = 1e-6)
__global__ void fdtd_step2_kernel(float *ex, float *ey, float *hz)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NX) && (j < NY) && (j > 0))
	{
		ex[i * NY + j] = ex[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]);
	}
}

#pragma kopt optimize launch(grid: (NY + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, \
    (NX + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y; block: DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y) \
    buffers(ex[NX * NY] in, ey[NX * NY] in, hz[NX * NY] inout) tol(rtol = 1e-5, atol = 1e-6)
__global__ void fdtd_step3_kernel(float *ex, float *ey, float *hz)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < (NX - 1)) && (j < (NY - 1)))
	{
		hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * NY + (j + 1)] - ex[i * NY + j] + ey[(i + 1) * NY + j] - ey[i * NY + j]);
	}
}

int main()
{
	size_t n = (size_t)NX * NY;
	float *fict = bench::uniformBuffer(TMAX, 271);
	float *ex = bench::uniformBuffer(n, 272), *ey = bench::uniformBuffer(n, 273), *hz = bench::uniformBuffer(n, 274);
	float *ex0 = textbook::snapshot(ex, n), *ey0 = textbook::snapshot(ey, n), *hz0 = textbook::snapshot(hz, n);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((NY + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, (NX + DIM_THREAD_BLOCK_Y - 1) / DIM_THREAD_BLOCK_Y);
	float ms = bench::medianMsWithReset(
		[&] {
			textbook::restore(ex, ex0, n);
			textbook::restore(ey, ey0, n);
			textbook::restore(hz, hz0, n);
		},
		[&] {
			for (int t = 0; t < TMAX; t++)
			{
				fdtd_step1_kernel<<<grid, block>>>(fict, ex, ey, hz, t);
				fdtd_step2_kernel<<<grid, block>>>(ex, ey, hz);
				fdtd_step3_kernel<<<grid, block>>>(ex, ey, hz);
			}
		});

	std::vector<float> f = textbook::uniformHost(TMAX, 271);
	std::vector<double> rx = textbook::widen(textbook::uniformHost(n, 272));
	std::vector<double> ry = textbook::widen(textbook::uniformHost(n, 273));
	std::vector<double> rh = textbook::widen(textbook::uniformHost(n, 274));
	const double half = 0.5f, c = 0.7f;
	for (int t = 0; t < TMAX; t++)
	{
		for (size_t j = 0; j < NY; j++)
			ry[j] = f[t];
		for (size_t i = 1; i < NX; i++)
			for (size_t j = 0; j < NY; j++)
				ry[i * NY + j] -= half * (rh[i * NY + j] - rh[(i - 1) * NY + j]);
		for (size_t i = 0; i < NX; i++)
			for (size_t j = 1; j < NY; j++)
				rx[i * NY + j] -= half * (rh[i * NY + j] - rh[i * NY + j - 1]);
		for (size_t i = 0; i + 1 < NX; i++)
			for (size_t j = 0; j + 1 < NY; j++)
				rh[i * NY + j] -= c * (rx[i * NY + j + 1] - rx[i * NY + j] + ry[(i + 1) * NY + j] - ry[i * NY + j]);
	}
	bench::CheckResult r = textbook::checkAll(ex, rx, 1e-3, 1e-4);
	r = bench::combine(r, textbook::checkAll(ey, ry, 1e-3, 1e-4));
	r = bench::combine(r, textbook::checkAll(hz, rh, 1e-3, 1e-4));
	return bench::report(__FILE__, ms, r);
}

// class: stencil
// 3-D 7-point Jacobi stencil in the manner of the Parboil "stencil" benchmark's naive
// kernel: a 2-D grid of threads over the interior of each x-y plane (i and j offset by
// one), each thread walking its column in z; an Index3D(nx, ny, i, j, k) macro for the
// x-fastest layout; c0 and c1 as parameters; the host swaps A0 and Anext every iteration.
// Sizes: 512 x 448 x 64 (59 MB a grid), 30 iterations.
// Naive estimate on the H100: ~40-60 us an iteration: ~1.5-2 ms.
// Check: the final grid in full against the same iterations in double on the host.
#include "textbook_util.h"

#define NX 512
#define NY 448
#define NZ 64
#define ITERATIONS 30

#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))

#pragma kopt optimize launch(grid: (nx - 2 + 31) / 32, (ny - 2 + 7) / 8; block: 32, 8) \
    args(c0 = 0.25f, c1 = 0.125f, nx = NX, ny = NY, nz = NZ) \
    buffers(A0[nx * ny * nz] in, Anext[nx * ny * nz] inout) tol(rtol = 1e-5, atol = 1e-6)
__global__ void naive_kernel(float c0, float c1, float *A0, float *Anext, int nx, int ny, int nz)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
	int j = blockIdx.y * blockDim.y + threadIdx.y + 1;

	if (i < nx - 1 && j < ny - 1)
	{
		for (int k = 1; k < nz - 1; k++)
		{
			Anext[Index3D(nx, ny, i, j, k)] = (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
			                                   A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
			                                   A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) * c1 -
			                                  A0[Index3D(nx, ny, i, j, k)] * c0;
		}
	}
}

int main()
{
	int nx = NX, ny = NY, nz = NZ;
	size_t size = (size_t)nx * ny * nz;
	float c0 = 0.25f, c1 = 0.125f;
	float *d_A0 = bench::uniformBuffer(size, 311);
	float *d_Anext = textbook::snapshot(d_A0, size);
	float *d_init = textbook::snapshot(d_A0, size);

	dim3 block(32, 8);
	dim3 grid((nx - 2 + 31) / 32, (ny - 2 + 7) / 8);
	float *result = nullptr;
	float ms = bench::medianMsWithReset(
		[&] {
			textbook::restore(d_A0, d_init, size);
			textbook::restore(d_Anext, d_init, size);
		},
		[&] {
			float *a0 = d_A0, *anext = d_Anext;
			for (int t = 0; t < ITERATIONS; t++)
			{
				naive_kernel<<<grid, block>>>(c0, c1, a0, anext, nx, ny, nz);
				float *tmp = a0;
				a0 = anext;
				anext = tmp;
			}
			result = a0;
		});

	std::vector<double> a = textbook::widen(textbook::uniformHost(size, 311)), b = a;
	for (int t = 0; t < ITERATIONS; t++)
	{
		for (int k = 1; k < nz - 1; k++)
			for (int j = 1; j < ny - 1; j++)
				for (int i = 1; i < nx - 1; i++)
					b[Index3D(nx, ny, i, j, k)] =
						(a[Index3D(nx, ny, i, j, k + 1)] + a[Index3D(nx, ny, i, j, k - 1)] + a[Index3D(nx, ny, i, j + 1, k)] +
						 a[Index3D(nx, ny, i, j - 1, k)] + a[Index3D(nx, ny, i + 1, j, k)] + a[Index3D(nx, ny, i - 1, j, k)]) *
							double(c1) -
						a[Index3D(nx, ny, i, j, k)] * double(c0);
		a.swap(b);
	}
	return bench::report(__FILE__, ms, textbook::checkAll(result, a, 1e-4, 1e-5));
}

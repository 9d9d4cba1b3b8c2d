// class: linalg
// Three chained products, G = (A * B) * (C * D), as three kernels in the manner of
// PolyBench's 3mm on the GPU: E = A * B, F = C * D, G = E * F, each with its sizes as
// parameters, a row pointer as a local and a register sum, j from x and i from y.
// Sizes: A 1536 x 1408, B 1408 x 1664, C 1664 x 1280, D 1280 x 1792 (1.0e10
// multiply-adds in all).
// Naive estimate on the H100: ~15-25 ms for the three products.
// Check: 256 sampled elements of E and of F, and an 8 x 8 grid of elements of G, each
// recomputed in double from the inputs.
#include "textbook_util.h"

#define NI 1536
#define NJ 1664
#define NK 1408
#define NL 1792
#define NM 1280

#define BX 32
#define BY 8

// E := A * B
#pragma kopt optimize launch(grid: (nj + BX - 1) / BX, (ni + BY - 1) / BY; block: BX, BY) \
    args(ni = NI, nj = NJ, nk = NK) buffers(A[ni * nk] in, B[nk * nj] in, E[ni * nj] out) \
    tol(rtol = 1e-3, atol = 1e-3)
__global__ void mm3_kernel1(int ni, int nj, int nk, const float *A, const float *B, float *E)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i < ni && j < nj) {
		const float *a = A + i * nk;
		float sum = 0.0f;
		for (int k = 0; k < nk; k++)
			sum += a[k] * B[k * nj + j];
		E[i * nj + j] = sum;
	}
}

// F := C * D
#pragma kopt optimize launch(grid: (nl + BX - 1) / BX, (nj + BY - 1) / BY; block: BX, BY) \
    args(nj = NJ, nl = NL, nm = NM) buffers(C[nj * nm] in, D[nm * nl] in, F[nj * nl] out) \
    tol(rtol = 1e-3, atol = 1e-3)
__global__ void mm3_kernel2(int nj, int nl, int nm, const float *C, const float *D, float *F)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i < nj && j < nl) {
		const float *c = C + i * nm;
		float sum = 0.0f;
		for (int k = 0; k < nm; k++)
			sum += c[k] * D[k * nl + j];
		F[i * nl + j] = sum;
	}
}

// G := E * F
#pragma kopt optimize launch(grid: (nl + BX - 1) / BX, (ni + BY - 1) / BY; block: BX, BY) \
    args(ni = NI, nj = NJ, nl = NL) buffers(E[ni * nj] in, F[nj * nl] in, G[ni * nl] out) \
    tol(rtol = 1e-3, atol = 1e-3)
__global__ void mm3_kernel3(int ni, int nj, int nl, const float *E, const float *F, float *G)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i < ni && j < nl) {
		const float *e = E + i * nj;
		float sum = 0.0f;
		for (int k = 0; k < nj; k++)
			sum += e[k] * F[k * nl + j];
		G[i * nl + j] = sum;
	}
}

// Element (i, j) of X * Y for X = uniform(SeedX) rows x Inner and Y = uniform(SeedY)
// Inner x Cols, in double.
static double product(uint64_t SeedX, uint64_t SeedY, size_t Inner, size_t Cols, size_t i, size_t j)
{
	double s = 0;
	for (size_t k = 0; k < Inner; k++)
		s += double(bench::uniformAt(SeedX, i * Inner + k)) * bench::uniformAt(SeedY, k * Cols + j);
	return s;
}

int main()
{
	float *A = bench::uniformBuffer((size_t)NI * NK, 71);
	float *B = bench::uniformBuffer((size_t)NK * NJ, 72);
	float *C = bench::uniformBuffer((size_t)NJ * NM, 73);
	float *D = bench::uniformBuffer((size_t)NM * NL, 74);
	float *E = bench::deviceAlloc<float>((size_t)NI * NJ);
	float *F = bench::deviceAlloc<float>((size_t)NJ * NL);
	float *G = bench::deviceAlloc<float>((size_t)NI * NL);

	dim3 block(BX, BY);
	dim3 grid1((NJ + BX - 1) / BX, (NI + BY - 1) / BY);
	dim3 grid2((NL + BX - 1) / BX, (NJ + BY - 1) / BY);
	dim3 grid3((NL + BX - 1) / BX, (NI + BY - 1) / BY);
	float ms = bench::medianMs([&] {
		mm3_kernel1<<<grid1, block>>>(NI, NJ, NK, A, B, E);
		mm3_kernel2<<<grid2, block>>>(NJ, NL, NM, C, D, F);
		mm3_kernel3<<<grid3, block>>>(NI, NJ, NL, E, F, G);
	});

	auto refE = [](size_t idx) { return product(71, 72, NK, NJ, idx / NJ, idx % NJ); };
	auto refF = [](size_t idx) { return product(73, 74, NM, NL, idx / NL, idx % NL); };
	bench::CheckResult r = bench::combine(bench::checkOutput(E, (size_t)NI * NJ, 256, refE, 1e-3, 1e-3),
	                                      bench::checkOutput(F, (size_t)NJ * NL, 256, refF, 1e-3, 1e-3));

	// G at the crossings of 8 sampled rows and 8 sampled columns: one row of E and one
	// column of F each, in double.
	std::vector<size_t> rows = bench::sampleIndices(NI, 8), cols = bench::sampleIndices(NL, 8);
	std::vector<std::vector<double>> eRow(rows.size(), std::vector<double>(NJ));
	std::vector<std::vector<double>> fCol(cols.size(), std::vector<double>(NJ));
	for (size_t r = 0; r < rows.size(); r++)
		for (size_t k = 0; k < NJ; k++)
			eRow[r][k] = product(71, 72, NK, NJ, rows[r], k);
	for (size_t c = 0; c < cols.size(); c++)
		for (size_t k = 0; k < NJ; k++)
			fCol[c][k] = product(73, 74, NM, NL, k, cols[c]);
	std::vector<size_t> index;
	for (size_t r : rows)
		for (size_t c : cols)
			index.push_back(r * NL + c);
	auto refG = [&](size_t idx) {
		size_t r = std::lower_bound(rows.begin(), rows.end(), idx / NL) - rows.begin();
		size_t c = std::lower_bound(cols.begin(), cols.end(), idx % NL) - cols.begin();
		double g = 0;
		for (size_t k = 0; k < NJ; k++)
			g += eRow[r][k] * fCol[c][k];
		return g;
	};
	r = bench::combine(r, bench::checkOutputAt(G, index, refG, 1e-3, 1e-3));
	return bench::report(__FILE__, ms, r);
}

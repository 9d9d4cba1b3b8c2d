// class: stencil
// A 2-D box blur in the manner of Rodinia and of CUDA samples of its time: the block's
// size a macro (BLOCK_SIZE) that the kernel multiplies blockIdx by instead of reading
// blockDim, the geometry in locals (bx, by, tx, ty), the image's edges handled by an
// early return, a 3 x 3 window with weights 1-2-1, width and height as parameters.
// Sizes: 8192 x 8192 floats (256 MB each way).
// Naive estimate on the H100: ~0.2 GB read and written at ~2 TB/s: ~0.3 ms.
// Check: every interior pixel against the same blur in double.
#include "textbook_util.h"

#define BLOCK_SIZE 16
#define WIDTH 8192
#define HEIGHT 8192

#pragma kopt optimize launch(grid: (width + BLOCK_SIZE - 1) / BLOCK_SIZE, (height + BLOCK_SIZE - 1) / BLOCK_SIZE; \
    block: BLOCK_SIZE, BLOCK_SIZE) args(width = WIDTH, height = HEIGHT) \
    buffers(src[width * height] in, dst[width * height] out) tol(rtol = 1e-5, atol = 1e-6) noalias
__global__ void blur3x3(const float *src, float *dst, int width, int height)
{
	int bx = blockIdx.x, by = blockIdx.y;
	int tx = threadIdx.x, ty = threadIdx.y;
	int x = bx * BLOCK_SIZE + tx;
	int y = by * BLOCK_SIZE + ty;
	if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
		return;
	float sum = src[(y - 1) * width + x - 1] + 2.0f * src[(y - 1) * width + x] + src[(y - 1) * width + x + 1];
	sum += 2.0f * src[y * width + x - 1] + 4.0f * src[y * width + x] + 2.0f * src[y * width + x + 1];
	sum += src[(y + 1) * width + x - 1] + 2.0f * src[(y + 1) * width + x] + src[(y + 1) * width + x + 1];
	dst[y * width + x] = sum * (1.0f / 16.0f);
}

int main()
{
	int width = WIDTH, height = HEIGHT;
	size_t n = (size_t)width * height;
	float *src = bench::uniformBuffer(n, 301);
	float *dst = bench::zeroBuffer<float>(n);
	dim3 block(BLOCK_SIZE, BLOCK_SIZE);
	dim3 grid((width + BLOCK_SIZE - 1) / BLOCK_SIZE, (height + BLOCK_SIZE - 1) / BLOCK_SIZE);
	float ms = bench::medianMs([&] { blur3x3<<<grid, block>>>(src, dst, width, height); });

	std::vector<float> in = textbook::uniformHost(n, 301);
	std::vector<double> want(n, 0.0);
	for (int y = 1; y < height - 1; y++)
		for (int x = 1; x < width - 1; x++) {
			auto at = [&](int yy, int xx) { return double(in[(size_t)yy * width + xx]); };
			double s = at(y - 1, x - 1) + 2 * at(y - 1, x) + at(y - 1, x + 1) + 2 * at(y, x - 1) + 4 * at(y, x) +
			           2 * at(y, x + 1) + at(y + 1, x - 1) + 2 * at(y + 1, x) + at(y + 1, x + 1);
			want[(size_t)y * width + x] = s / 16.0;
		}
	return bench::report(__FILE__, ms, textbook::checkAll(dst, want, 1e-5, 1e-6));
}

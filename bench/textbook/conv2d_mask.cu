// class: stencil
// 2-D convolution with a (2r+1) x (2r+1) mask passed as a buffer, in the manner of the
// textbook's basic convolution kernel (Kirk & Hwu): the radius, width and height as
// parameters, loops over the mask rows and columns, zero padding by a bounds check on
// every input read, a register accumulator, an output guard.
// Sizes: an 8192 x 12288 image (384 MB), a 5 x 5 mask (r = 2): 2.5e9 multiply-adds.
// Naive estimate on the H100: ~1.5-3 ms.
// Check: 4096 sampled pixels recomputed in double.
#include "textbook_util.h"

#define HEIGHT 8192
#define WIDTH 12288
#define MASK_RADIUS 2
#define TILE 16

#pragma kopt optimize launch(grid: (width + TILE - 1) / TILE, (height + TILE - 1) / TILE; block: TILE, TILE) \
    args(r = MASK_RADIUS, width = WIDTH, height = HEIGHT) \
    buffers(N[width * height] in, M[(2 * r + 1) * (2 * r + 1)] in, P[width * height] out) \
    tol(rtol = 1e-4, atol = 1e-5)
__global__ void convolution_2D_basic_kernel(float *N, float *M, float *P, int r, int width, int height)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;

    if (row < height && col < width) {
        float pixVal = 0;
        int startRow = row - r;
        int startCol = col - r;
        for (int j = 0; j < 2 * r + 1; ++j) {
            for (int k = 0; k < 2 * r + 1; ++k) {
                int curRow = startRow + j;
                int curCol = startCol + k;
                // Verify we have a valid image pixel
                if (curRow > -1 && curRow < height && curCol > -1 && curCol < width) {
                    pixVal += N[curRow * width + curCol] * M[j * (2 * r + 1) + k];
                }
            }
        }
        P[row * width + col] = pixVal;
    }
}

int main()
{
    int width = WIDTH, height = HEIGHT, r = MASK_RADIUS;
    size_t pixels = (size_t)width * height;
    float *d_N = bench::uniformBuffer(pixels, 321, 0.0f, 1.0f);
    float *d_M = bench::uniformBuffer((2 * r + 1) * (2 * r + 1), 322);
    float *d_P = bench::deviceAlloc<float>(pixels);

    dim3 dimBlock(TILE, TILE);
    dim3 dimGrid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    float ms = bench::medianMs([&] { convolution_2D_basic_kernel<<<dimGrid, dimBlock>>>(d_N, d_M, d_P, r, width, height); });

    auto ref = [&](size_t idx) {
        long row = idx / width, col = idx % width;
        double v = 0;
        for (long j = 0; j <= 2 * r; j++)
            for (long k = 0; k <= 2 * r; k++) {
                long y = row - r + j, x = col - r + k;
                if (y >= 0 && y < height && x >= 0 && x < width)
                    v += double(bench::uniformAt(321, y * width + x, 0.0f, 1.0f)) * bench::uniformAt(322, j * (2 * r + 1) + k);
            }
        return v;
    };
    return bench::report(__FILE__, ms, bench::checkOutput(d_P, pixels, 4096, ref, 1e-4, 1e-5));
}

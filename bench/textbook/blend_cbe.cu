// class: stencil
// One step of the heat-transfer simulation in the manner of "CUDA by Example" (chapter 7,
// before textures): x and y from threadIdx + blockIdx * blockDim, the row's width read as
// blockDim.x * gridDim.x, edges clamped by adjusting the neighbour offsets by hand, no
// bounds check because DIM is a multiple of the 16 x 16 block, and the host swapping the
// two grids after each step.
// Sizes: DIM = 8192 (256 MB a grid), 20 steps.
// Naive estimate on the H100: 512 MB moved a step at ~2 TB/s: ~0.25 ms a step, ~5 ms.
// Check: the final grid in full against the same steps in double on the host.
#include "textbook_util.h"

#define DIM 8192
#define SPEED 0.25f
#define STEPS 20

#pragma kopt optimize launch(grid: DIM / 16, DIM / 16; block: 16, 16) \
    buffers(out[DIM * DIM] out, in[DIM * DIM] in) tol(rtol = 1e-5, atol = 1e-6) noalias
__global__ void blend_kernel(float *out, const float *in) {
    // map from threadIdx/BlockIdx to pixel position
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    int y = threadIdx.y + blockIdx.y * blockDim.y;
    int offset = x + y * blockDim.x * gridDim.x;

    int left = offset - 1;
    int right = offset + 1;
    if (x == 0) left++;
    if (x == DIM - 1) right--;

    int top = offset - DIM;
    int bottom = offset + DIM;
    if (y == 0) top += DIM;
    if (y == DIM - 1) bottom -= DIM;

    out[offset] = in[offset] + SPEED * (in[top] + in[bottom] + in[left] + in[right] -
                                        in[offset] * 4);
}

int main() {
    size_t n = (size_t)DIM * DIM;
    size_t bytes = n * sizeof(float);
    float *d_a = bench::uniformBuffer(n, 281);
    float *d_b = bench::deviceAlloc<float>(n);
    float *d_init = textbook::snapshot(d_a, n);

    dim3 blocks(DIM / 16, DIM / 16);
    dim3 threads(16, 16);
    float *d_result = nullptr;
    float ms = bench::medianMsWithReset(
        [&] { cudaMemcpy(d_a, d_init, bytes, cudaMemcpyDeviceToDevice); },
        [&] {
            float *src = d_a, *dst = d_b;
            for (int step = 0; step < STEPS; step++) {
                blend_kernel<<<blocks, threads>>>(dst, src);
                float *tmp = src;
                src = dst;
                dst = tmp;
            }
            d_result = src;
        });

    std::vector<double> a = textbook::widen(textbook::uniformHost(n, 281)), b(n);
    for (int step = 0; step < STEPS; step++) {
        for (size_t y = 0; y < DIM; y++)
            for (size_t x = 0; x < DIM; x++) {
                size_t o = y * DIM + x;
                size_t l = x == 0 ? o : o - 1, r = x == DIM - 1 ? o : o + 1;
                size_t t = y == 0 ? o : o - DIM, bt = y == DIM - 1 ? o : o + DIM;
                b[o] = a[o] + double(SPEED) * (a[t] + a[bt] + a[l] + a[r] - a[o] * 4);
            }
        a.swap(b);
    }
    return bench::report(__FILE__, ms, textbook::checkAll(d_result, a, 1e-4, 1e-5));
}

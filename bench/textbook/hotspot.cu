// class: stencil
// Chip temperature simulation in the manner of the Rodinia hotspot benchmark, written as
// the straightforward version before its shared-memory pyramid: one thread per cell,
// neighbours clamped at the chip's edges by index (N, S, E, W), the thermal constants
// (capacitance, lateral and vertical resistances, time step, ambient temperature) passed
// as float parameters and turned into reciprocals in the kernel; the host ping-pongs
// two temperature grids.
// Sizes: 2048 x 2560 cells (21 MB a grid), 100 iterations. The cell is that of a 512 x 512
// grid on a 16 mm chip, so that the explicit step stays stable.
// Naive estimate on the H100: ~15-25 us an iteration: ~2-3 ms.
// Check: the final temperatures in full against the same iterations in double on the
// host.
#include "textbook_util.h"

#define ROWS 2048
#define COLS 2560
#define ITERATIONS 100
#define BLOCK_SIZE 16

// Physical constants of the chip (SI units).
#define CELL (0.016f / 512.0f)
#define T_CHIP 0.0005f
#define SPEC_HEAT_SI 1750000.0f
#define K_SI 100.0f
#define FACTOR_CHIP 0.5f
#define MAX_PD 3000000.0f
#define PRECISION 0.001f
#define AMB_TEMP 80.0f

#define CAP (FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * CELL * CELL)
#define RX (CELL / (2.0f * K_SI * T_CHIP * CELL))
#define RY (CELL / (2.0f * K_SI * T_CHIP * CELL))
#define RZ (T_CHIP / (K_SI * CELL * CELL))
#define MAX_SLOPE (MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI))
#define STEP (PRECISION / MAX_SLOPE)

#pragma kopt optimize launch(grid: (grid_cols + BLOCK_SIZE - 1) / BLOCK_SIZE, (grid_rows + BLOCK_SIZE - 1) / BLOCK_SIZE; \
    block: BLOCK_SIZE, BLOCK_SIZE) \
    args(grid_rows = ROWS, grid_cols = COLS, Cap = CAP, Rx = RX, Ry = RY, Rz = RZ, step = STEP, amb_temp = AMB_TEMP) \
    buffers(power[grid_rows * grid_cols] in, temp_src[grid_rows * grid_cols] in, temp_dst[grid_rows * grid_cols] out) \
    tol(rtol = 1e-5, atol = 1e-4)
__global__ void calculate_temp(const float *power, const float *temp_src, float *temp_dst, int grid_rows,
                               int grid_cols, float Cap, float Rx, float Ry, float Rz, float step, float amb_temp)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	int r = blockIdx.y * blockDim.y + threadIdx.y;
	if (r >= grid_rows || c >= grid_cols)
		return;

	float step_div_Cap = step / Cap;
	float Rx_1 = 1 / Rx;
	float Ry_1 = 1 / Ry;
	float Rz_1 = 1 / Rz;

	int index = r * grid_cols + c;
	int N = (r == 0) ? index : index - grid_cols;
	int S = (r == grid_rows - 1) ? index : index + grid_cols;
	int W = (c == 0) ? index : index - 1;
	int E = (c == grid_cols - 1) ? index : index + 1;

	temp_dst[index] = temp_src[index] +
	                  step_div_Cap * (power[index] + (temp_src[S] + temp_src[N] - 2.0f * temp_src[index]) * Ry_1 +
	                                  (temp_src[E] + temp_src[W] - 2.0f * temp_src[index]) * Rx_1 +
	                                  (amb_temp - temp_src[index]) * Rz_1);
}

int main()
{
	int grid_rows = ROWS, grid_cols = COLS;
	size_t size = (size_t)grid_rows * grid_cols;
	float *power = bench::uniformBuffer(size, 301, 0.0f, 0.5f);
	float *temp[2] = {bench::uniformBuffer(size, 302, 320.0f, 340.0f), bench::deviceAlloc<float>(size)};
	float *temp_init = textbook::snapshot(temp[0], size);

	dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
	dim3 dimGrid((grid_cols + BLOCK_SIZE - 1) / BLOCK_SIZE, (grid_rows + BLOCK_SIZE - 1) / BLOCK_SIZE);
	int src = 0;
	float ms = bench::medianMsWithReset([&] { textbook::restore(temp[0], temp_init, size); },
	                                    [&] {
		                                    src = 0;
		                                    for (int i = 0; i < ITERATIONS; i++)
		                                    {
			                                    calculate_temp<<<dimGrid, dimBlock>>>(power, temp[src], temp[1 - src], grid_rows,
			                                                                          grid_cols, CAP, RX, RY, RZ, STEP, AMB_TEMP);
			                                    src = 1 - src;
		                                    }
	                                    });

	std::vector<float> p = textbook::uniformHost(size, 301, 0.0f, 0.5f);
	std::vector<double> t = textbook::widen(textbook::uniformHost(size, 302, 320.0f, 340.0f)), u(size);
	const double k = double(STEP) / double(CAP), rx = 1.0 / RX, ry = 1.0 / RY, rz = 1.0 / RZ;
	for (int i = 0; i < ITERATIONS; i++)
	{
		for (size_t r = 0; r < (size_t)grid_rows; r++)
			for (size_t c = 0; c < (size_t)grid_cols; c++)
			{
				size_t x = r * grid_cols + c;
				double n = t[r == 0 ? x : x - grid_cols], s = t[r + 1 == (size_t)grid_rows ? x : x + grid_cols];
				double w = t[c == 0 ? x : x - 1], e = t[c + 1 == (size_t)grid_cols ? x : x + 1];
				u[x] = t[x] + k * (p[x] + (s + n - 2.0 * t[x]) * ry + (e + w - 2.0 * t[x]) * rx + (AMB_TEMP - t[x]) * rz);
			}
		t.swap(u);
	}
	return bench::report(__FILE__, ms, textbook::checkAll(temp[src], t, 1e-4, 1e-3));
}

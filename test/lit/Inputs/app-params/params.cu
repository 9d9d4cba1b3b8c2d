// What application code writes (issue 35 item 1): enum parameters given
// enumerators by name, scoped and unscoped; scalars of a template type;
// <cmath> calls in clauses, copied from the host's size computations;
// 'register' under C++17; range(...) and a buffer's tol(...).
#include <cmath>

#define NPOINTS 4096
#define NGRID 65536

typedef enum { MODE_0, MODE_1, MODE_2 = 7 } Mode_t;
enum class Activation : unsigned char { Relu, Gelu = 3 };
namespace soil {
enum Model { BROOKS_COREY = 10, VAN_GENUCHTEN = 20 };
}

#pragma kopt optimize launch(grid: n / 256; block: 256) args(n = NPOINTS, mode = MODE_2) buffers(x[n] in range(0, 1), y[n] out tol(rtol = 1e-4))
__global__ void by_mode(int n, Mode_t mode, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = mode == MODE_2 ? x[i] * 2 : x[i];
}

#pragma kopt optimize launch(grid: n / 256; block: 256) args(n = NPOINTS, act = Activation::Gelu, model = soil::VAN_GENUCHTEN) buffers(y[n] inout)
__global__ void activate(int n, Activation act, soil::Model model, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && act == Activation::Gelu && model == soil::VAN_GENUCHTEN) y[i] = y[i] * 0.5f;
}

#pragma kopt optimize launch(grid: rows; block: 128) args(rows = 64, cols = 1000) buffers(x[rows * cols] in, y[rows * cols] out)
template <typename T, typename IdxT>
__global__ void softmax_rows(const T *x, T *y, IdxT rows, IdxT cols) {
  for (IdxT c = threadIdx.x; c < cols; c += blockDim.x)
    y[blockIdx.x * cols + c] = x[blockIdx.x * cols + c];
}

#pragma kopt optimize launch(grid: levels; block: side) args(levels = (int)(logf((float)NPOINTS) / logf(2.0f) + 0.5f), side = (int)std::sqrt((double)NGRID), scale = powf(2.0f, 3) + ::exp(0.0)) buffers(out[levels * side] out)
__global__ void romberg(int levels, int side, double scale, double *out) {
  register double s = scale * threadIdx.x;
  out[blockIdx.x * side + threadIdx.x] = s;
}

void run(const float *x, float *y, double *out) {
  by_mode<<<NPOINTS / 256, 256>>>(NPOINTS, MODE_2, x, y);
  activate<<<NPOINTS / 256, 256>>>(NPOINTS, Activation::Gelu, soil::VAN_GENUCHTEN, y);
  softmax_rows<float, int><<<64, 128>>>(x, y, 64, 1000);
  int levels = (int)(logf((float)NPOINTS) / logf(2.0f) + 0.5f);
  int side = (int)std::sqrt((double)NGRID);
  romberg<<<levels, side>>>(levels, side, powf(2.0f, 3) + ::exp(0.0), out);
}

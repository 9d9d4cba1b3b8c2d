// Template kernels launched with constants (issue 35): a radius and a tile
// shape given as template arguments. kopt evaluates each under its launched
// instantiation (the NVRTC name expression names it: box<2>, tileSum<16, 8>).
#define W 1024
#define H 1024

#pragma kopt optimize launch(grid: W / 128, H; block: 128) buffers(in[W * H] in, out[W * H] out)
template <int R>
__global__ void box(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  float s = 0;
  for (int d = -R; d <= R; ++d) {
    int xx = min(max(x + d, 0), W - 1);
    s += in[y * W + xx];
  }
  out[y * W + x] = s / (2 * R + 1);
}

#pragma kopt optimize launch(grid: W / BX, H / BY; block: BX, BY) buffers(in[W * H] in, out[W * H] out)
template <int BX, int BY>
__global__ void tileSum(const float *in, float *out) {
  int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  out[y * W + x] = in[y * W + x] + (x > 0 ? in[y * W + x - 1] : 0.0f);
}

void run(const float *in, float *out) {
  box<2><<<dim3(W / 128, H), 128>>>(in, out);
  tileSum<16, 8><<<dim3(W / 16, H / 8), dim3(16, 8)>>>(in, out);
}

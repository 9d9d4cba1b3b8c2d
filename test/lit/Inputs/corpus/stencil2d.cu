// A 5-point 2D stencil over a W x H grid.
#define W 1024
#define H 768
#define TILE_X 32
#define TILE_Y 8

__global__ void stencil5(const float *in, float *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
    return;
  int c = y * width + x;
  out[c] = 0.25f * (in[c - 1] + in[c + 1] + in[c - width] + in[c + width]) - in[c];
}

int main() {
  float *in = nullptr, *out = nullptr;
  dim3 block(TILE_X, TILE_Y);
  dim3 grid((W + TILE_X - 1) / TILE_X, (H + TILE_Y - 1) / TILE_Y);
  stencil5<<<grid, block>>>(in, out, W, H);
  return 0;
}

// Kernels that look like stencils where tiling would be wrong, or where kopt
// cannot tell: stencil-tiling and stencil-streaming must refuse each one with
// the line and column of the reason.

// In place (Gauss-Seidel): A is written and read at other offsets; the order
// in which threads see each other's updates would change.
__global__ void gauss_seidel(float *A, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1 && j > 0 && j < n - 1)
    A[i * n + j] = 0.25f * (A[(i - 1) * n + j] + A[(i + 1) * n + j] + A[i * n + j - 1] +
                            A[i * n + j + 1]);
}

// The radius is a parameter: the offsets are not constants.
__global__ void radius_param(const float *in, float *out, int n, int r) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j >= r && j < n - r) {
    float s = 0.0f;
    for (int d = -r; d <= r; ++d)
      s += in[i * n + j + d];
    out[i * n + j] = s;
  }
}

// One neighbour's index is read from memory.
__global__ void gathered(const float *in, const int *shift, float *out, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j > 0 && j < n - 1)
    out[i * n + j] = in[i * n + j - 1] + in[i * n + j + 1] + in[i * n + shift[i * n + j]];
}

// No bounds check on the rows: blocks of another shape would run threads the
// launch did not have.
__global__ void unguarded_rows(const float *in, float *out, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > 0 && j < n - 1)
    out[i * n + j] = in[i * n + j - 1] + in[i * n + j] + in[i * n + j + 1];
}

// The thread's lane is read on its own: the block shape matters.
__global__ void lane_dependent(const float *in, float *out, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1 && j > 0 && j < n - 1 && threadIdx.x % 2 == 0)
    out[i * n + j] = in[(i - 1) * n + j] + in[(i + 1) * n + j];
}

// No noalias clause and no __restrict__: in may be out, and a tile would keep
// the values the writes change.
__global__ void maybe_aliased(const float *in, float *out, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1 && j > 0 && j < n - 1)
    out[i * n + j] = in[(i - 1) * n + j] + in[(i + 1) * n + j] + in[i * n + j - 1] + in[i * n + j + 1];
}

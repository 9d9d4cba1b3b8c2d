// Every clause of '#pragma kopt optimize', accepted; macros expand as in nvcc.
#define N (1 << 20)
#define BLOCK 256
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))

#pragma kopt optimize launch(grid: DIV_UP(n, BLOCK); block: BLOCK) args(n = N, a = 2.0f) \
    buffers(x[n] in, y[n] inout) tol(rtol = 1e-5, atol = 1e-6) budget(time = 60s, evals = 200) \
    skills(+vectorize, -unroll) noalias engine(skills)
__global__ void saxpy(int n, float a, const float *__restrict__ x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// Three dimensions, shared memory, values that use each other and come in
// any order.
#pragma kopt optimize launch(grid: w / 16, h / 16, depth; block: 16, 16; smem: 16 * 16 * 4) \
    args(h = w / 2, w = 1024, depth = 4) buffers(img[w * h * depth] inout) budget(time = 1.5m, tokens = 4096) \
    engine(llm)
__global__ void blur(float *img, int w, int h, int depth) {}

// Templates and namespaces take the pragma too; a bare pragma has no clauses.
namespace ns {
#pragma kopt optimize
template <typename T> __global__ void fill(T *p, T v, int n) {}
} // namespace ns

__global__ void no_pragma(int *p) {}

// An indirect read through a 2-D index table: t[s[k][i]] reads t, and s.
#define K 4
#define N 1024
#pragma kopt optimize launch(grid: N / 256; block: 256) buffers(t[N] in range(0, 1), s[K * N] in range(0, N), y[N] out)
__global__ void gather(const float *t, const int (*s)[N], float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < K; ++k)
    acc += t[s[k][i]];
  y[i] = acc;
}

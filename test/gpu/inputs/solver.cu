// A solver-like loop for `kopt record`'s GPU test (issue 17): elimination steps
// k = 0 .. STEPS-1 on a diagonally dominant matrix, one launch a step, the grid
// shrinking with k, a division by the pivot. Prints a checksum of the result's
// bytes, so runs with and without the recorder compare exactly.
#include <cstdint>
#include <cstdio>
#include <vector>

#ifndef N // bench/record_overhead.sh builds it with -DN=4096: a 64 MiB matrix.
#define N 512
#endif
#define STEPS 100
#define BLOCK 128

#pragma kopt optimize launch(grid: (N - k - 1 + BLOCK - 1) / BLOCK; block: BLOCK) args(n = N, k = STEPS / 2) \
    buffers(A[N * N] inout) skills(+block-size)
__global__ void eliminate(float *A, int n, int k)
{
    int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float f = A[i * n + k] / A[k * n + k];
        for (int j = k; j < n; j++)
            A[i * n + j] -= f * A[k * n + j];
    }
}

int main()
{
    std::vector<float> h(N * N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            h[i * N + j] = i == j ? 2.0f * N : 1.0f / float(1 + (i * 7 + j * 13) % 17);
    float *A = nullptr;
    if (cudaMalloc(&A, h.size() * sizeof(float)) != cudaSuccess)
        return 2;
    cudaMemcpy(A, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
    for (int k = 0; k < STEPS; k++)
        eliminate<<<(N - k - 1 + BLOCK - 1) / BLOCK, BLOCK>>>(A, N, k);
    cudaMemcpy(h.data(), A, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return 3;
    uint64_t Hash = 1469598103934665603ull; // FNV-1a over the bytes.
    for (const unsigned char *B = reinterpret_cast<const unsigned char *>(h.data()),
                             *E = B + h.size() * sizeof(float);
         B != E; ++B)
        Hash = (Hash ^ *B) * 1099511628211ull;
    std::printf("eliminate: %d steps, checksum %016llx\n", STEPS, (unsigned long long)Hash);
    return 0;
}

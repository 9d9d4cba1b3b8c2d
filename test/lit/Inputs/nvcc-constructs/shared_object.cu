// A __shared__ object of a class with a constructor (as cuda::pipeline_shared_state in
// the cuda-samples' globalToShmemAsyncCopy): nvcc warns that the constructor does not
// run; clang 19 rejects the declaration ("initialization is not supported for __shared__
// variables") and leaves the code that uses it out of its AST.
struct Tally {
  int count;
  __device__ Tally() : count(0) {}
  __device__ void add(int n) { atomicAdd(&count, n); }
};

// Not annotated: parsed, listed.
__global__ void tally(const int *in, int *out) {
  __shared__ Tally t;
  if (threadIdx.x == 0)
    t.count = 0;
  __syncthreads();
  t.add(in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = t.count;
}

// Annotated: its reads of `in` go through the dropped object, so kopt does not
// optimize it (a warning), and the other annotated kernel still is.
#pragma kopt optimize launch(grid: n / 256; block: 256) args(n = 1 << 20) buffers(in[n] in, out[n / 256] out)
__global__ void tally_annotated(const int *in, int *out, int n) {
  __shared__ Tally parts[2];
  parts[threadIdx.x % 2].add(in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = parts[0].count + parts[1].count;
}

#pragma kopt optimize launch(grid: n / 256; block: 256) args(n = 1 << 20) buffers(in[n] in, out[n] out)
__global__ void copy(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

#ifdef WITH_INITIALIZER
// A written initializer: nvcc rejects it as well, and clang's error stands.
__global__ void initialized(int *out) {
  __shared__ int seeded = 3;
  out[0] = seeded;
}
#endif

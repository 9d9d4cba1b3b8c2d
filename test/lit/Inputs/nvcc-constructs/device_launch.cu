// Dynamic parallelism: kernels launching kernels (nvcc -rdc=true). clang 19 has no
// device-side launch; kopt's parse accepts these where nvcc does.
__global__ void child(int *data, int n);

__global__ void child(int *data, int n, int depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += depth;
  if (depth > 0 && i == 0)
    child<<<1, 32>>>(data, n, depth - 1); // Overloaded: clang finds no viable candidate.
}

template <int Threads> __global__ void tree(int *data, int depth) {
  if (depth > 0 && threadIdx.x == 0)
    tree<Threads><<<2, Threads>>>(data, depth - 1); // A template launching itself.
  data[threadIdx.x] = depth;
}

__global__ void parent(int *data, int n) {
  if (threadIdx.x == 0)
    child<<<(n + 31) / 32, 32>>>(data, n, 2);
}

void run(int *data, int n) {
  parent<<<1, 1>>>(data, n);
  tree<64><<<1, 64>>>(data, 3);
}

#ifdef HOST_FROM_DEVICE
int host_only(int x) { return x; }
__global__ void bad(int *data) { data[0] = host_only(1); }
#endif

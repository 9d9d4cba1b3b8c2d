#pragma kopt optimize
__device__ float helper(float x) { return x; }

#pragma kopt optimize
__global__ void declared_only(int n);

#pragma kopt optimize
int not_a_function;

#pragma kopt optimize
void host_function() {
#pragma kopt optimize
  int local = 0;
}

#pragma kopt optimize
#pragma kopt optimize
__global__ void twice() {}

#pragma kopt optimize

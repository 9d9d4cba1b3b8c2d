// A kernel using a struct, a typedef, an enum and a __constant__ array.
#define TAPS 4

typedef float real_t;

struct Particle {
  real_t x, y;
  __device__ real_t norm2() const { return x * x + y * y; }
};

struct Unused {
  int z;
};

enum class Mode { Plain, Weighted };

__constant__ real_t weights[TAPS];

__constant__ real_t unused_table[8];

#pragma kopt optimize
__global__ void weigh(const Particle *p, real_t *out, Mode mode) {
  int i = threadIdx.x;
  real_t s = 0;
  for (int t = 0; t < TAPS; ++t)
    s += (mode == Mode::Weighted ? weights[t] : 1.0f) * p[i + t].norm2();
  out[i] = s;
}

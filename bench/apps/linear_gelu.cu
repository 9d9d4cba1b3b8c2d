// class: ml
// A transformer MLP's first layer as a from-scratch training code writes it: a naive
// linear layer (one thread per output, the weight stored [out][in] as frameworks store it)
// and a separate bias-plus-activation epilogue whose activation is a scoped enum passed by
// value (Activation::Gelu here, the tanh approximation).
// Sizes: 2048 tokens x 1024 inputs -> 4096 outputs (17 GFLOP).
// Naive estimate on the H100/H200: linearForward ~8 ms (each thread a dot product of two
// 4 KB rows), biasActivation ~40 us; the program ~8 ms.
// Check: 4096 sampled outputs against double.
#include "apps_util.h"

// cpu emulation: TOKENS=19 IN_FEATURES=45 OUT_FEATURES=53

#define TOKENS 2048
#define IN_FEATURES 1024
#define OUT_FEATURES 4096

enum class Activation { Relu, Gelu, Silu };

__device__ __forceinline__ float activate(float v, Activation act)
{
  switch (act) {
  case Activation::Relu: return fmaxf(v, 0.0f);
  case Activation::Gelu: return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  case Activation::Silu: return v / (1.0f + expf(-v));
  }
  return v;
}

#pragma kopt optimize launch(grid: (nout + 15) / 16, (ntok + 15) / 16; block: 16, 16) \
    args(ntok = TOKENS, nin = IN_FEATURES, nout = OUT_FEATURES) \
    buffers(x[ntok * nin] in, w[nout * nin] in, y[ntok * nout] out) tol(rtol = 1e-4, atol = 1e-4)
__global__ void linearForward(const float *x, const float *w, float *y, int ntok, int nin, int nout)
{
  int o = blockIdx.x * blockDim.x + threadIdx.x;  // output feature
  int t = blockIdx.y * blockDim.y + threadIdx.y;  // token
  if (t < ntok && o < nout) {
    float acc = 0.0f;
    for (int k = 0; k < nin; k++)
      acc += x[(size_t)t * nin + k] * w[(size_t)o * nin + k];
    y[(size_t)t * nout + o] = acc;
  }
}

#pragma kopt optimize launch(grid: (ntok * nout + 255) / 256; block: 256) \
    args(ntok = TOKENS, nout = OUT_FEATURES, act = Activation::Gelu) \
    buffers(y[ntok * nout] inout, bias[nout] in) tol(rtol = 1e-5, atol = 1e-6)
__global__ void biasActivation(float *y, const float *bias, int ntok, int nout, Activation act)
{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < ntok * nout)
    y[idx] = activate(y[idx] + bias[idx % nout], act);
}

int main()
{
  const int ntok = TOKENS, nin = IN_FEATURES, nout = OUT_FEATURES;
  const float wscale = 1.0f / std::sqrt((float)nin);
  float *x = bench::uniformBuffer((size_t)ntok * nin, 171);
  float *w = bench::uniformBuffer((size_t)nout * nin, 172, -wscale, wscale);
  float *bias = bench::uniformBuffer(nout, 173, -0.1f, 0.1f);
  float *y = bench::deviceAlloc<float>((size_t)ntok * nout);

  dim3 block(16, 16), grid((nout + 15) / 16, (ntok + 15) / 16);
  float ms = apps::programMs([&] {
    linearForward<<<grid, block>>>(x, w, y, ntok, nin, nout);
    biasActivation<<<(ntok * nout + 255) / 256, 256>>>(y, bias, ntok, nout, Activation::Gelu);
  });

  auto want = [&](size_t idx) {
    size_t t = idx / nout, o = idx % nout;
    double acc = 0;
    for (int k = 0; k < nin; k++)
      acc += double(bench::uniformAt(171, t * nin + k)) * bench::uniformAt(172, o * nin + k, -wscale, wscale);
    double v = acc + bench::uniformAt(173, o, -0.1f, 0.1f);
    return 0.5 * v * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
  };
  return bench::report(__FILE__, ms, bench::checkOutput(y, (size_t)ntok * nout, 4096, want, 1e-4, 1e-5));
}

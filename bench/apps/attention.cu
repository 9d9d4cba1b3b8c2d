// class: ml
// Causal self-attention of one transformer layer, written naively with its kernels in a
// header (attention_kernels.cuh): scores, masked softmax in place, context. The host runs
// the three kernels in order, as a model's forward pass does.
// Sizes: batch 4 x 8 heads (bh = 32), sequence 1024, head dimension 64.
// Naive estimate on the H100/H200: attnScores ~1.5 ms (2.1 GFLOP, K rows read per
// thread), attnSoftmaxCausal ~2 ms (one thread a row, strided), attnContext ~1.5 ms; the
// program ~5 ms.
// Check: 48 sampled (b, i) rows of the probabilities and of the output against double.
#include "apps_util.h"

// cpu emulation: BH=2 SEQ=37 HEAD_DIM=24

#define BH 32
#define SEQ 1024
#define HEAD_DIM 64

#include "attention_kernels.cuh"

int main()
{
  const int bh = BH, seq = SEQ, dim = HEAD_DIM;
  const size_t nqkv = (size_t)bh * seq * dim, ns = (size_t)bh * seq * seq;
  const float scale = 1.0f / std::sqrt((float)dim);
  float *Q = bench::uniformBuffer(nqkv, 161), *K = bench::uniformBuffer(nqkv, 162), *V = bench::uniformBuffer(nqkv, 163);
  float *S = bench::deviceAlloc<float>(ns), *O = bench::deviceAlloc<float>(nqkv);

  dim3 block(ATTN_TILE, ATTN_TILE);
  dim3 gridS((seq + 15) / 16, (seq + 15) / 16, bh), gridO((dim + 15) / 16, (seq + 15) / 16, bh);
  float ms = apps::programMs([&] {
    attnScores<<<gridS, block>>>(Q, K, S, bh, seq, dim, scale);
    attnSoftmaxCausal<<<(bh * seq + 127) / 128, 128>>>(S, bh, seq);
    attnContext<<<gridO, block>>>(S, V, O, bh, seq, dim);
  });

  std::vector<size_t> rows = bench::sampleIndices((size_t)bh * seq, 48), pIndex, oIndex;
  std::vector<double> pWant, oWant;
  for (size_t r : rows) {
    size_t b = r / seq, i = r % seq;
    std::vector<double> p(seq, 0.0);
    double mx = -1e30, sum = 0;
    for (size_t j = 0; j <= i; j++) {
      double acc = 0;
      for (int d = 0; d < dim; d++)
        acc += double(bench::uniformAt(161, (b * seq + i) * dim + d)) * bench::uniformAt(162, (b * seq + j) * dim + d);
      p[j] = acc * scale;
      mx = std::max(mx, p[j]);
    }
    for (size_t j = 0; j <= i; j++) sum += p[j] = std::exp(p[j] - mx);
    for (size_t j = 0; j <= i; j++) p[j] /= sum;
    for (int j = 0; j < seq; j++) {
      pIndex.push_back(r * seq + j);
      pWant.push_back(p[j]);
    }
    for (int d = 0; d < dim; d++) {
      double acc = 0;
      for (size_t j = 0; j <= i; j++) acc += p[j] * bench::uniformAt(163, (b * seq + j) * dim + d);
      oIndex.push_back(r * dim + d);
      oWant.push_back(acc);
    }
  }
  bench::CheckResult res = bench::checkOutputAt(S, pIndex, apps::valuesAt(pIndex, pWant), 1e-4, 1e-6);
  res = bench::combine(res, bench::checkOutputAt(O, oIndex, apps::valuesAt(oIndex, oWant), 1e-4, 1e-5));
  return bench::report(__FILE__, ms, res);
}

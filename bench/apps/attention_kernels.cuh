// Naive scaled dot-product attention with a causal mask, the kernels of attention.cu kept
// in a header as a model's source tree keeps its layers: scores S = Q K^T * scale, an
// in-place row softmax with the mask, then O = P V. Q, K, V and O are [bh][seq][dim]
// (batch and heads flattened), S is [bh][seq][seq]; the grid's z dimension is bh.
#pragma once

#define ATTN_TILE 16

#pragma kopt optimize launch(grid: (seq + 15) / 16, (seq + 15) / 16, bh; block: 16, 16) \
    args(bh = BH, seq = SEQ, dim = HEAD_DIM, scale = 0.125f) \
    buffers(Q[bh * seq * dim] in, K[bh * seq * dim] in, S[bh * seq * seq] out) tol(rtol = 1e-4, atol = 1e-5)
__global__ void attnScores(const float *Q, const float *K, float *S, int bh, int seq, int dim, float scale)
{
  int j = blockIdx.x * ATTN_TILE + threadIdx.x;  // key
  int i = blockIdx.y * ATTN_TILE + threadIdx.y;  // query
  int b = blockIdx.z;
  if (i >= seq || j >= seq) return;
  const float *q = Q + ((size_t)b * seq + i) * dim;
  const float *k = K + ((size_t)b * seq + j) * dim;
  float acc = 0.0f;
  for (int d = 0; d < dim; d++)
    acc += q[d] * k[d];
  S[((size_t)b * seq + i) * seq + j] = acc * scale;
}

#pragma kopt optimize launch(grid: (bh * seq + 127) / 128; block: 128) args(bh = BH, seq = SEQ) \
    buffers(S[bh * seq * seq] inout) tol(rtol = 1e-5, atol = 1e-7)
__global__ void attnSoftmaxCausal(float *S, int bh, int seq)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;  // row = b * seq + i
  if (r >= bh * seq) return;
  int i = r % seq;
  float *row = S + (size_t)r * seq;
  float mx = -INFINITY;
  for (int j = 0; j <= i; j++)
    mx = fmaxf(mx, row[j]);
  float sum = 0.0f;
  for (int j = 0; j <= i; j++) {
    float e = expf(row[j] - mx);
    row[j] = e;
    sum += e;
  }
  for (int j = 0; j < seq; j++)
    row[j] = j <= i ? row[j] / sum : 0.0f;
}

#pragma kopt optimize launch(grid: (dim + 15) / 16, (seq + 15) / 16, bh; block: 16, 16) \
    args(bh = BH, seq = SEQ, dim = HEAD_DIM) \
    buffers(P[bh * seq * seq] in range(0, 0.01), V[bh * seq * dim] in, O[bh * seq * dim] out) tol(rtol = 1e-4, atol = 1e-5)
__global__ void attnContext(const float *P, const float *V, float *O, int bh, int seq, int dim)
{
  int d = blockIdx.x * ATTN_TILE + threadIdx.x;
  int i = blockIdx.y * ATTN_TILE + threadIdx.y;
  int b = blockIdx.z;
  if (i >= seq || d >= dim) return;
  const float *p = P + ((size_t)b * seq + i) * seq;
  const float *v = V + (size_t)b * seq * dim;
  float acc = 0.0f;
  for (int j = 0; j < seq; j++)
    acc += p[j] * v[(size_t)j * dim + d];
  O[((size_t)b * seq + i) * dim + d] = acc;
}

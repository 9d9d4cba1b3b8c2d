// class: bio
// Global alignment of two DNA sequences (Needleman-Wunsch, linear gap penalty) by an
// anti-diagonal wavefront of tiles, as alignment tools' GPU ports write it: the host loop
// walks the tile anti-diagonals; each launch gives every tile of one anti-diagonal a
// block, which loads the tile's top and left borders and residues into shared memory,
// fills the tile by its own inner anti-diagonals (one thread a row, __syncthreads between
// them) and writes it back. Scores through a substitution table and a __device__ max3.
// Sizes: two sequences of 8192 bases (a 67M-cell score matrix), tiles of 32 x 32:
// 511 launches of 1 to 256 blocks.
// Naive estimate on the H100/H200: ~15 us a launch (latency of 63 barriers); the program
// ~8 ms.
// Check: the last row and column of the score matrix and 65536 sampled cells against the
// dynamic programme on the host (exact).
#include "apps_util.h"

// cpu emulation: LEN=96 TILE=32

#define LEN 8192
#define TILE 32
#define GAP 4

__device__ inline int max3(int a, int b, int c)
{
  return max(a, max(b, c));
}

#pragma kopt optimize launch(grid: len / TILE; block: TILE) args(len = LEN, diag = LEN / TILE - 1, gap = GAP) \
    buffers(score[(len + 1) * (len + 1)] inout, seqA[len] in range(0, 4), seqB[len] in range(0, 4), \
            subst[16] in range(-4, 6))
__global__ void nwTileDiagonal(int *score, const char *seqA, const char *seqB, const int *subst, int len, int diag,
                               int gap)
{
  __shared__ int tile[TILE + 1][TILE + 1];
  __shared__ char a[TILE];
  __shared__ char b[TILE];
  int ntiles = len / TILE;
  int first = max(0, diag - ntiles + 1);
  int ti = first + blockIdx.x;  // tile row
  int tj = diag - ti;           // tile column
  int tx = threadIdx.x;
  int width = len + 1;
  int row0 = ti * TILE, col0 = tj * TILE;  // the cell above and left of the tile

  tile[0][tx + 1] = score[row0 * width + col0 + tx + 1];
  tile[tx + 1][0] = score[(row0 + tx + 1) * width + col0];
  if (tx == 0) tile[0][0] = score[row0 * width + col0];
  a[tx] = seqA[row0 + tx];
  b[tx] = seqB[col0 + tx];
  __syncthreads();

  for (int d = 0; d < 2 * TILE - 1; d++) {
    int r = tx + 1, c = d - tx + 1;
    if (c >= 1 && c <= TILE) {
      int match = tile[r - 1][c - 1] + subst[a[r - 1] * 4 + b[c - 1]];
      tile[r][c] = max3(match, tile[r - 1][c] - gap, tile[r][c - 1] - gap);
    }
    __syncthreads();
  }
  for (int r = 1; r <= TILE; r++)
    score[(row0 + r) * width + col0 + tx + 1] = tile[r][tx + 1];
}

int main()
{
  const int len = LEN, width = LEN + 1, ntiles = LEN / TILE;
  std::vector<char> hA(len), hB(len);
  for (int i = 0; i < len; i++) {
    hA[i] = (char)bench::intAt(81, i, 0, 4);
    // The second sequence: the first with 10% substitutions, so the alignment is not noise.
    hB[i] = bench::intAt(82, i, 0, 10) == 0 ? (char)bench::intAt(83, i, 0, 4) : hA[i];
  }
  // +5 for a match, -4 for a transition (A<->G, C<->T), -3 for a transversion.
  std::vector<int> hSubst(16);
  for (int x = 0; x < 4; x++)
    for (int y = 0; y < 4; y++) hSubst[x * 4 + y] = x == y ? 5 : (x ^ y) == 2 ? -4 : -3;
  std::vector<int> hScore((size_t)width * width, 0);
  for (int k = 0; k < width; k++) {
    hScore[k] = -k * GAP;
    hScore[(size_t)k * width] = -k * GAP;
  }
  char *seqA = textbook::upload(hA), *seqB = textbook::upload(hB);
  int *subst = textbook::upload(hSubst), *score = textbook::upload(hScore);

  float ms = apps::programMs([&] {
    for (int diag = 0; diag < 2 * ntiles - 1; diag++) {
      int first = std::max(0, diag - ntiles + 1), last = std::min(diag, ntiles - 1);
      nwTileDiagonal<<<last - first + 1, TILE>>>(score, seqA, seqB, subst, len, diag, GAP);
    }
  });

  for (int i = 1; i < width; i++)
    for (int j = 1; j < width; j++) {
      size_t c = (size_t)i * width + j;
      hScore[c] = std::max(hScore[c - width - 1] + hSubst[hA[i - 1] * 4 + hB[j - 1]],
                           std::max(hScore[c - width] - GAP, hScore[c - 1] - GAP));
    }
  std::vector<size_t> cells = bench::sampleIndices((size_t)width * width, 65536);
  for (int k = 0; k < width; k++) {
    cells.push_back((size_t)(width - 1) * width + k);
    cells.push_back((size_t)k * width + width - 1);
  }
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  std::fprintf(stderr, "alignment score %d\n", hScore.back());
  return bench::report(__FILE__, ms, bench::checkOutputAt(score, cells, [&](size_t c) { return double(hScore[c]); }, 0, 0));
}

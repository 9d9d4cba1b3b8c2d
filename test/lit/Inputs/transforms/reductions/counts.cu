// A thread a row that counts what it sees, skipping what it must not count:
// per-sample call rates over a genotype table (a missing call is negative),
// per-row tallies of a sensor log. The counts are n++ and the skips continue.

// Call rate and heterozygosity of each sample: continue past missing calls,
// called++ and het += (g == 1).
#pragma kopt optimize launch(grid: (nsample + 127) / 128; block: 128) args(nsample = 40, nsnp = 300) \
    buffers(geno[nsample * nsnp] in range(-1, 3), callRate[nsample] out, hetRate[nsample] out)
__global__ void call_rates(const signed char *geno, float *callRate, float *hetRate, int nsample,
                           int nsnp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nsample)
    return;
  const signed char *row = geno + (size_t)i * nsnp;
  int het = 0, called = 0;
  for (int j = 0; j < nsnp; j++) {
    signed char g = row[j];
    if (g < 0)
      continue;
    called++;
    het += (g == 1);
  }
  callRate[i] = (float)called / nsnp;
  hetRate[i] = called > 0 ? (float)het / called : 0.0f;
}

// Readings above and below a band in each row: ++above and --balance as
// statements, the skip inside a nested if.
#pragma kopt optimize launch(grid: (rows + 63) / 64; block: 64) args(rows = 50, cols = 200, lo = -10, hi = 10) \
    buffers(v[rows * cols] in, above[rows] out, balance[rows] out)
__global__ void band_counts(const int *v, int *above, int *balance, int rows, int cols, int lo,
                            int hi) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int up = 0, bal = 0;
    for (int c = 0; c < cols; c++) {
      int x = v[r * cols + c];
      if (x >= lo) {
        if (x <= hi)
          continue;
        ++up;
        bal++;
      } else {
        bal--;
      }
    }
    above[r] = up;
    balance[r] = bal;
  }
}

// Refused: the count is read inside the loop (a running index, not a sum).
#pragma kopt optimize launch(grid: (rows + 63) / 64; block: 64) args(rows = 50, cols = 200) \
    buffers(v[rows * cols] in, firstNeg[rows] out)
__global__ void running_count(const int *v, int *firstNeg, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int n = 0;
    for (int c = 0; c < cols; c++) {
      if (v[r * cols + c] < 0 && n == 0)
        firstNeg[r] = c;
      n++;
    }
  }
}

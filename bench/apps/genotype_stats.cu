// class: bio
// Quality-control statistics of a genotype table, as a GWAS pipeline's GPU port writes
// them: a samples x SNPs table of signed char dosages (0, 1, 2; -1 missing), one kernel
// with one thread per SNP (a column: coalesced across the warp) that counts genotypes and
// derives the alternate-allele frequency and the Hardy-Weinberg chi-square, then one with
// one thread per sample (a row: strided across the warp) that counts heterozygous and
// missing calls and the inbreeding coefficient F against the expected heterozygosity from
// the first kernel's frequencies.
// Sizes: 2048 samples x 262144 SNPs (512 MB of genotypes).
// Naive estimate on the H100/H200: snpSummary ~0.8 ms (one byte a thread a load),
// sampleSummary ~6 ms (2048 threads, each walking a 256 KB row); the program ~7 ms.
// Check: every SNP's counts (exact), frequency and chi-square, and every sample's rates
// and F, against the host.
#include "apps_util.h"

// cpu emulation: NSAMPLE=37 NSNP=301

#define NSAMPLE 2048
#define NSNP 262144

// Genotypes under Hardy-Weinberg with a per-SNP allele frequency, 2% missing.
__global__ void simulateGenotypes(signed char *geno, int nsample, int nsnp)
{
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < (size_t)nsample * nsnp;
       k += (size_t)gridDim.x * blockDim.x) {
    size_t snp = k % nsnp;
    float p = bench::uniformAt(71, snp, 0.05f, 0.5f);
    float u = bench::uniformAt(72, k, 0.0f, 1.0f), v = bench::uniformAt(73, k, 0.0f, 1.0f);
    geno[k] = bench::uniformAt(74, k, 0.0f, 1.0f) < 0.02f ? -1 : (signed char)((u < p) + (v < p));
  }
}

#pragma kopt optimize launch(grid: (nsnp + 255) / 256; block: 256) args(nsample = NSAMPLE, nsnp = NSNP) \
    buffers(geno[nsample * nsnp] in range(-1, 3), counts[4 * nsnp] out, altFreq[nsnp] out, hweChi2[nsnp] out)
__global__ void snpSummary(const signed char *geno, int *counts, float *altFreq, float *hweChi2, int nsample, int nsnp)
{
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= nsnp) return;
  int n0 = 0, n1 = 0, n2 = 0, nmiss = 0;
  for (int i = 0; i < nsample; i++) {
    signed char g = geno[(size_t)i * nsnp + j];
    if (g == 0) n0++;
    else if (g == 1) n1++;
    else if (g == 2) n2++;
    else nmiss++;
  }
  counts[4 * j] = n0;
  counts[4 * j + 1] = n1;
  counts[4 * j + 2] = n2;
  counts[4 * j + 3] = nmiss;
  int n = n0 + n1 + n2;
  float p = n > 0 ? (2.0f * n2 + n1) / (2.0f * n) : 0.0f;
  float e0 = n * (1.0f - p) * (1.0f - p), e1 = 2.0f * n * p * (1.0f - p), e2 = n * p * p;
  float chi2 = 0.0f;
  if (e0 > 0.0f) chi2 += (n0 - e0) * (n0 - e0) / e0;
  if (e1 > 0.0f) chi2 += (n1 - e1) * (n1 - e1) / e1;
  if (e2 > 0.0f) chi2 += (n2 - e2) * (n2 - e2) / e2;
  altFreq[j] = p;
  hweChi2[j] = chi2;
}

#pragma kopt optimize launch(grid: (nsample + 127) / 128; block: 128) args(nsample = NSAMPLE, nsnp = NSNP) \
    buffers(geno[nsample * nsnp] in range(-1, 3), altFreq[nsnp] in range(0, 1), hetRate[nsample] out, \
            callRate[nsample] out, inbreedF[nsample] out) tol(rtol = 1e-3, atol = 1e-3)
__global__ void sampleSummary(const signed char *geno, const float *altFreq, float *hetRate, float *callRate,
                              float *inbreedF, int nsample, int nsnp)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nsample) return;
  const signed char *row = geno + (size_t)i * nsnp;
  int het = 0, called = 0;
  float expHet = 0.0f;
  for (int j = 0; j < nsnp; j++) {
    signed char g = row[j];
    if (g < 0) continue;
    called++;
    het += (g == 1);
    float p = altFreq[j];
    expHet += 2.0f * p * (1.0f - p);
  }
  hetRate[i] = called > 0 ? (float)het / called : 0.0f;
  callRate[i] = (float)called / nsnp;
  inbreedF[i] = expHet > 0.0f ? 1.0f - het / expHet : 0.0f;
}

int main()
{
  const int nsample = NSAMPLE, nsnp = NSNP;
  const size_t cells = (size_t)nsample * nsnp;
  signed char *geno = bench::deviceAlloc<signed char>(cells);
  simulateGenotypes<<<4096, 256>>>(geno, nsample, nsnp);
  BENCH_CUDA(cudaGetLastError());
  int *counts = bench::deviceAlloc<int>(4 * (size_t)nsnp);
  float *altFreq = bench::deviceAlloc<float>(nsnp), *hweChi2 = bench::deviceAlloc<float>(nsnp);
  float *hetRate = bench::deviceAlloc<float>(nsample), *callRate = bench::deviceAlloc<float>(nsample);
  float *inbreedF = bench::deviceAlloc<float>(nsample);

  float ms = apps::programMs([&] {
    snpSummary<<<(nsnp + 255) / 256, 256>>>(geno, counts, altFreq, hweChi2, nsample, nsnp);
    sampleSummary<<<(nsample + 127) / 128, 128>>>(geno, altFreq, hetRate, callRate, inbreedF, nsample, nsnp);
  });

  std::vector<signed char> g = textbook::download(geno, cells);
  std::vector<double> cnt(4 * (size_t)nsnp), freq(nsnp), chi(nsnp);
  apps::parallelFor(nsnp, [&](size_t j) {
    double c[4] = {0, 0, 0, 0};
    for (int i = 0; i < nsample; i++) {
      int v = g[(size_t)i * nsnp + j];
      c[v >= 0 ? v : 3] += 1;
    }
    double n = c[0] + c[1] + c[2], p = n > 0 ? (2 * c[2] + c[1]) / (2 * n) : 0.0;
    double e[3] = {n * (1 - p) * (1 - p), 2 * n * p * (1 - p), n * p * p}, x = 0;
    for (int k = 0; k < 3; k++)
      if (e[k] > 0) x += (c[k] - e[k]) * (c[k] - e[k]) / e[k];
    for (int k = 0; k < 4; k++) cnt[4 * j + k] = c[k];
    freq[j] = p;
    chi[j] = x;
  });
  // The samples' statistics from the device's frequencies, as the second kernel reads them.
  std::vector<float> gotFreq = textbook::download(altFreq, nsnp);
  std::vector<double> het(nsample), call(nsample), inb(nsample);
  apps::parallelFor(nsample, [&](size_t i) {
    double h = 0, c = 0, e = 0;
    for (int j = 0; j < nsnp; j++) {
      int v = g[i * nsnp + j];
      if (v < 0) continue;
      c++;
      h += v == 1;
      e += 2.0 * gotFreq[j] * (1.0 - gotFreq[j]);
    }
    het[i] = c > 0 ? h / c : 0;
    call[i] = c / nsnp;
    inb[i] = e > 0 ? 1 - h / e : 0;
  });
  bench::CheckResult r = apps::checkHost(textbook::download(counts, 4 * (size_t)nsnp), cnt, 0, 0);
  r = bench::combine(r, apps::checkHost(gotFreq, freq, 1e-6, 1e-7));
  // chi-square: float sums of squared differences of counts in the thousands.
  r = bench::combine(r, apps::checkHost(textbook::download(hweChi2, nsnp), chi, 1e-3, 1e-3));
  r = bench::combine(r, apps::checkHost(textbook::download(hetRate, nsample), het, 1e-6, 1e-7));
  r = bench::combine(r, apps::checkHost(textbook::download(callRate, nsample), call, 1e-6, 1e-7));
  // F: a float sum over 262144 SNPs; 1 - h / e cancels to about 0.
  r = bench::combine(r, apps::checkHost(textbook::download(inbreedF, nsample), inb, 1e-3, 1e-3));
  return bench::report(__FILE__, ms, r);
}

// class: stats
// Column standardization (z-scores) of a rows x cols table in the manner of a data-science
// port: one thread per column computes the mean and the sample standard deviation in two
// passes (register sums, sqrtf), then a 2-D kernel writes (x - mean) / sd with the ROW
// index from x and the column from y, so neighbouring threads touch different rows;
// sizes are parameters.
// Sizes: 16384 rows x 2048 columns (128 MB in, 128 MB out).
// Naive estimate on the H100: the statistics kernel reads the table twice with 2048
// threads (~5-10 ms), the normalization is uncoalesced (~3-6 ms).
// Check: mean and sd in full, 4096 sampled elements of the output, against double.
#include "textbook_util.h"

#define ROWS 16384
#define COLS 2048

#pragma kopt optimize launch(grid: (cols + 255) / 256; block: 256) args(rows = ROWS, cols = COLS) \
    buffers(x[rows * cols] in, mean[cols] out, sd[cols] out) tol(rtol = 1e-3, atol = 1e-5)
__global__ void column_stats(const float *x, float *mean, float *sd, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    float sum = 0.0f;
    for (int r = 0; r < rows; ++r)
        sum += x[(size_t)r * cols + c];
    float mu = sum / rows;
    float ss = 0.0f;
    for (int r = 0; r < rows; ++r) {
        float d = x[(size_t)r * cols + c] - mu;
        ss += d * d;
    }
    mean[c] = mu;
    sd[c] = sqrtf(ss / (rows - 1));
}

#pragma kopt optimize launch(grid: (rows + 15) / 16, (cols + 15) / 16; block: 16, 16) args(rows = ROWS, cols = COLS) \
    buffers(x[rows * cols] in, mean[cols] in, sd[cols] in, z[rows * cols] out) tol(rtol = 1e-4, atol = 1e-5)
__global__ void standardize(const float *x, const float *mean, const float *sd, float *z, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int c = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        z[(size_t)r * cols + c] = (x[(size_t)r * cols + c] - mean[c]) / sd[c];
}

int main()
{
    int rows = ROWS, cols = COLS;
    size_t n = (size_t)rows * cols;
    float *x = bench::uniformBuffer(n, 221, 10.0f, 14.0f);
    float *mean = bench::deviceAlloc<float>(cols), *sd = bench::deviceAlloc<float>(cols);
    float *z = bench::deviceAlloc<float>(n);

    dim3 block2(16, 16), grid2((rows + 15) / 16, (cols + 15) / 16);
    float ms = bench::medianMs([&] {
        column_stats<<<(cols + 255) / 256, 256>>>(x, mean, sd, rows, cols);
        standardize<<<grid2, block2>>>(x, mean, sd, z, rows, cols);
    });

    std::vector<float> hx = textbook::uniformHost(n, 221, 10.0f, 14.0f);
    std::vector<double> rMean(cols, 0.0), rSd(cols, 0.0);
    for (size_t r = 0; r < (size_t)rows; r++)
        for (size_t c = 0; c < (size_t)cols; c++)
            rMean[c] += hx[r * cols + c];
    for (size_t c = 0; c < (size_t)cols; c++)
        rMean[c] /= rows;
    for (size_t r = 0; r < (size_t)rows; r++)
        for (size_t c = 0; c < (size_t)cols; c++)
            rSd[c] += (hx[r * cols + c] - rMean[c]) * (hx[r * cols + c] - rMean[c]);
    for (size_t c = 0; c < (size_t)cols; c++)
        rSd[c] = std::sqrt(rSd[c] / (rows - 1));
    auto refZ = [&](size_t i) { return (hx[i] - rMean[i % cols]) / rSd[i % cols]; };

    // A float sum of 16384 values near 12 leaves an error of about 2e-5 in the mean, which
    // z = (x - mean) / sd (sd ~ 1.15) inherits as an absolute error: atol 1e-3 on z.
    bench::CheckResult res = textbook::checkAll(mean, rMean, 1e-4, 1e-6);
    res = bench::combine(res, textbook::checkAll(sd, rSd, 1e-3, 1e-6));
    res = bench::combine(res, bench::checkOutput(z, n, 4096, refZ, 1e-3, 1e-3));
    return bench::report(__FILE__, ms, res);
}

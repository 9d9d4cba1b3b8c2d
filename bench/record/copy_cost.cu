// What the recorder's copies cost on this machine, as it makes them: a
// buffer copied from the device into pageable host memory (cuMemcpyDtoH), then
// written to a file, REPEAT times. Prints the seconds a GiB takes, which
// bench/record_overhead.sh compares with the recorder's overhead.
//   copy_cost MIB REPEAT FILE
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int Argc, char **Argv) {
  if (Argc != 4) {
    std::fprintf(stderr, "usage: copy_cost MIB REPEAT FILE\n");
    return 2;
  }
  size_t Bytes = size_t(std::atoll(Argv[1])) << 20;
  int Repeat = std::atoi(Argv[2]);
  void *Device = nullptr;
  if (cudaMalloc(&Device, Bytes) != cudaSuccess || cudaMemset(Device, 1, Bytes) != cudaSuccess)
    return 3;
  std::vector<char> Host(Bytes);
  std::FILE *Out = std::fopen(Argv[3], "wb");
  if (!Out)
    return 4;
  cudaDeviceSynchronize();
  auto Start = std::chrono::steady_clock::now();
  for (int I = 0; I < Repeat; ++I) {
    if (cudaMemcpy(Host.data(), Device, Bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
      return 5;
    if (std::fwrite(Host.data(), 1, Bytes, Out) != Bytes)
      return 6;
  }
  std::fflush(Out);
  std::fclose(Out);
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  double GiB = double(Bytes) * Repeat / double(1ull << 30);
  std::printf("copy and write: %.3f s/GiB (%.2f GiB in %.3f s)\n", Seconds / GiB, GiB, Seconds);
  return 0;
}

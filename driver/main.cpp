// One binary, two names: invoked as kcc it is the nvcc stand-in, otherwise kopt.
// Sharing the binary halves what ships, since both link clang statically.
#include "driver/KccMain.h"
#include "driver/KoptMain.h"

#include <llvm/Support/Path.h>

#include <string>
#include <vector>

int main(int argc, char **argv) {
  std::vector<std::string> Args(argv + 1, argv + argc);
  if (llvm::sys::path::filename(argv[0]).starts_with("kcc"))
    return kopt::driver::kccMain(Args);
  return kopt::driver::koptMain(Args);
}

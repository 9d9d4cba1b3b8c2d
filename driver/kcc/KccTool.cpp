// kcc: the nvcc stand-in (driver/kcc/KccMain.cpp).
#include "driver/kcc/KccMain.h"

#include <llvm/Support/raw_ostream.h>

#include <string>
#include <vector>

int main(int argc, char **argv) {
  int Status = kopt::driver::kccMain(std::vector<std::string>(argv + 1, argv + argc));
  // A reader that went away (`kcc --kopt-help | head -1`) is not a failure of
  // kcc's: the streams must not report it when they are destroyed.
  llvm::outs().flush();
  llvm::outs().clear_error();
  llvm::errs().clear_error();
  return Status;
}

// kcc: the nvcc stand-in (driver/kcc/KccMain.cpp).
#include "driver/kcc/KccMain.h"

#include <string>
#include <vector>

int main(int argc, char **argv) {
  return kopt::driver::kccMain(std::vector<std::string>(argv + 1, argv + argc));
}

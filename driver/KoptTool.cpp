// kopt: everything but compiling (driver/KoptMain.cpp).
#include "driver/KoptMain.h"

#include <string>
#include <vector>

int main(int argc, char **argv) {
  return kopt::driver::koptMain(std::vector<std::string>(argv + 1, argv + argc));
}

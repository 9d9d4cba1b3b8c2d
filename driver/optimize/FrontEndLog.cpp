#include "driver/optimize/FrontEndLog.h"

namespace kopt::driver {

void FrontEndLog::add(const llvm::Twine &Text, bool VerboseOnly) {
  memory::ManifestLine Line{Text.str(), VerboseOnly};
  if (Line.Text.empty())
    return;
  if (!VerboseOnly || verbose())
    writeToStderr(Line.Text);
  Lines.push_back(std::move(Line));
}

} // namespace kopt::driver

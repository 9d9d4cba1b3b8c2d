#include "clang-plugin/transforms/framework/TransformFactories.h"

namespace kopt::transform {

namespace {
std::vector<std::unique_ptr<Transform>> makeAll() {
  std::vector<std::unique_ptr<Transform>> All;
#define KOPT_TRANSFORM(Factory) All.push_back(Factory());
#include "clang-plugin/transforms/framework/TransformList.def"
#undef KOPT_TRANSFORM
  return All;
}
} // namespace

llvm::ArrayRef<std::unique_ptr<Transform>> allTransforms() {
  static const std::vector<std::unique_ptr<Transform>> All = makeAll();
  return All;
}

const Transform *findTransform(llvm::StringRef Id) {
  for (const std::unique_ptr<Transform> &T : allTransforms())
    if (T->id() == Id)
      return T.get();
  return nullptr;
}

} // namespace kopt::transform

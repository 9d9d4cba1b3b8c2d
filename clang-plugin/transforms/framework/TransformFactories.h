// The factory of each transform (internal to kopt_transforms; the registry
// calls them in TransformList.def's order).
#pragma once

#include "clang-plugin/transforms/framework/Transform.h"

namespace kopt::transform {

#define KOPT_TRANSFORM(Factory) std::unique_ptr<Transform> Factory();
#include "clang-plugin/transforms/framework/TransformList.def"
#undef KOPT_TRANSFORM

} // namespace kopt::transform

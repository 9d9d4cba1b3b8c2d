#include "driver/config/DeviceList.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Regex.h>

#include <algorithm>

namespace kopt::driver {

llvm::Expected<std::vector<std::string>> parseDeviceList(llvm::StringRef Text) {
  std::vector<std::string> Items;
  if (Text.trim().empty())
    return Items;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ',');
  static const llvm::Regex Ordinal("^[0-9]{1,4}$");
  static const llvm::Regex Uuid("^(GPU|MIG)-[0-9a-fA-F-]+$");
  for (llvm::StringRef Part : Parts) {
    llvm::StringRef Item = Part.trim();
    if (!Ordinal.match(Item) && !Uuid.match(Item))
      return llvm::createStringError("'%s' is not a GPU: expected an ordinal (0, 1, ...) or a "
                                     "UUID (GPU-...), separated by commas",
                                     Item.str().c_str());
    std::string Canonical =
        Ordinal.match(Item) ? std::to_string(std::stoi(Item.str())) : Item.str();
    if (std::find(Items.begin(), Items.end(), Canonical) != Items.end())
      return llvm::createStringError("GPU '%s' is named twice", Item.str().c_str());
    Items.push_back(Canonical);
  }
  return Items;
}

} // namespace kopt::driver

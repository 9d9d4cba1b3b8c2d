#include "driver/nvcc/NvccValues.h"

#include <optional>

namespace kopt::driver {

namespace {
using llvm::StringRef;

void addTrimmed(std::vector<std::string> &Items, StringRef Item) {
  Item = Item.trim();
  if (!Item.empty())
    Items.push_back(Item.str());
}

// Splits a --generate-code value at commas outside brackets and quotes.
llvm::Expected<std::vector<std::string>> splitGenerateCodeItems(StringRef Value) {
  std::vector<std::string> Items;
  std::string Current;
  char Open = 0;
  for (char C : Value) {
    if (Open) {
      if (C == (Open == '[' ? ']' : '"'))
        Open = 0;
    } else if (C == '[' || C == '"') {
      Open = C;
    } else if (C == ',') {
      addTrimmed(Items, Current);
      Current.clear();
      continue;
    }
    Current += C;
  }
  if (Open)
    return llvm::createStringError("stray '%c' character", Open);
  addTrimmed(Items, Current);
  return Items;
}

// "sm_90", "[sm_90,compute_90]" or "\"sm_90,compute_90\"" as a list.
std::vector<std::string> generateCodeValues(StringRef Value) {
  Value = Value.trim();
  if (Value.size() >= 2 && ((Value.front() == '[' && Value.back() == ']') ||
                            (Value.front() == '"' && Value.back() == '"')))
    Value = Value.drop_front().drop_back();
  std::vector<std::string> Values;
  llvm::SmallVector<StringRef, 4> Parts;
  Value.split(Parts, ',');
  for (StringRef Part : Parts)
    addTrimmed(Values, Part);
  return Values;
}
} // namespace

std::vector<std::string> splitNvccList(StringRef Value, bool StripQuotes) {
  std::vector<std::string> Items;
  std::string Current;
  bool InQuotes = false;
  for (size_t I = 0; I < Value.size(); ++I) {
    char C = Value[I];
    if (C == '\\' && I + 1 < Value.size() && Value[I + 1] == ',') {
      Current += ',';
      ++I;
    } else if (C == '"') {
      InQuotes = !InQuotes;
      if (!StripQuotes)
        Current += C;
    } else if (C == ',' && !InQuotes) {
      if (!Current.empty())
        Items.push_back(std::move(Current));
      Current.clear();
    } else {
      Current += C;
    }
  }
  if (!Current.empty())
    Items.push_back(std::move(Current));
  return Items;
}

llvm::Expected<NvccGenerateCode> parseNvccGenerateCode(StringRef Value) {
  llvm::Expected<std::vector<std::string>> Items = splitGenerateCodeItems(Value);
  if (!Items)
    return Items.takeError();
  std::optional<std::vector<std::string>> Arch, Code;
  for (StringRef Item : *Items) {
    auto [Key, Rest] = Item.split('=');
    if (Key.size() == Item.size())
      return llvm::createStringError("'%s' is not in 'keyword=value' format", Item.str().c_str());
    Key = Key.trim();
    std::optional<std::vector<std::string>> *Slot =
        Key == "arch" ? &Arch : (Key == "code" ? &Code : nullptr);
    if (!Slot)
      return llvm::createStringError("keyword '%s' is not defined for option 'generate-code'",
                                     Key.str().c_str());
    if (*Slot)
      return llvm::createStringError("redefinition of keyword '%s'", Key.str().c_str());
    *Slot = generateCodeValues(Rest);
    if ((*Slot)->empty())
      return llvm::createStringError("keyword '%s' has an empty value", Key.str().c_str());
  }
  if (!Arch)
    return llvm::createStringError("missing architecture");
  if (!Code)
    return llvm::createStringError("missing code");
  if (Arch->size() != 1)
    return llvm::createStringError("arch takes one architecture, not a list");
  return NvccGenerateCode{Arch->front(), std::move(*Code), 0};
}

} // namespace kopt::driver

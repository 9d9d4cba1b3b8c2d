#include "memory/cache/CacheKeyDiff.h"

#include <llvm/ADT/StringExtras.h>
#include <nlohmann/json.hpp>

#include <map>

namespace kopt::memory {

namespace {
using Json = nlohmann::json;

std::string text(const Json &Object, const char *Field) {
  auto It = Object.find(Field);
  if (It == Object.end())
    return "(none)";
  return It->is_string() ? It->get<std::string>() : It->dump();
}

// "NAME=BODY" / "--flag=value" / "--flag" by the name before '(' or '='.
std::map<std::string, std::string> byName(const Json &Items) {
  std::map<std::string, std::string> Out;
  if (!Items.is_array())
    return Out;
  for (const Json &I : Items) {
    if (!I.is_string())
      continue;
    llvm::StringRef S = I.get_ref<const std::string &>();
    Out[S.take_until([](char C) { return C == '(' || C == '='; }).str()] = S.str();
  }
  return Out;
}

// An item as a reason quotes it: long macro bodies cut short.
std::string shortened(const std::string &Item) {
  return Item.size() <= 72 ? Item : Item.substr(0, 69) + "...";
}

// One reason for each item that only one side has or that the two spell differently.
void compareItems(const Json &Entry, const Json &Wanted, llvm::StringRef What,
                  std::vector<std::string> &Reasons) {
  std::map<std::string, std::string> Have = byName(Entry), Want = byName(Wanted);
  for (const auto &[Name, Item] : Want) {
    auto It = Have.find(Name);
    if (It == Have.end())
      Reasons.push_back(What.str() + " " + Name + " differs: this compile has " + shortened(Item) +
                        ", the entry's had none");
    else if (It->second != Item)
      Reasons.push_back(What.str() + " " + Name + " differs: this compile has " + shortened(Item) +
                        ", the entry's had " + shortened(It->second));
  }
  for (const auto &[Name, Item] : Have)
    if (!Want.count(Name))
      Reasons.push_back(What.str() + " " + Name + " differs: the entry's compile had " +
                        shortened(Item) + ", this one has none");
}
} // namespace

std::string KeyDifference::reason() const { return llvm::join(Reasons, "; "); }

KeyDifference compareKeys(llvm::StringRef EntryText, llvm::StringRef WantedText) {
  KeyDifference D;
  Json Entry = Json::parse(EntryText.begin(), EntryText.end(), nullptr, false);
  Json Wanted = Json::parse(WantedText.begin(), WantedText.end(), nullptr, false);
  if (!Entry.is_object() || !Wanted.is_object()) {
    D.Components.push_back("key");
    D.Reasons.push_back("the entry's key text is not a key");
    D.OtherFormat = true;
    return D;
  }
  auto Differs = [&](const char *Field) {
    auto A = Entry.find(Field), B = Wanted.find(Field);
    bool Same = (A == Entry.end()) == (B == Wanted.end()) && (A == Entry.end() || *A == *B);
    if (!Same)
      D.Components.push_back(Field);
    return !Same;
  };
  if (Differs("key_format")) {
    D.OtherFormat = true;
    D.Reasons.push_back("the entry has key format " + text(Entry, "key_format") +
                        " (an earlier kopt's key), this kopt looks up format " +
                        text(Wanted, "key_format") + ": `kopt cache rekey` re-keys it");
  }
  if (Differs("unit"))
    D.Reasons.push_back("the kernel's code changed (the kernel or the code it uses)");
  if (!D.OtherFormat && Differs("environment"))
    compareItems(Entry["environment"], Wanted["environment"], "macro", D.Reasons);
  if (Differs("clauses"))
    D.Reasons.push_back("the kernel's #pragma kopt clauses changed");
  if (Differs("arch"))
    D.Reasons.push_back("the entry was made for " + text(Entry, "arch") + ", this compile is " +
                        text(Wanted, "arch"));
  if (Differs("cuda"))
    D.Reasons.push_back("the entry was made with CUDA " + text(Entry, "cuda") +
                        ", this compile uses CUDA " + text(Wanted, "cuda"));
  if (!D.OtherFormat && Differs("device_flags"))
    compareItems(Entry["device_flags"], Wanted["device_flags"], "flag", D.Reasons);
  if (Differs("kopt"))
    D.Reasons.push_back("the entry was made by kopt " + text(Entry, "kopt") + ", this is kopt " +
                        text(Wanted, "kopt"));
  if (Differs("device")) {
    auto Model = [](const Json &Key) {
      return Key.contains("device") ? "the GPU model " + text(Key, "device")
                                    : std::string("any GPU of its architecture");
    };
    D.Reasons.push_back("the entry's key is for " + Model(Entry) + ", this lookup is for " +
                        Model(Wanted));
  }
  return D;
}

} // namespace kopt::memory

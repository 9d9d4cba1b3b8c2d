#include "support/UrlPassword.h"

#include <llvm/ADT/SmallVector.h>

namespace kopt {

namespace {
std::string maskOne(llvm::StringRef Url) {
  size_t Scheme = Url.find("://");
  if (Scheme == llvm::StringRef::npos)
    return Url.str();
  // The user part ends at the last '@' before the path (a password may hold '@').
  llvm::StringRef Rest = Url.drop_front(Scheme + 3);
  llvm::StringRef Authority = Rest.take_until([](char C) { return C == '/' || C == '|'; });
  size_t At = Authority.rfind('@');
  if (At == llvm::StringRef::npos)
    return Url.str();
  size_t Colon = Authority.take_front(At).find(':');
  if (Colon == llvm::StringRef::npos)
    return Url.str();
  return Url.take_front(Scheme + 3 + Colon + 1).str() + "********" +
         Url.drop_front(Scheme + 3 + At).str();
}
} // namespace

std::string maskUrlPasswords(llvm::StringRef Text) {
  std::string Out;
  while (!Text.empty()) {
    size_t Space = Text.find(' ');
    Out += maskOne(Text.take_front(Space));
    if (Space == llvm::StringRef::npos)
      break;
    Out += ' ';
    Text = Text.drop_front(Space + 1);
  }
  return Out;
}

} // namespace kopt

// Reading and writing the fields of the worker's messages (WorkerProtocol.h):
// a field that is absent is an error naming it, with the path of the objects
// it sits in ("timing.median_ms"); an optional value travels as null.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace kopt::evaluator {

// A field that a message lacks; Path names it.
struct MissingField : std::runtime_error {
  explicit MissingField(std::string FieldPath)
      : std::runtime_error("no field '" + FieldPath + "'"), Path(std::move(FieldPath)) {}
  std::string Path;
};

template <typename T> void readField(const nlohmann::json &J, const char *Key, T &Out) {
  auto It = J.is_object() ? J.find(Key) : J.end();
  if (It == J.end())
    throw MissingField(Key);
  try {
    It->get_to(Out);
  } catch (const MissingField &Inner) { // Inside a nested object: its path.
    throw MissingField(std::string(Key) + "." + Inner.Path);
  }
}

// A field that must be present and may be null: null is none.
template <typename T>
void readField(const nlohmann::json &J, const char *Key, std::optional<T> &Out) {
  nlohmann::json Value;
  readField(J, Key, Value);
  if (Value.is_null()) {
    Out.reset();
    return;
  }
  T Inner{};
  try {
    Value.get_to(Inner);
  } catch (const MissingField &E) {
    throw MissingField(std::string(Key) + "." + E.Path);
  }
  Out = std::move(Inner);
}

// A double that may be NaN or infinite (an output a wrong variant left
// poisoned, a ratio to it). JSON has no such numbers (nlohmann writes null), so
// they travel as "nan", "-nan", "inf" and "-inf".
inline nlohmann::json doubleJson(double V) {
  if (std::isnan(V))
    return std::signbit(V) ? "-nan" : "nan";
  if (std::isinf(V))
    return V > 0 ? "inf" : "-inf";
  return V;
}

inline void readDouble(const nlohmann::json &J, const char *Key, double &Out) {
  nlohmann::json Value;
  readField(J, Key, Value);
  if (!Value.is_string()) {
    Out = Value.get<double>();
    return;
  }
  const std::string &S = Value.get_ref<const std::string &>();
  double NaN = std::numeric_limits<double>::quiet_NaN();
  double Inf = std::numeric_limits<double>::infinity();
  if (S == "nan" || S == "-nan")
    Out = S == "nan" ? NaN : -NaN;
  else if (S == "inf" || S == "-inf")
    Out = S == "inf" ? Inf : -Inf;
  else
    throw std::runtime_error(std::string("'") + Key + "' is '" + S + "', not a number");
}

template <typename T> nlohmann::json optionalJson(const std::optional<T> &Value) {
  return Value ? nlohmann::json(*Value) : nlohmann::json(nullptr);
}

// Message as a T, or an error naming What ("the answer to set_original") and
// the field that is missing or malformed.
template <typename T>
llvm::Expected<T> decodeMessage(const nlohmann::json &Message, llvm::StringRef What) {
  try {
    return Message.get<T>();
  } catch (const MissingField &E) {
    return llvm::createStringError("%s has no '%s'", What.str().c_str(), E.Path.c_str());
  } catch (const std::exception &E) {
    return llvm::createStringError("%s is malformed: %s", What.str().c_str(), E.what());
  }
}

} // namespace kopt::evaluator

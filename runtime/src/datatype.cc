#include "spine/runtime/datatype.h"

#include <cstdlib>

#include "spine/runtime/error.h"

namespace spine::runtime {

std::string DataType::ToString() const {
  if (is_bool() && lanes() == 1) return "bool";
  if (code() == kHandle) return "handle";
  const char* base = code() == kInt ? "int" : code() == kUInt ? "uint" : "float";
  std::string s = base + std::to_string(bits());
  if (lanes() != 1) s += "x" + std::to_string(lanes());
  return s;
}

DataType DataType::Parse(const std::string& text) {
  if (text == "bool") return Bool();
  if (text == "handle") return Handle();
  Code code;
  size_t pos;
  if (text.rfind("uint", 0) == 0) {
    code = kUInt;
    pos = 4;
  } else if (text.rfind("int", 0) == 0) {
    code = kInt;
    pos = 3;
  } else if (text.rfind("float", 0) == 0) {
    code = kFloat;
    pos = 5;
  } else {
    ThrowValueError("unknown data type '" + text + "'");
  }
  const char* p = text.c_str() + pos;
  char* end = nullptr;
  long bits = std::strtol(p, &end, 10);
  long lanes = 1;
  if (end == p || bits <= 0 || bits > 255) ThrowValueError("bad bit width in data type '" + text + "'");
  if (*end == 'x') {
    const char* q = end + 1;
    lanes = std::strtol(q, &end, 10);
    if (end == q || lanes <= 0 || lanes > 65535) ThrowValueError("bad lanes in data type '" + text + "'");
  }
  if (*end != '\0') ThrowValueError("trailing characters in data type '" + text + "'");
  return DataType(code, static_cast<uint8_t>(bits), static_cast<uint16_t>(lanes));
}

}  // namespace spine::runtime

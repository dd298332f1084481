#include "host/engine/value/default_text.h"

#include "host/engine/value/number.h"

namespace luaform::engine {

std::optional<Value> value_from_default_text(const Type& type, const std::string& text,
                                             std::string& problem) {
  switch (type.kind()) {
    case TypeKind::String:
      return Value::string(text);
    case TypeKind::Bool:
      for (const char* yes : {"1", "t", "T", "TRUE", "true", "True"}) {
        if (text == yes) return Value::boolean(true);
      }
      for (const char* no : {"0", "f", "F", "FALSE", "false", "False"}) {
        if (text == no) return Value::boolean(false);
      }
      problem =
          "\"" + text + "\" is not a bool (true, false, 1, 0, t, f, TRUE, FALSE, True, False)";
      return std::nullopt;
    case TypeKind::Number:
      if (auto number = Number::parse(text)) return Value::number(*number);
      problem = "\"" + text + "\" is not a number";
      return std::nullopt;
    default:
      problem = "text cannot give a " + type.friendly_name();
      return std::nullopt;
  }
}

}  // namespace luaform::engine

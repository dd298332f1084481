#include "host/engine/value_walk.h"

namespace luaform::engine {

Value unknowns_to_null(const Value& v) {
  if (v.is_unknown()) return Value::null(v.type());
  if (v.is_null() || v.is_wholly_known()) return v;
  const Type& t = v.type();
  switch (t.kind()) {
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Tuple: {
      Value::List out;
      out.reserve(v.elements().size());
      for (const auto& e : v.elements()) out.push_back(unknowns_to_null(e));
      if (t.kind() == TypeKind::List) return Value::list(t.element(), std::move(out));
      if (t.kind() == TypeKind::Set) return Value::set(t.element(), std::move(out));
      return Value::tuple(t, std::move(out));
    }
    case TypeKind::Map:
    case TypeKind::Object: {
      Value::Object out;
      for (const auto& [k, e] : v.attributes()) out[k] = unknowns_to_null(e);
      if (t.kind() == TypeKind::Map) return Value::map(t.element(), std::move(out));
      return Value::object(t, std::move(out));
    }
    default:
      return v;
  }
}

}  // namespace luaform::engine

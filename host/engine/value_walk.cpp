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

const Value::List* list_data(const Value& v) {
  TypeKind k = v.type().kind();
  bool is_list = k == TypeKind::List || k == TypeKind::Set || k == TypeKind::Tuple;
  return v.is_known() && is_list ? &v.elements() : nullptr;
}

const Value::Object* object_data(const Value& v) {
  TypeKind k = v.type().kind();
  bool is_object = k == TypeKind::Map || k == TypeKind::Object;
  return v.is_known() && is_object ? &v.attributes() : nullptr;
}

}  // namespace luaform::engine

#include "host/engine/value/value_walk.h"

#include <charconv>

namespace luaform::engine {

std::vector<std::string> split_address(const std::string& address) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t dot = address.find('.', start);
    parts.push_back(address.substr(start, dot == std::string::npos ? dot : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

Value value_at_parts(Value v, const std::vector<std::string>& parts, size_t from) {
  for (size_t i = from; i < parts.size(); ++i) {
    if (v.is_unknown()) return Value::unknown(Type::dynamic());
    if (v.is_null()) return Value();
    const std::string& part = parts[i];
    if (const Value::List* elements = list_data(v)) {
      size_t index = 0;
      auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), index);
      if (ec != std::errc() || p != part.data() + part.size() || index >= elements->size()) {
        return Value();
      }
      v = (*elements)[index];
    } else if (const Value::Object* members = object_data(v)) {
      auto it = members->find(part);
      if (it == members->end()) return Value();
      v = it->second;
    } else {
      return Value();
    }
  }
  return v;
}

Value value_at_path(Value v, const AttributePath& path) {
  for (const PathStep& step : path) {
    if (v.is_unknown()) return Value::unknown(Type::dynamic());
    if (v.is_null()) return Value();
    if (const auto* index = std::get_if<ElementIndex>(&step)) {
      const Value::List* elements = list_data(v);
      if (!elements || index->index < 0 || static_cast<size_t>(index->index) >= elements->size()) {
        return Value();
      }
      v = (*elements)[static_cast<size_t>(index->index)];
      continue;
    }
    const std::string& key = std::holds_alternative<AttributeName>(step)
                                 ? std::get<AttributeName>(step).name
                                 : std::get<ElementKey>(step).key;
    const Value::Object* members = object_data(v);
    if (!members) return Value();
    auto it = members->find(key);
    if (it == members->end()) return Value();
    v = it->second;
  }
  return v;
}

Value unknowns_to_null(const Value& v) {
  return unknowns_from(v, Value());
}

Value unknowns_from(const Value& v, const Value& prior) {
  if (v.is_unknown()) {
    return prior.type() == v.type() && prior.is_wholly_known() ? prior : Value::null(v.type());
  }
  if (v.is_null() || v.is_wholly_known()) return v;
  const Type& t = v.type();
  const Value::List* prior_elements = t.kind() == TypeKind::Set ? nullptr : list_data(prior);
  const Value::Object* prior_members = object_data(prior);
  switch (t.kind()) {
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Tuple: {
      Value::List out;
      out.reserve(v.elements().size());
      for (size_t i = 0; i < v.elements().size(); ++i) {
        const bool paired = prior_elements != nullptr && i < prior_elements->size();
        out.push_back(unknowns_from(v.elements()[i], paired ? (*prior_elements)[i] : Value()));
      }
      if (t.kind() == TypeKind::List) return Value::list(t.element(), std::move(out));
      if (t.kind() == TypeKind::Set) return Value::set(t.element(), std::move(out));
      return Value::tuple(t, std::move(out));
    }
    case TypeKind::Map:
    case TypeKind::Object: {
      Value::Object out;
      for (const auto& [k, e] : v.attributes()) {
        auto it =
            prior_members != nullptr ? prior_members->find(k) : Value::Object::const_iterator();
        const bool paired = prior_members != nullptr && it != prior_members->end();
        out[k] = unknowns_from(e, paired ? it->second : Value());
      }
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

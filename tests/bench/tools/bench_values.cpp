#include "tests/bench/tools/bench_values.h"

#include "host/engine/codec/msgpack_codec.h"
#include "host/engine/value/type.h"
#include "host/engine/value/value.h"

namespace luaform::bench {

using engine::Type;
using engine::Value;

ItemValues item_values() {
  const Type type = Type::object({
      {"id", Type::string()},
      {"s1", Type::string()},
      {"s2", Type::string()},
      {"s3", Type::string()},
      {"s4", Type::string()},
      {"n1", Type::number()},
      {"n2", Type::number()},
      {"n3", Type::number()},
      {"b1", Type::boolean()},
      {"b2", Type::boolean()},
  });
  // Value::object makes the missing id a null of its type.
  const Value config = Value::object(type, {
                                               {"s1", Value::string("value-1")},
                                               {"s2", Value::string("value-2")},
                                               {"s3", Value::string("value-3")},
                                               {"s4", Value::string("value-4")},
                                               {"n1", Value::number(int64_t{1})},
                                               {"n2", Value::number(int64_t{2})},
                                               {"n3", Value::number(int64_t{3})},
                                               {"b1", Value::boolean(true)},
                                               {"b2", Value::boolean(false)},
                                           });
  const Value planned = config.with_attribute("id", Value::unknown(Type::string()));
  return ItemValues{engine::encode_msgpack(Value::null(type), type),
                    engine::encode_msgpack(config, type), engine::encode_msgpack(planned, type)};
}

BigsetValues bigset_values(int elements, bool change_one) {
  const Type item = Type::object({{"name", Type::string()}, {"value", Type::string()}});
  const Type type = Type::object({{"id", Type::string()}, {"items", Type::set(item)}});
  Value::List prior_items;
  prior_items.reserve(static_cast<size_t>(elements));
  for (int i = 0; i < elements; ++i) {
    const std::string n = std::to_string(i);
    prior_items.push_back(Value::object(
        item, {{"name", Value::string("item-" + n)}, {"value", Value::string("value-" + n)}}));
  }
  Value::List config_items = prior_items;
  if (change_one && !config_items.empty()) {
    config_items[0] = config_items[0].with_attribute("value", Value::string("changed"));
  }
  const Value id = Value::string("bigset");
  const Value prior = Value::object(type, {{"id", id}, {"items", Value::set(item, prior_items)}});
  const Value config = Value::object(type, {{"items", Value::set(item, config_items)}});
  const Value proposed = config.with_attribute("id", id);
  return BigsetValues{engine::encode_msgpack(prior, type), engine::encode_msgpack(config, type),
                      engine::encode_msgpack(proposed, type)};
}

}  // namespace luaform::bench

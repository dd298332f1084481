// ScriptState's provider-defined functions: run(...) on the checked arguments.
#include <stdexcept>

#include "host/lua/provider/script_state.h"

#include "host/lua/core/value_conversion.h"

namespace luaform::lua {

engine::FunctionOutcome ScriptState::call_function(const std::string& name,
                                                   const std::vector<engine::Value>& arguments,
                                                   const engine::Function& declared) {
  engine::FunctionOutcome outcome;
  auto it = functions_.find(name);
  if (it == functions_.end()) {
    outcome.failure = engine::FunctionFailure{"no script defines function " + name, {}};
    return outcome;
  }
  const Definition& definition = it->second;
  auto call = invocation({name}, deadline(HookKind::Check, "function " + name));
  const auto error = call.run([&](lua_State* S) {
    lua_rawgeti(S, LUA_REGISTRYINDEX, definition.ref);
    lua_getfield(S, -1, "run");
    luaL_checkstack(S, static_cast<int>(arguments.size()) + 4, "too many arguments");
    for (size_t i = 0; i < arguments.size(); ++i) {
      const engine::FunctionParameter* parameter = declared.parameter_for(i);
      const bool marked = parameter != nullptr && parameter->allow_unknown;
      push_value(S, arguments[i], marked ? Unknowns::Marked : Unknowns::Nil);
    }
    lua_call(S, static_cast<int>(arguments.size()), 1);
    try {
      outcome.result = to_value(S, -1, declared.returns, "result");
    } catch (const ConversionError& e) {
      throw std::runtime_error(definition.display + ": run returned a value that is not a " +
                               declared.returns.friendly_name() + ": " + e.what());
    }
  });
  if (error) {
    engine::FunctionFailure failure{one_line(call.placed(*error), definition.display), {}};
    if (const engine::Diagnostic* made = call.failure_made(*error)) {
      // tf.fail { summary = ..., argument = N }: N counts from 1, the protocol from 0.
      if (!made->summary.empty() && !made->detail.empty()) {
        failure.text = made->summary + ": " + failure.text;
      }
      if (call.context().failure_argument) {
        failure.argument = *call.context().failure_argument - 1;
      }
    }
    outcome.failure = std::move(failure);
  }
  return outcome;
}

}  // namespace luaform::lua

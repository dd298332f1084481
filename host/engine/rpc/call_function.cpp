// Provider-defined functions: GetFunctions and CallFunction. The CLI checks arguments against
// the declared parameters before calling; the same rules are applied here again so that a
// function's script only ever sees arguments of the types it declared.
#include <string>
#include <vector>

#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"

namespace luaform::engine {
namespace {

std::string arguments_expected(const Function& f) {
  const size_t n = f.parameters.size();
  std::string text = std::to_string(n) + (n == 1 ? " argument" : " arguments");
  if (f.variadic) text = "at least " + text;
  return text;
}

// True when `result` may stand as the value of a function returning `returns`.
bool fits(const Value& result, const Type& returns) {
  if (returns.is_dynamic()) return true;
  return result.type() == returns;
}

}  // namespace

GetFunctionsResponse ProviderService::get_functions() const {
  GetFunctionsResponse resp;
  resp.functions = &schema_.functions;
  resp.diagnostics.append(reported_load_problems(false));
  return resp;
}

CallFunctionResponse ProviderService::call_function(const CallFunctionRequest& req) const {
  CallFunctionResponse resp;
  auto fail = [&resp](std::string text, std::optional<int64_t> argument = std::nullopt) {
    resp.error = FunctionFailure{std::move(text), argument};
    return resp;
  };
  auto it = schema_.functions.find(req.name);
  if (it == schema_.functions.end()) {
    std::string text = "this provider has no function named \"" + req.name + "\"";
    if (!schema_diagnostics_.empty()) {
      text += " (loading the provider: " + schema_diagnostics_.first_text() + ")";
    }
    return fail(text);
  }
  const Function& f = it->second;
  const size_t given = req.arguments.size();
  if (given < f.parameters.size() || (!f.variadic && given > f.parameters.size())) {
    return fail(req.name + " takes " + arguments_expected(f) + ", got " + std::to_string(given));
  }

  std::vector<Value> arguments;
  arguments.reserve(given);
  bool unknown_result = false;
  for (size_t i = 0; i < given; ++i) {
    const FunctionParameter& parameter = *f.parameter_for(i);
    const auto index = static_cast<int64_t>(i);
    const Value& v = req.arguments[i];
    if (!v.is_null() && !fits(v, parameter.type)) {
      return fail("argument \"" + parameter.name + "\" must be " + parameter.type.friendly_name() +
                      ", not " + v.type().friendly_name(),
                  index);
    }
    if (v.is_null() && !parameter.allow_null) {
      return fail("argument \"" + parameter.name + "\" must not be null", index);
    }
    // cty's rule: a function that does not accept unknown values is not called with one; its
    // result is simply unknown until the argument is known.
    if (!v.is_wholly_known() && !parameter.allow_unknown) unknown_result = true;
    arguments.push_back(v);
  }
  if (unknown_result) {
    resp.result = Value::unknown(f.returns);
    return resp;
  }

  FunctionOutcome outcome;
  {
    // Functions run whether or not the provider is configured; once it is, its secrets are
    // hidden from what they report and log, as with every other call.
    Session session(*logic_, provider_secrets());
    outcome = session.call_function(req.name, f, arguments);
    if (outcome.failure) {
      outcome.failure->text = session.secrets().hide_text(std::move(outcome.failure->text));
    }
  }
  if (outcome.failure) {
    if (outcome.failure->argument && (*outcome.failure->argument < 0 ||
                                      *outcome.failure->argument >= static_cast<int64_t>(given))) {
      outcome.failure->argument.reset();  // no such argument: blame the call as a whole
    }
    resp.error = std::move(outcome.failure);
    return resp;
  }
  const Value& result = outcome.result;
  if (!fits(result, f.returns)) {
    return fail(req.name + " returned a " + result.type().friendly_name() + " where it declares " +
                f.returns.friendly_name());
  }
  if (!result.is_wholly_known()) {
    // Only an argument can bring an unknown in; from known arguments the result is known.
    bool any_unknown = false;
    for (const auto& a : arguments) any_unknown = any_unknown || !a.is_wholly_known();
    if (!any_unknown) return fail(req.name + " returned an unknown value from known arguments");
  }
  resp.result = result;
  return resp;
}

}  // namespace luaform::engine

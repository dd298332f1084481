#include "tests/bench/tools/bench_options.h"

#include <map>
#include <set>
#include <stdexcept>

namespace luaform::bench {

const char* const kUsage =
    "usage:\n"
    "  luaform_bench_rpc cold   [--repeat R] -- CMD [ARGS...]\n"
    "  luaform_bench_rpc rpc    [--calls N] [--concurrency C] [--type TYPE] -- CMD [ARGS...]\n"
    "  luaform_bench_rpc bigset [--elements N] [--change none|one] [--repeat R] [--timeout S]"
    " -- CMD [ARGS...]\n"
    "  luaform_bench_rpc load   [--seconds S] [--concurrency C] [--max-rss-growth-kib K]"
    " -- CMD [ARGS...]\n"
    "The provider's stderr is read through a pipe and its last lines shown if something fails;\n"
    "--quiet-provider sends it to /dev/null instead.\n"
    "CMD is started with our environment plus go-plugin's; one JSON line goes to stdout.\n";

namespace {

// The options each mode understands; any other is a mistake worth reporting.
const std::map<std::string, std::set<std::string>> kModeOptions = {
    {"cold", {"--repeat"}},
    {"rpc", {"--calls", "--concurrency", "--type"}},
    {"bigset", {"--elements", "--change", "--repeat", "--timeout"}},
    {"load", {"--seconds", "--concurrency", "--max-rss-growth-kib"}},
};

int positive_int(const std::string& option, const std::string& text) {
  size_t used = 0;
  int value = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < 1) {
    throw std::invalid_argument(option + " wants a positive whole number, not \"" + text + "\"");
  }
  return value;
}

double positive_double(const std::string& option, const std::string& text) {
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !(value > 0)) {
    throw std::invalid_argument(option + " wants a positive number of seconds, not \"" + text +
                                "\"");
  }
  return value;
}

}  // namespace

Options parse_options(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) throw std::invalid_argument("no mode given");
  Options options;
  options.mode = args[0];
  const auto known = kModeOptions.find(options.mode);
  if (known == kModeOptions.end()) throw std::invalid_argument("unknown mode " + options.mode);

  size_t i = 1;
  for (; i < args.size() && args[i] != "--"; ++i) {
    const std::string& option = args[i];
    if (option == "--quiet-provider") {
      options.quiet_provider = true;
      continue;
    }
    if (known->second.count(option) == 0) {
      throw std::invalid_argument("mode " + options.mode + " has no option " + option);
    }
    if (i + 1 >= args.size() || args[i + 1] == "--") {
      throw std::invalid_argument(option + " needs a value");
    }
    const std::string& value = args[++i];
    if (option == "--repeat") {
      options.repeat = positive_int(option, value);
    } else if (option == "--calls") {
      options.calls = positive_int(option, value);
    } else if (option == "--concurrency") {
      options.concurrency = positive_int(option, value);
    } else if (option == "--elements") {
      options.elements = positive_int(option, value);
    } else if (option == "--timeout") {
      options.timeout_s = positive_double(option, value);
    } else if (option == "--seconds") {
      options.seconds = positive_double(option, value);
    } else if (option == "--max-rss-growth-kib") {
      options.max_rss_growth_kib = positive_int(option, value);
    } else if (option == "--type") {
      options.type = value;
    } else if (option == "--change") {
      if (value != "none" && value != "one") {
        throw std::invalid_argument("--change wants none or one, not \"" + value + "\"");
      }
      options.change_one = value == "one";
    }
  }
  if (i >= args.size()) throw std::invalid_argument("no `-- CMD` for the provider");
  options.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
  if (options.command.empty()) throw std::invalid_argument("empty provider command after --");
  if (options.calls < options.concurrency) {
    throw std::invalid_argument("--calls must be at least --concurrency");
  }
  return options;
}

}  // namespace luaform::bench

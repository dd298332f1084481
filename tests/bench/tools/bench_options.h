// The command line of luaform_bench_rpc: a mode, its options, then `--` and the provider
// command.
#pragma once

#include <string>
#include <vector>

namespace luaform::bench {

struct Options {
  std::string mode;  // cold, rpc, bigset or load
  int repeat = 10;   // cold, bigset
  int calls = 10000;
  int concurrency = 1;
  std::string type = "bench_item";
  int elements = 1000;
  bool change_one = false;
  double seconds = 20;              // load
  long max_rss_growth_kib = 16384;  // load
  double timeout_s = 60;
  bool quiet_provider = false;  // provider stderr to /dev/null instead of a pipe we read
  std::vector<std::string> command;
};

extern const char* const kUsage;

// Throws std::invalid_argument with a message for the user when the arguments are wrong.
Options parse_options(int argc, char** argv);

}  // namespace luaform::bench

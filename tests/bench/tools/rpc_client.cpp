// luaform_bench_rpc: drives a provider over tfplugin6 the way the CLI does, without the CLI,
// and prints one JSON line of measurements. See bench_options.cpp for the command line.
#include <grpc/grpc.h>

#include <iostream>
#include <stdexcept>

#include "tests/bench/tools/bench_options.h"
#include "tests/bench/tools/modes.h"

int main(int argc, char** argv) {
  using namespace luaform::bench;
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::cerr << "luaform_bench_rpc: " << e.what() << "\n" << kUsage;
    return 2;
  }
  // Initialise gRPC up front, so that the first cold run does not pay for it.
  grpc_init();
  int rc = 0;
  try {
    nlohmann::ordered_json result;
    if (options.mode == "cold") {
      result = run_cold(options);
    } else if (options.mode == "rpc") {
      result = run_rpc(options);
    } else if (options.mode == "load") {
      result = run_load(options);
      if (!result.value("ok", false)) rc = 1;
    } else {
      result = run_bigset(options);
    }
    std::cout << result.dump() << std::endl;
  } catch (const std::exception& e) {
    std::cerr << "luaform_bench_rpc: " << e.what() << "\n";
    rc = 1;
  }
  grpc_shutdown();
  return rc;
}

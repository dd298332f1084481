// Command terraform-provider-bench is the Go peer of luaform's benchmark
// provider: the same resources written with terraform-plugin-framework, so
// the benchmarks in tests/bench/ can compare the two hosts like for like.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
)

func main() {
	// -debug makes the provider start its own gRPC server and print a
	// TF_REATTACH_PROVIDERS value, so the benchmark can own the process and
	// measure its CPU time and RSS while tofu attaches to it.
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run in debug mode and print TF_REATTACH_PROVIDERS")
	flag.Parse()

	// Reject a bad BENCH_RESOURCE_TYPES here, where the process can still
	// fail loudly; the framework gives Resources() no way to report errors.
	if _, err := itemTypeCount(); err != nil {
		log.Fatal(err)
	}

	err := providerserver.Serve(context.Background(), New, providerserver.ServeOpts{
		Address:         "registry.opentofu.org/luaform/bench",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}

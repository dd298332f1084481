package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// resourceTypesEnv, when set to N, replaces the normal resource set by N
// copies of bench_item; the cold-start benchmark uses it to measure how
// schema size affects start-up.
const resourceTypesEnv = "BENCH_RESOURCE_TYPES"

type benchProvider struct{}

var _ provider.Provider = (*benchProvider)(nil)

// New is the factory providerserver.Serve calls for each provider instance.
func New() provider.Provider {
	return &benchProvider{}
}

func (p *benchProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "bench"
}

// Schema is empty: the benchmark resources need no provider configuration.
func (p *benchProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{}
}

func (p *benchProvider) Configure(_ context.Context, _ provider.ConfigureRequest, _ *provider.ConfigureResponse) {
}

func (p *benchProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return nil
}

func (p *benchProvider) Resources(_ context.Context) []func() resource.Resource {
	// main has already rejected an invalid value, so the error is ignored.
	n, _ := itemTypeCount()
	if n == 0 {
		return []func() resource.Resource{
			newItemResource("bench_item"),
			newSleepResource,
			newRestResource,
			newBigsetResource,
		}
	}
	out := make([]func() resource.Resource, 0, n)
	out = append(out, newItemResource("bench_item"))
	for i := 2; i <= n; i++ {
		out = append(out, newItemResource(fmt.Sprintf("bench_item_%d", i)))
	}
	return out
}

// itemTypeCount reads BENCH_RESOURCE_TYPES: 0 means unset (normal resource
// set), otherwise the number of bench_item copies to expose.
func itemTypeCount() (int, error) {
	v, ok := os.LookupEnv(resourceTypesEnv)
	if !ok || v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s must be an integer >= 1, got %q", resourceTypesEnv, v)
	}
	return n, nil
}

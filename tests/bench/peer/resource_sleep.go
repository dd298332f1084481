package main

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// sleepResource is bench_sleep: Create waits delay_ms, which lets the
// benchmark measure how well a host overlaps slow, independent operations.
type sleepResource struct{}

var (
	_ resource.Resource                = (*sleepResource)(nil)
	_ resource.ResourceWithImportState = (*sleepResource)(nil)
)

type sleepModel struct {
	ID      types.String `tfsdk:"id"`
	DelayMS types.Number `tfsdk:"delay_ms"`
}

func newSleepResource() resource.Resource {
	return &sleepResource{}
}

func (r *sleepResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_sleep"
}

func (r *sleepResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":       computedID(),
			"delay_ms": schema.NumberAttribute{Required: true},
		},
	}
}

func (r *sleepResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m sleepModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ms, _ := m.DelayMS.ValueBigFloat().Int64()
	if ms > 0 {
		// A timer rather than time.Sleep so an interrupted apply (tofu
		// cancels the context on Ctrl-C / Stop) returns promptly.
		t := time.NewTimer(time.Duration(ms) * time.Millisecond)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			resp.Diagnostics.AddError("Sleep interrupted", fmt.Sprintf("bench_sleep: %v", ctx.Err()))
			return
		}
	}
	m.ID = types.StringValue(nextID("sleep-"))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Read leaves the state as it is (the framework pre-fills resp.State).
func (r *sleepResource) Read(_ context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {
}

func (r *sleepResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m sleepModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *sleepResource) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
}

func (r *sleepResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

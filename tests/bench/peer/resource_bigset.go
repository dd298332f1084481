package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// bigsetResource is bench_bigset: one resource with a set of nested blocks.
// It is written the ordinary way on purpose, so the benchmark shows the
// framework's known cost with large set nested blocks rather than a
// workaround for it.
type bigsetResource struct{}

var (
	_ resource.Resource                = (*bigsetResource)(nil)
	_ resource.ResourceWithImportState = (*bigsetResource)(nil)
)

type bigsetModel struct {
	ID    types.String `tfsdk:"id"`
	Items types.Set    `tfsdk:"items"`
}

func newBigsetResource() resource.Resource {
	return &bigsetResource{}
}

func (r *bigsetResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_bigset"
}

func (r *bigsetResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id": computedID(),
		},
		Blocks: map[string]schema.Block{
			"items": schema.SetNestedBlock{
				NestedObject: schema.NestedBlockObject{
					Attributes: map[string]schema.Attribute{
						"name":  schema.StringAttribute{Required: true},
						"value": schema.StringAttribute{Optional: true},
					},
				},
			},
		},
	}
}

func (r *bigsetResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m bigsetModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.ID = types.StringValue("bigset")
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Read leaves the state as it is (the framework pre-fills resp.State).
func (r *bigsetResource) Read(_ context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {
}

func (r *bigsetResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m bigsetModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *bigsetResource) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
}

func (r *bigsetResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

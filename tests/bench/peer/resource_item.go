package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// itemResource is bench_item: ten plain attributes and no side effects, so a
// benchmark over it measures the host's own per-resource overhead. The type
// name is a field so BENCH_RESOURCE_TYPES can register many copies of it.
type itemResource struct {
	typeName string
}

var (
	_ resource.Resource                = (*itemResource)(nil)
	_ resource.ResourceWithImportState = (*itemResource)(nil)
)

type itemModel struct {
	ID types.String `tfsdk:"id"`
	S1 types.String `tfsdk:"s1"`
	S2 types.String `tfsdk:"s2"`
	S3 types.String `tfsdk:"s3"`
	S4 types.String `tfsdk:"s4"`
	N1 types.Number `tfsdk:"n1"`
	N2 types.Number `tfsdk:"n2"`
	N3 types.Number `tfsdk:"n3"`
	B1 types.Bool   `tfsdk:"b1"`
	B2 types.Bool   `tfsdk:"b2"`
}

// newItemResource returns a factory for an item resource with the given
// full type name.
func newItemResource(typeName string) func() resource.Resource {
	return func() resource.Resource {
		return &itemResource{typeName: typeName}
	}
}

func (r *itemResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.typeName
}

func (r *itemResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id": computedID(),
			"s1": schema.StringAttribute{Optional: true},
			"s2": schema.StringAttribute{Optional: true},
			"s3": schema.StringAttribute{Optional: true},
			"s4": schema.StringAttribute{Optional: true},
			"n1": schema.NumberAttribute{Optional: true},
			"n2": schema.NumberAttribute{Optional: true},
			"n3": schema.NumberAttribute{Optional: true},
			"b1": schema.BoolAttribute{Optional: true},
			"b2": schema.BoolAttribute{Optional: true},
		},
	}
}

func (r *itemResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m itemModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.ID = types.StringValue(nextID("item-"))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Read leaves the state as it is: the framework pre-fills resp.State with
// the current state, and nothing outside the provider can change an item.
func (r *itemResource) Read(_ context.Context, _ resource.ReadRequest, _ *resource.ReadResponse) {
}

func (r *itemResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m itemModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *itemResource) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
}

func (r *itemResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// computedID is the "id" attribute every bench resource shares. Keeping the
// state's value for unknown plans means an update does not show id as
// "known after apply".
func computedID() schema.StringAttribute {
	return schema.StringAttribute{
		Computed:      true,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

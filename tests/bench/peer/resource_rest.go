package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// restResource is bench_rest: a resource backed by a small JSON HTTP API
// (POST/GET/DELETE {endpoint}/objects[/id]), the typical shape of a real
// provider, so the benchmark includes network round trips.
type restResource struct{}

var (
	_ resource.Resource                = (*restResource)(nil)
	_ resource.ResourceWithImportState = (*restResource)(nil)
)

type restModel struct {
	ID       types.String `tfsdk:"id"`
	Endpoint types.String `tfsdk:"endpoint"`
	Name     types.String `tfsdk:"name"`
}

// restObject is the API's JSON representation of an object.
type restObject struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
}

func newRestResource() resource.Resource {
	return &restResource{}
}

func (r *restResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_rest"
}

func (r *restResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":       computedID(),
			"endpoint": schema.StringAttribute{Required: true},
			// The API has no update call, so a new name means a new object.
			"name": schema.StringAttribute{
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
		},
	}
}

// objectsURL joins the endpoint with /objects and, if given, an escaped id.
func objectsURL(endpoint, id string) string {
	u := strings.TrimRight(endpoint, "/") + "/objects"
	if id != "" {
		u += "/" + url.PathEscape(id)
	}
	return u
}

func (r *restResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m restModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	u := objectsURL(m.Endpoint.ValueString(), "")
	status, body, err := restCall(ctx, http.MethodPost, u, restObject{Name: m.Name.ValueString()})
	if err != nil {
		resp.Diagnostics.AddError("Create request failed", err.Error())
		return
	}
	if !isSuccess(status) {
		resp.Diagnostics.AddError("Create request failed", statusError(http.MethodPost, u, status, body))
		return
	}
	var obj restObject
	if err := json.Unmarshal(body, &obj); err != nil || obj.ID == "" {
		resp.Diagnostics.AddError("Create returned an unusable answer",
			fmt.Sprintf("POST %s: expected JSON with a non-empty \"id\", got %q (%v)", u, body, err))
		return
	}
	m.ID = types.StringValue(obj.ID)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *restResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m restModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Endpoint.IsNull() {
		// Only an import reaches here: the id alone does not say which
		// server the object lives on.
		resp.Diagnostics.AddError("Cannot read bench_rest without endpoint",
			"Importing bench_rest by id is not supported: endpoint is unknown.")
		return
	}
	u := objectsURL(m.Endpoint.ValueString(), m.ID.ValueString())
	status, body, err := restCall(ctx, http.MethodGet, u, nil)
	if err != nil {
		resp.Diagnostics.AddError("Read request failed", err.Error())
		return
	}
	if status == http.StatusNotFound {
		// Deleted outside tofu: drop it so the next plan recreates it.
		resp.State.RemoveResource(ctx)
		return
	}
	if !isSuccess(status) {
		resp.Diagnostics.AddError("Read request failed", statusError(http.MethodGet, u, status, body))
		return
	}
	var obj restObject
	if err := json.Unmarshal(body, &obj); err != nil {
		resp.Diagnostics.AddError("Read returned an unusable answer",
			fmt.Sprintf("GET %s: expected JSON, got %q (%v)", u, body, err))
		return
	}
	m.Name = types.StringValue(obj.Name)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Update only happens for an endpoint change (name forces replacement), and
// that needs no API call: the plan becomes the new state.
func (r *restResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m restModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *restResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m restModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	u := objectsURL(m.Endpoint.ValueString(), m.ID.ValueString())
	status, body, err := restCall(ctx, http.MethodDelete, u, nil)
	if err != nil {
		resp.Diagnostics.AddError("Delete request failed", err.Error())
		return
	}
	// 404 means it is already gone, which is what Delete wants.
	if status != http.StatusNotFound && !isSuccess(status) {
		resp.Diagnostics.AddError("Delete request failed", statusError(http.MethodDelete, u, status, body))
	}
}

func (r *restResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// The partner flow with the client oapi-codegen generates from
// generated/openapi/ramp-clients.yaml (npm run test:clients), against a live sandbox:
// RAMP_BASE_URL, RAMP_API_KEY; and a signed delivery the harness received, RAMP_DELIVERY_FILE,
// decoded with the event model output-options.skip-prune keeps. The generated module is
// wired in with a replace directive.
package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"

	ramp "ramp-example/ramp"
)

func check(ok bool, format string, args ...any) {
	if !ok {
		fmt.Fprintf(os.Stderr, "oapi-codegen client: "+format+"\n", args...)
		os.Exit(1)
	}
}

func uuid() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

func main() {
	ctx := context.Background()
	// The API key goes raw in Authorization, without a scheme.
	withKey := ramp.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", os.Getenv("RAMP_API_KEY"))
		return nil
	})
	client, err := ramp.NewClientWithResponses(os.Getenv("RAMP_BASE_URL"), withKey)
	check(err == nil, "client: %v", err)
	public, err := ramp.NewClientWithResponses(os.Getenv("RAMP_BASE_URL"))
	check(err == nil, "client: %v", err)

	// Create a customer, then find it in the organization list.
	customer, err := client.V1CreateOrganizationWithResponse(ctx, ramp.V1CreateOrganizationRequest{DisplayName: "Smoke Customer", Type: ramp.Personal})
	check(err == nil && customer.JSON201 != nil, "create customer: %v %s", err, customer.Body)
	pageSize := ramp.PageSize(100)
	page, err := client.ListOrganizationsWithResponse(ctx, &ramp.ListOrganizationsParams{PageSize: &pageSize})
	check(err == nil && page.JSON200 != nil, "list organizations: %v", err)
	found := false
	for _, o := range page.JSON200.Items {
		found = found || *o.OrganizationId == *customer.JSON201.OrganizationId
	}
	check(found, "customer not listed")

	// Token costs: public, no key.
	costs, err := public.ListTokenCostsWithResponse(ctx, nil)
	check(err == nil && costs.JSON200 != nil, "token costs: %v", err)
	cetes, ok := (*costs.JSON200)["CETES"]
	check(ok && *cetes.TokenSymbol == "CETES" && *cetes.Currency == "MXN", "CETES %+v", cetes)
	price, err := strconv.ParseFloat(string(*cetes.TokenCostInFiat), 64)
	check(err == nil && price > 0, "CETES price %v", cetes.TokenCostInFiat)

	// A webhook subscription; its secret is shown once.
	request := ramp.WebhookSubscriptionRequest{Url: "https://partner.example/hooks/" + uuid(), EventType: ramp.WebhookEventTypeOrderUpdated}
	created, err := client.CreateWebhookSubscriptionWithResponse(ctx, request)
	check(err == nil && created.JSON201 != nil, "create subscription: %v %s", err, created.Body)
	check(created.JSON201.Url == request.Url && len(*created.JSON201.Secret) == 44, "created %+v", created.JSON201)

	// The same subscription again: 409, decoded as the typed problem.
	again, err := client.CreateWebhookSubscriptionWithResponse(ctx, request)
	check(err == nil && again.StatusCode() == 409 && again.ApplicationproblemJSON409 != nil, "duplicate: %v %s", err, again.Body)
	var conflict ramp.ConflictProblem = *again.ApplicationproblemJSON409
	check(conflict.Type == "https://docs.ramp.example/errors/conflict" && conflict.Status == 409 && conflict.Instance != "", "conflict %+v", conflict)

	// The live delivery, decoded with the generated event model.
	body, err := os.ReadFile(os.Getenv("RAMP_DELIVERY_FILE"))
	check(err == nil, "delivery: %v", err)
	var delivered ramp.OrderUpdatedEvent
	err = json.Unmarshal(body, &delivered)
	check(err == nil, "delivery: %v", err)
	fmt.Printf("delivery %s %s %s\n", delivered.Event, delivered.Order.Id, delivered.Order.Status)

	fmt.Println("oapi-codegen: organizations, customer, token costs, webhook subscription and its 409, delivery ok")
}

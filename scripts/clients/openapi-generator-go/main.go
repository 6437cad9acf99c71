// The partner flow with openapi-generator's Go client, generated from
// generated/openapi/ramp-clients.yaml (npm run test:clients), against a live sandbox:
// RAMP_BASE_URL, RAMP_API_KEY; and a signed delivery the harness received, RAMP_DELIVERY_FILE.
// The generated module is wired in with a replace directive.
package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"

	ramp "github.com/ramp-example/ramp-go"
)

func check(ok bool, format string, args ...any) {
	if !ok {
		fmt.Fprintf(os.Stderr, "go client: "+format+"\n", args...)
		os.Exit(1)
	}
}

func must[T any](value T, _ any, err error) T {
	if err != nil {
		var apiErr *ramp.GenericOpenAPIError
		if errors.As(err, &apiErr) {
			check(false, "%v: %s", err, apiErr.Body())
		}
		check(false, "%v", err)
	}
	return value
}

func uuid() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

func main() {
	cfg := ramp.NewConfiguration()
	cfg.Servers = ramp.ServerConfigurations{{URL: os.Getenv("RAMP_BASE_URL")}}
	client := ramp.NewAPIClient(cfg)
	// The API key goes raw in Authorization, without a scheme.
	ctx := context.WithValue(context.Background(), ramp.ContextAPIKeys, map[string]ramp.APIKey{"ApiKey": {Key: os.Getenv("RAMP_API_KEY")}})

	// Create a customer, then find it in the organization list.
	customer := must(client.OrganizationsAPI.V1CreateOrganization(ctx).V1CreateOrganizationRequest(*ramp.NewV1CreateOrganizationRequest("Smoke Customer", ramp.PERSONAL)).Execute())
	page := must(client.OrganizationsAPI.ListOrganizations(ctx).PageSize(100).Execute())
	found := false
	for _, o := range page.GetItems() {
		found = found || o.GetOrganizationId() == customer.GetOrganizationId()
	}
	check(found, "customer %s not listed", customer.GetOrganizationId())

	// Token costs: public, no key.
	costs := must(client.PricesAPI.ListTokenCosts(context.Background()).Execute())
	cetes, ok := (*costs)["CETES"]
	price, _ := strconv.ParseFloat(cetes.GetTokenCostInFiat(), 64)
	check(ok && cetes.GetTokenSymbol() == "CETES" && cetes.GetCurrency() == "MXN" && price > 0, "CETES %+v", cetes)

	// A webhook subscription; its secret is shown once.
	request := ramp.NewWebhookSubscriptionRequest("https://partner.example/hooks/"+uuid(), ramp.ORDER_UPDATED)
	created := must(client.WebhooksAPI.CreateWebhookSubscription(ctx).WebhookSubscriptionRequest(*request).Execute())
	check(created.GetUrl() == request.GetUrl() && len(created.GetSecret()) == 44, "created %+v", created)

	// The same subscription again: 409, decoded as the typed problem.
	_, response, err := client.WebhooksAPI.CreateWebhookSubscription(ctx).WebhookSubscriptionRequest(*request).Execute()
	var apiErr *ramp.GenericOpenAPIError
	check(errors.As(err, &apiErr) && response != nil && response.StatusCode == 409, "duplicate: %v", err)
	conflict, ok := apiErr.Model().(ramp.ConflictProblem)
	check(ok, "409 model %T", apiErr.Model())
	check(conflict.GetType() == "https://docs.ramp.example/errors/conflict" && conflict.GetStatus() == 409 && conflict.GetInstance() != "", "conflict %+v", conflict)

	// The live delivery, decoded with the generated event model.
	body, err := os.ReadFile(os.Getenv("RAMP_DELIVERY_FILE"))
	check(err == nil, "delivery: %v", err)
	var delivered ramp.OrderUpdatedEvent
	err = json.Unmarshal(body, &delivered)
	check(err == nil, "delivery: %v", err)
	fmt.Printf("delivery %s %s %s\n", delivered.Event, delivered.Order.Id, delivered.Order.Status)

	fmt.Println("openapi-generator go: organizations, customer, token costs, webhook subscription and its 409, delivery ok")
}

// The partner flow with the client ogen generates from generated/openapi/ramp.yaml, the
// document with the webhooks (npm run test:clients), against a live sandbox: RAMP_BASE_URL,
// RAMP_API_KEY; and a signed delivery the harness received, RAMP_DELIVERY_FILE. The generated module is wired in with a replace directive.
package main

import (
	"context"
	"fmt"
	"log"
	"net/url"
	"os"
	"strconv"

	"github.com/google/uuid"
	ramp "ramp-example/ramp"
)

// keys gives ogen the API key; the app pages' session cookie is not used here.
type keys struct{ apiKey string }

func (k keys) ApiKey(context.Context, ramp.OperationName) (ramp.ApiKey, error) {
	return ramp.ApiKey{APIKey: k.apiKey}, nil
}

func (keys) AppSession(context.Context, ramp.OperationName) (ramp.AppSession, error) {
	return ramp.AppSession{}, fmt.Errorf("no session")
}

func check(ok bool, format string, args ...any) {
	if !ok {
		log.Fatalf("ogen client: "+format, args...)
	}
}

func main() {
	ctx := context.Background()
	client, err := ramp.NewClient(os.Getenv("RAMP_BASE_URL"), keys{os.Getenv("RAMP_API_KEY")})
	check(err == nil, "client: %v", err)

	// Create a customer, then find it in the organization list.
	created, err := client.V1CreateOrganization(ctx, &ramp.V1CreateOrganizationRequest{DisplayName: "Smoke Customer", Type: ramp.OrganizationTypePersonal})
	customer, ok := created.(*ramp.Organization)
	check(err == nil && ok, "create customer: %v %T", err, created)
	listed, err := client.ListOrganizations(ctx, ramp.ListOrganizationsParams{PageSize: ramp.NewOptInt32(100)})
	page, ok := listed.(*ramp.OrganizationPage)
	check(err == nil && ok, "list organizations: %v %T", err, listed)
	found := false
	for _, o := range page.Items {
		found = found || o.OrganizationId == customer.OrganizationId
	}
	check(found, "customer not listed")

	// Token costs: public, no key.
	answered, err := client.ListTokenCosts(ctx, ramp.ListTokenCostsParams{})
	costs, ok := answered.(*ramp.TokenCostMap)
	check(err == nil && ok, "token costs: %v %T", err, answered)
	cetes, ok := (*costs)["CETES"]
	price, _ := strconv.ParseFloat(string(cetes.TokenCostInFiat), 64)
	check(ok && cetes.TokenSymbol == "CETES" && cetes.Currency == "MXN" && price > 0, "CETES %+v", cetes)

	// A webhook subscription; its secret is shown once.
	hook, _ := url.Parse("https://partner.example/hooks/" + uuid.NewString())
	request := &ramp.WebhookSubscriptionRequest{URL: *hook, EventType: ramp.WebhookEventTypeOrderUpdated}
	first, err := client.CreateWebhookSubscription(ctx, request)
	subscription, ok := first.(*ramp.WebhookSubscriptionCreated)
	check(err == nil && ok && subscription.URL.String() == hook.String() && len(subscription.Secret) == 44, "create subscription: %v %+v", err, first)

	// The same subscription again: 409, decoded as the typed problem.
	again, err := client.CreateWebhookSubscription(ctx, request)
	conflict, ok := again.(*ramp.ConflictProblem)
	check(err == nil && ok && conflict.Type == ramp.ConflictProblemTypeHTTPSDocsRampExampleErrorsConflict && conflict.Status == 409, "duplicate: %v %+v", err, again)

	// The live delivery, decoded and validated with the event model ogen makes from the webhooks.
	body, err := os.ReadFile(os.Getenv("RAMP_DELIVERY_FILE"))
	check(err == nil, "delivery: %v", err)
	var delivered ramp.OrderUpdatedEvent
	err = delivered.UnmarshalJSON(body)
	check(err == nil, "delivery: %v", err)
	check(delivered.Validate() == nil, "delivery: %v", delivered.Validate())
	fmt.Printf("delivery %s %s %s\n", delivered.Event, delivered.Order.ID, delivered.Order.Status)

	fmt.Println("ogen: organizations, customer, token costs, webhook subscription and its 409, delivery ok")
}

// Smoke test of the Go client generated from generated/openapi/ramp.yaml (npm run
// test:clients), run against a live sandbox: RAMP_BASE_URL, RAMP_API_KEY and
// RAMP_ORGANIZATION_ID (the key's organization). The generated module is wired in with a
// replace directive by the script.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

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

// slug is the last segment of a problem's type.
func slug(problemType string) string {
	return problemType[strings.LastIndex(problemType, "/")+1:]
}

func main() {
	cfg := ramp.NewConfiguration()
	cfg.Servers = ramp.ServerConfigurations{{URL: os.Getenv("RAMP_BASE_URL")}}
	client := ramp.NewAPIClient(cfg)
	ctx := context.WithValue(context.Background(), ramp.ContextAPIKeys, map[string]ramp.APIKey{"ApiKey": {Key: os.Getenv("RAMP_API_KEY")}})
	organizationID := os.Getenv("RAMP_ORGANIZATION_ID")

	// Create a webhook subscription; its secret is shown once.
	url := "https://partner.example/hooks/" + uuid()
	request := ramp.NewWebhookSubscriptionRequest(url, ramp.WEBHOOKEVENTTYPE_ORDER_UPDATED)
	created := must(client.WebhooksAPI.CreateWebhookSubscription(ctx).WebhookSubscriptionRequest(*request).Execute())
	check(created.GetUrl() == url && created.GetEventType() == ramp.WEBHOOKEVENTTYPE_ORDER_UPDATED, "created %+v", created)
	check(len(created.GetSecret()) == 44, "secret %q", created.GetSecret())
	listed := must(client.WebhooksAPI.ListWebhookSubscriptions(ctx).PageSize(100).Execute())
	ids := []string{}
	for _, s := range listed.GetItems() {
		ids = append(ids, s.GetId())
	}
	check(slices.Contains(ids, created.GetId()), "subscription %s not listed in %v", created.GetId(), ids)

	// The same subscription again is a conflict problem, decoded as its typed model.
	_, response, err := client.WebhooksAPI.CreateWebhookSubscription(ctx).WebhookSubscriptionRequest(*request).Execute()
	var apiErr *ramp.GenericOpenAPIError
	check(errors.As(err, &apiErr) && response.StatusCode == 409, "duplicate: %v", err)
	conflict, ok := apiErr.Model().(ramp.ConflictProblem)
	check(ok && slug(conflict.GetType()) == "conflict", "conflict model %T %+v", apiErr.Model(), apiErr.Model())

	// Read prices: public, no key needed.
	prices := must(client.PricesAPI.ListTokenCosts(context.Background()).Execute())
	cetes, found := (*prices)["CETES"]
	check(found && cetes.GetTokenSymbol() == "CETES" && cetes.GetCurrency() == "MXN", "CETES %+v", cetes)
	one := must(client.PricesAPI.GetTokenCost(context.Background(), "cetes").Execute())
	check(one.GetTokenMint() == cetes.GetTokenMint(), "one %+v", one)

	// List organizations: a customer created with the v1 surface shows up in the v2 list.
	customer := must(client.OrganizationsAPI.V1CreateOrganization(ctx).V1CreateOrganizationRequest(*ramp.NewV1CreateOrganizationRequest("Smoke Customer", ramp.ORGANIZATIONTYPE_PERSONAL)).Execute())
	page := must(client.OrganizationsAPI.ListOrganizations(ctx).PageSize(100).Execute())
	orgs := []string{}
	for _, o := range page.GetItems() {
		orgs = append(orgs, o.GetOrganizationId())
	}
	check(slices.Contains(orgs, customer.GetOrganizationId()), "customer %s not in %v", customer.GetOrganizationId(), orgs)

	// A problem: an order that does not exist is a 404 `not-found`, as a typed error model.
	_, response, err = client.OrdersAPI.GetOrder(ctx, organizationID, uuid()).Execute()
	check(errors.As(err, &apiErr) && response.StatusCode == 404, "unknown order: %v", err)
	notFound, ok := apiErr.Model().(ramp.NotFoundProblem)
	check(ok, "404 model %T", apiErr.Model())
	check(slug(notFound.GetType()) == "not-found" && notFound.GetStatus() == 404 && notFound.GetTitle() == "Not found" && notFound.GetInstance() != "", "problem %+v", notFound)

	fmt.Println("go client: webhook subscription, prices, organizations and problems ok")
}

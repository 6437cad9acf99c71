// The partner flow with openapi-generator's Java client (okhttp-gson), generated from
// generated/openapi/ramp-clients.yaml (npm run test:clients), against a live sandbox:
// RAMP_BASE_URL, RAMP_API_KEY; and a signed delivery the harness received, RAMP_DELIVERY_FILE.
// Compiled with the generated sources by mvn compile.
package smoke;

import com.rampexample.client.ApiClient;
import com.rampexample.client.ApiException;
import com.rampexample.client.api.OrganizationsApi;
import com.rampexample.client.api.PricesApi;
import com.rampexample.client.api.WebhooksApi;
import com.rampexample.client.model.ConflictProblem;
import com.rampexample.client.model.OrderUpdatedEvent;
import com.rampexample.client.model.Organization;
import com.rampexample.client.model.OrganizationPage;
import com.rampexample.client.model.OrganizationType;
import com.rampexample.client.model.TokenCost;
import com.rampexample.client.model.V1CreateOrganizationRequest;
import com.rampexample.client.model.WebhookEventType;
import com.rampexample.client.model.WebhookSubscriptionCreated;
import com.rampexample.client.model.WebhookSubscriptionRequest;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

public final class Smoke {
  private static void check(boolean ok, String message) {
    if (!ok) {
      System.err.println("java client: " + message);
      System.exit(1);
    }
  }

  public static void main(String[] args) throws Exception {
    ApiClient api = new ApiClient();
    api.setBasePath(System.getenv("RAMP_BASE_URL"));
    // The API key goes raw in Authorization, without a scheme.
    api.setApiKey(System.getenv("RAMP_API_KEY"));

    // Create a customer, then find it in the organization list.
    OrganizationsApi organizations = new OrganizationsApi(api);
    Organization customer = organizations.v1CreateOrganization(new V1CreateOrganizationRequest().displayName("Smoke Customer").type(OrganizationType.PERSONAL));
    OrganizationPage page = organizations.listOrganizations(100, null);
    check(page.getItems().stream().anyMatch(o -> o.getOrganizationId().equals(customer.getOrganizationId())), "customer not listed");

    // Token costs: public, no key.
    Map<String, TokenCost> costs = new PricesApi(api).listTokenCosts(null);
    TokenCost cetes = costs.get("CETES");
    check(cetes != null && "CETES".equals(cetes.getTokenSymbol()) && "MXN".equals(cetes.getCurrency()) && Double.parseDouble(cetes.getTokenCostInFiat()) > 0, "CETES " + cetes);

    // A webhook subscription; its secret is shown once.
    WebhooksApi webhooks = new WebhooksApi(api);
    WebhookSubscriptionRequest request = new WebhookSubscriptionRequest().url(URI.create("https://partner.example/hooks/" + UUID.randomUUID())).eventType(WebhookEventType.ORDER_UPDATED);
    WebhookSubscriptionCreated created = webhooks.createWebhookSubscription(request);
    check(created.getUrl().equals(request.getUrl()) && created.getSecret().length() == 44, "created " + created);

    // The same subscription again: 409, decoded as the typed problem.
    try {
      webhooks.createWebhookSubscription(request);
      check(false, "a duplicate subscription was accepted");
    } catch (ApiException error) {
      check(error.getCode() == 409, "duplicate: " + error.getCode() + " " + error.getResponseBody());
      ConflictProblem conflict = ConflictProblem.fromJson(error.getResponseBody());
      check(conflict.getType() == ConflictProblem.TypeEnum.HTTPS_DOCS_RAMP_EXAMPLE_ERRORS_CONFLICT && conflict.getInstance() != null, "conflict " + conflict);
    }

    // The live delivery, decoded with the generated event model (its fromJson checks the required fields).
    OrderUpdatedEvent delivered = OrderUpdatedEvent.fromJson(Files.readString(Path.of(System.getenv("RAMP_DELIVERY_FILE"))));
    System.out.println("delivery " + delivered.getEvent().getValue() + " " + delivered.getOrder().getId() + " " + delivered.getOrder().getStatus().getValue());

    System.out.println("openapi-generator java: organizations, customer, token costs, webhook subscription and its 409, delivery ok");
  }
}

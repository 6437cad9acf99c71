"""The partner flow with openapi-generator's Python client, generated from
generated/openapi/ramp-clients.yaml (npm run test:clients), against a live sandbox:
RAMP_BASE_URL, RAMP_API_KEY and RAMP_ORGANIZATION_ID (the key's organization); and a
signed delivery the harness received, RAMP_DELIVERY_FILE.
Type-checked with mypy before it runs."""
import os
import uuid

import ramp_client
from ramp_client.exceptions import ApiException

base_url = os.environ["RAMP_BASE_URL"]
# The API key goes raw in Authorization, without a scheme.
configuration = ramp_client.Configuration(host=base_url, api_key={"ApiKey": os.environ["RAMP_API_KEY"]})

with ramp_client.ApiClient(configuration) as api:
    organizations = ramp_client.OrganizationsApi(api)
    # Create a customer, then find it in the organization list. The pydantic models take the
    # JSON names as keywords (displayName): those are what their signatures declare to mypy.
    customer = organizations.v1_create_organization(
        ramp_client.V1CreateOrganizationRequest(displayName="Smoke Customer", type=ramp_client.OrganizationType.PERSONAL)
    )
    page = organizations.list_organizations(page_size=100)
    assert customer.organization_id in [o.organization_id for o in page.items], page

    # Token costs: public, no key.
    costs = ramp_client.PricesApi(api).list_token_costs()
    cetes = costs["CETES"]
    assert cetes.token_symbol == "CETES" and cetes.currency == "MXN" and float(cetes.token_cost_in_fiat) > 0, cetes

    # A webhook subscription; its secret is shown once.
    webhooks = ramp_client.WebhooksApi(api)
    request = ramp_client.WebhookSubscriptionRequest(
        url=f"https://partner.example/hooks/{uuid.uuid4()}", eventType=ramp_client.WebhookEventType.ORDERUPDATED
    )
    created = webhooks.create_webhook_subscription(request)
    assert created.url == request.url and len(created.secret) == 44, created

    # The same subscription again: 409, decoded as the typed problem.
    try:
        webhooks.create_webhook_subscription(request)
        raise AssertionError("a duplicate subscription was accepted")
    except ApiException as error:
        assert error.status == 409, (error.status, error.body)
        conflict = error.data
        assert isinstance(conflict, ramp_client.ConflictProblem), type(conflict)
        assert conflict.type.rsplit("/", 1)[-1] == "conflict" and conflict.status == 409 and conflict.instance, conflict

# The live delivery, decoded with the generated event model.
with open(os.environ["RAMP_DELIVERY_FILE"], encoding="utf-8") as file:
    delivered = ramp_client.OrderUpdatedEvent.from_json(file.read())
assert delivered is not None
print(f"delivery {delivered.event} {delivered.order.id} {delivered.order.status.value}")

print("openapi-generator python: organizations, customer, token costs, webhook subscription and its 409, delivery ok")

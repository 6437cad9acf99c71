"""The partner flow with the client openapi-python-client generates from
generated/openapi/ramp-clients.yaml (npm run test:clients), against a live sandbox:
RAMP_BASE_URL, RAMP_API_KEY and RAMP_ORGANIZATION_ID (the key's organization); and a
signed delivery the harness received, RAMP_DELIVERY_FILE.
Type-checked with mypy --strict before it runs."""
import json
import os
import uuid

from ramp_client import AuthenticatedClient, Client
from ramp_client.api.organizations import list_organizations, v_1_create_organization
from ramp_client.api.prices import list_token_costs
from ramp_client.api.webhooks import create_webhook_subscription
from ramp_client.models import (
    ConflictProblem,
    Organization,
    OrganizationPage,
    OrderUpdatedEvent,
    OrganizationType,
    TokenCostMap,
    V1CreateOrganizationRequest,
    WebhookEventType,
    WebhookSubscriptionCreated,
    WebhookSubscriptionRequest,
)

base_url = os.environ["RAMP_BASE_URL"]
# The API key goes raw in Authorization, without a scheme.
client = AuthenticatedClient(base_url=base_url, token=os.environ["RAMP_API_KEY"], prefix="")

# Create a customer, then find it in the organization list.
customer = v_1_create_organization.sync(
    client=client, body=V1CreateOrganizationRequest(display_name="Smoke Customer", type_=OrganizationType.PERSONAL)
)
assert isinstance(customer, Organization), customer
page = list_organizations.sync(client=client, page_size=100)
assert isinstance(page, OrganizationPage), page
assert customer.organization_id in [o.organization_id for o in page.items], page

# Token costs: public, no key.
costs = list_token_costs.sync(client=Client(base_url=base_url))
assert isinstance(costs, TokenCostMap), costs
cetes = costs["CETES"]
assert cetes.token_symbol == "CETES" and cetes.currency == "MXN" and float(cetes.token_cost_in_fiat) > 0, cetes

# A webhook subscription; its secret is shown once.
request = WebhookSubscriptionRequest(url=f"https://partner.example/hooks/{uuid.uuid4()}", event_type=WebhookEventType.ORDERUPDATED)
created = create_webhook_subscription.sync(client=client, body=request)
assert isinstance(created, WebhookSubscriptionCreated), created
assert created.url == request.url and len(created.secret) == 44, created

# The same subscription again: 409, decoded as the typed problem.
conflict = create_webhook_subscription.sync(client=client, body=request)
assert isinstance(conflict, ConflictProblem), conflict
assert conflict.type_.value.rsplit("/", 1)[-1] == "conflict" and conflict.status == 409 and conflict.instance, conflict

# The live delivery, decoded with the generated event model.
with open(os.environ["RAMP_DELIVERY_FILE"], encoding="utf-8") as file:
    delivered = OrderUpdatedEvent.from_dict(json.load(file))
print(f"delivery {delivered.event.value} {delivered.order.id} {delivered.order.status.value}")

print("openapi-python-client: organizations, customer, token costs, webhook subscription and its 409, delivery ok")

"""Smoke test of the Python client generated from generated/openapi/ramp.yaml
(npm run test:clients), run against a live sandbox: RAMP_BASE_URL, RAMP_API_KEY and
RAMP_ORGANIZATION_ID (the key's organization)."""
import os
import uuid

import ramp_client
from ramp_client.exceptions import ApiException, NotFoundException

base_url = os.environ["RAMP_BASE_URL"]
organization_id = os.environ["RAMP_ORGANIZATION_ID"]
configuration = ramp_client.Configuration(host=base_url, api_key={"ApiKey": os.environ["RAMP_API_KEY"]})


def slug(problem) -> str:
    """The problem's slug: the last segment of its `type`."""
    return problem.type.rsplit("/", 1)[-1]


with ramp_client.ApiClient(configuration) as api:
    # Create a webhook subscription; its secret is shown once.
    webhooks = ramp_client.WebhooksApi(api)
    url = f"https://partner.example/hooks/{uuid.uuid4()}"
    created = webhooks.create_webhook_subscription(
        ramp_client.WebhookSubscriptionRequest(url=url, event_type=ramp_client.WebhookEventType("orderUpdated"))
    )
    assert created.url == url and created.event_type == ramp_client.WebhookEventType.ORDERUPDATED, created
    assert len(created.secret) == 44 and created.secret.endswith("="), created.secret
    listed = webhooks.list_webhook_subscriptions(page_size=100)
    assert created.id in [s.id for s in listed.items], listed

    # The same subscription again is a conflict problem, decoded as its typed model.
    try:
        webhooks.create_webhook_subscription(ramp_client.WebhookSubscriptionRequest(url=url, event_type="orderUpdated"))
        raise AssertionError("a duplicate subscription was accepted")
    except ApiException as error:
        assert error.status == 409 and slug(error.data) == "conflict", (error.status, error.body)

    # Read prices: public, no key needed.
    prices = ramp_client.PricesApi(api).list_token_costs()
    cetes = prices["CETES"]
    assert cetes.token_symbol == "CETES" and cetes.currency == "MXN", cetes
    assert float(cetes.token_cost_in_fiat) > 0, cetes.token_cost_in_fiat
    one = ramp_client.PricesApi(api).get_token_cost("cetes")
    assert one.token_mint == cetes.token_mint

    # List organizations: a customer created with the v1 surface shows up in the v2 list.
    customer = ramp_client.OrganizationsApi(api).v1_create_organization(
        ramp_client.V1CreateOrganizationRequest(display_name="Smoke Customer", type=ramp_client.OrganizationType("personal"))
    )
    page = ramp_client.OrganizationsApi(api).list_organizations(page_size=100)
    assert customer.organization_id in [o.organization_id for o in page.items], page
    assert page.page_number == 0 and page.total_items >= 1

    # A problem: an order that does not exist is a 404 `not-found`, as a typed exception.
    try:
        ramp_client.OrdersApi(api).get_order(organization_id, str(uuid.uuid4()))
        raise AssertionError("an unknown order was found")
    except NotFoundException as error:
        problem = error.data
        assert isinstance(problem, ramp_client.NotFoundProblem), type(problem)
        assert slug(problem) == "not-found" and problem.status == 404 and problem.title == "Not found", problem
        assert problem.instance, problem

print("python client: webhook subscription, prices, organizations and problems ok")

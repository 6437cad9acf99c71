//! The partner flow with openapi-generator's Rust client, generated from
//! generated/openapi/ramp-clients.yaml (npm run test:clients), against a live sandbox:
//! RAMP_BASE_URL, RAMP_API_KEY; and a signed delivery the harness received, RAMP_DELIVERY_FILE.
use ramp_client::apis::configuration::{ApiKey, Configuration};
use ramp_client::apis::sign_in_api::CreateTokenError;
use ramp_client::apis::webhooks_api::CreateWebhookSubscriptionError;
use ramp_client::apis::{organizations_api, prices_api, sign_in_api, wallets_api, webhooks_api, Error};
use ramp_client::models;

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set"))
}

#[tokio::main]
async fn main() {
    let public = Configuration { base_path: env("RAMP_BASE_URL"), ..Configuration::new() };
    // The API key goes raw in Authorization, without a scheme.
    let config = Configuration { api_key: Some(ApiKey { prefix: None, key: env("RAMP_API_KEY") }), ..public.clone() };

    // Create a customer, then find it in the organization list.
    let request = models::V1CreateOrganizationRequest::new("Smoke Customer".into(), models::OrganizationType::Personal);
    let customer = organizations_api::v1_create_organization(&config, request).await.expect("create a customer");
    let page = organizations_api::list_organizations(&config, Some(100), None).await.expect("list organizations");
    assert!(page.items.iter().any(|o| o.organization_id == customer.organization_id), "customer not listed");

    // Its wallets, one of each custody, with the one request struct.
    let customer_id = customer.organization_id.to_string();
    let request = models::WalletRequest::new(models::WalletCustody::External, "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM".into(), models::Blockchain::Solana);
    let external = wallets_api::create_wallet(&config, &customer_id, request).await.expect("an external wallet");
    assert!(external.custody == models::WalletCustody::External && external.signer_public_key.is_none(), "{external:?}");
    let signer = "036b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296".to_string();
    let mut request = models::WalletRequest::new(models::WalletCustody::Embedded, format!("0x{}", "ab".repeat(20)), models::Blockchain::Ethereum);
    request.signer_public_key = Some(signer.clone());
    let embedded = wallets_api::create_wallet(&config, &customer_id, request).await.expect("an embedded wallet");
    assert!(embedded.custody == models::WalletCustody::Embedded && embedded.signer_public_key == Some(signer), "{embedded:?}");

    // Sign-in's token request, one struct for both grants: an unknown refresh token is
    // `invalid_grant`, decoded as the typed OAuth error.
    let mut request = models::OAuthTokenRequest::new(models::o_auth_token_request::GrantType::RefreshToken);
    request.refresh_token = Some("rt_unknown".into());
    match sign_in_api::create_token(&public, request).await {
        Err(Error::ResponseError(response)) => match response.entity {
            Some(CreateTokenError::Status400(error)) => assert_eq!(error.error, models::o_auth_error::Error::InvalidGrant, "{error:?}"),
            other => panic!("token: {} decoded as {other:?}", response.status),
        },
        other => panic!("an unknown refresh token answered {other:?}"),
    }

    // Token costs: public, no key.
    let costs = prices_api::list_token_costs(&public, None).await.expect("token costs");
    let cetes = costs.get("CETES").expect("CETES");
    assert!(cetes.token_symbol == "CETES" && cetes.currency == "MXN", "{cetes:?}");
    assert!(cetes.token_cost_in_fiat.parse::<f64>().expect("a decimal") > 0.0);

    // A webhook subscription; its secret is shown once.
    let url = format!("https://partner.example/hooks/{}", unique());
    let request = models::WebhookSubscriptionRequest::new(url.clone(), models::WebhookEventType::OrderUpdated);
    let created = webhooks_api::create_webhook_subscription(&config, request.clone()).await.expect("create a subscription");
    assert!(created.url == url && created.secret.len() == 44, "{created:?}");

    // The same subscription again: 409, decoded as the typed problem.
    match webhooks_api::create_webhook_subscription(&config, request).await {
        Err(Error::ResponseError(response)) => {
            assert_eq!(response.status.as_u16(), 409);
            match response.entity {
                Some(CreateWebhookSubscriptionError::Status409(conflict)) => {
                    assert!(!conflict.instance.is_empty(), "{conflict:?}");
                }
                other => panic!("409 decoded as {other:?}"),
            }
        }
        other => panic!("a duplicate subscription answered {other:?}"),
    }

    // The live delivery, decoded with the generated event model (serde, as the client's answers).
    let body = std::fs::read_to_string(env("RAMP_DELIVERY_FILE")).expect("the delivery file");
    let delivered: models::OrderUpdatedEvent = serde_json::from_str(&body).expect("an OrderUpdatedEvent");
    let event = serde_json::to_value(delivered.event).expect("the event name");
    println!("delivery {} {} {}", event.as_str().unwrap_or_default(), delivered.order.id, delivered.order.status);

    println!("openapi-generator rust: organizations, customer, its two wallets, a token request, token costs, webhook subscription and its 409, delivery ok");
}

/// A value unique to this run (the clock and the process), for the subscription URL.
fn unique() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    format!("{:032x}", nanos ^ ((std::process::id() as u128) << 96))
}

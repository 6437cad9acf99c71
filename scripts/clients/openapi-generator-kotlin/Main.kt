// The partner flow with openapi-generator's Kotlin client (its defaults: okhttp, moshi),
// generated from generated/openapi/ramp-clients.yaml (npm run test:clients), against a live
// sandbox: RAMP_BASE_URL, RAMP_API_KEY; and a signed delivery the harness received,
// RAMP_DELIVERY_FILE. Compiled with the generated sources by the pom.xml
// beside this file (the generator writes a Gradle build; Maven needs no wrapper download).
package smoke

import com.rampexample.client.apis.OrganizationsApi
import com.rampexample.client.apis.PricesApi
import com.rampexample.client.apis.SignInApi
import com.rampexample.client.apis.WalletsApi
import com.rampexample.client.apis.WebhooksApi
import com.rampexample.client.infrastructure.ApiClient
import com.rampexample.client.infrastructure.ClientError
import com.rampexample.client.infrastructure.ClientException
import com.rampexample.client.infrastructure.Serializer
import com.rampexample.client.models.Blockchain
import com.rampexample.client.models.ConflictProblem
import com.rampexample.client.models.OAuthError
import com.rampexample.client.models.OAuthTokenRequest
import com.rampexample.client.models.OrderUpdatedEvent
import com.rampexample.client.models.OrganizationType
import com.rampexample.client.models.V1CreateOrganizationRequest
import com.rampexample.client.models.WalletCustody
import com.rampexample.client.models.WalletRequest
import com.rampexample.client.models.WebhookEventType
import com.rampexample.client.models.WebhookSubscriptionRequest
import java.io.File
import java.net.URI
import java.util.UUID
import kotlin.system.exitProcess

private fun check(ok: Boolean, message: () -> String) {
    if (!ok) {
        System.err.println("kotlin client: ${message()}")
        exitProcess(1)
    }
}

fun main() {
    val base = System.getenv("RAMP_BASE_URL")
    // The API key goes raw in Authorization, without a scheme.
    ApiClient.apiKey["Authorization"] = System.getenv("RAMP_API_KEY")

    // Create a customer, then find it in the organization list.
    val organizations = OrganizationsApi(base)
    val customer = organizations.v1CreateOrganization(V1CreateOrganizationRequest(displayName = "Smoke Customer", type = OrganizationType.personal))
    val page = organizations.listOrganizations(100, null)
    check(page.items.any { it.organizationId == customer.organizationId }) { "customer not listed" }

    // Its wallets, one of each custody: one request class for both (a oneOf would be an
    // interface that no generated class implements, docs/clients.md).
    val wallets = WalletsApi(base)
    val external = wallets.createWallet(customer.organizationId, WalletRequest(custody = WalletCustody.external, address = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", blockchain = Blockchain.solana))
    check(external.custody == WalletCustody.external && external.signerPublicKey == null) { "external wallet $external" }
    val signer = "036b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
    val embedded = wallets.createWallet(customer.organizationId, WalletRequest(custody = WalletCustody.embedded, address = "0x" + "ab".repeat(20), blockchain = Blockchain.ethereum, signerPublicKey = signer))
    check(embedded.custody == WalletCustody.embedded && embedded.signerPublicKey == signer) { "embedded wallet $embedded" }

    // Sign-in's token request, one class for both grants: an unknown refresh token is
    // `invalid_grant`, its OAuth error decoded with the generated model. This client sends its
    // API key on every call, sign-in's too (`security: []` notwithstanding), and sign-in refuses
    // an Authorization header: the key is set aside for it.
    val key = ApiClient.apiKey.remove("Authorization")!!
    try {
        SignInApi(base).createToken(OAuthTokenRequest(grantType = OAuthTokenRequest.GrantType.refresh_token, refreshToken = "rt_unknown"))
        check(false) { "an unknown refresh token was exchanged" }
    } catch (error: ClientException) {
        val body = (error.response as ClientError<*>).body as String
        val oauth = Serializer.moshi.adapter(OAuthError::class.java).fromJson(body)
        check(error.statusCode == 400 && oauth?.error == OAuthError.Error.invalid_grant) { "token: ${error.statusCode} $body" }
    } finally {
        ApiClient.apiKey["Authorization"] = key
    }

    // Token costs: public, no key.
    val cetes = PricesApi(base).listTokenCosts(null)["CETES"]
    check(cetes != null && cetes.tokenSymbol == "CETES" && cetes.currency == "MXN" && cetes.tokenCostInFiat.toDouble() > 0) { "CETES $cetes" }

    // A webhook subscription; its secret is shown once.
    val webhooks = WebhooksApi(base)
    val request = WebhookSubscriptionRequest(url = URI.create("https://partner.example/hooks/${UUID.randomUUID()}"), eventType = WebhookEventType.orderUpdated)
    val created = webhooks.createWebhookSubscription(request)
    check(created.url == request.url && created.secret.length == 44) { "created $created" }

    // The same subscription again: 409, its body decoded as the typed problem (moshi).
    try {
        webhooks.createWebhookSubscription(request)
        check(false) { "a duplicate subscription was accepted" }
    } catch (error: ClientException) {
        check(error.statusCode == 409) { "duplicate: ${error.statusCode}" }
        val body = (error.response as ClientError<*>).body as String
        val conflict = Serializer.moshi.adapter(ConflictProblem::class.java).fromJson(body)
        check(conflict != null && conflict.type == ConflictProblem.Type.httpsColonSlashSlashDocsPeriodRampPeriodExampleSlashErrorsSlashConflict && conflict.status == 409) { "conflict $conflict" }
    }

    // The live delivery, decoded with the generated event model (moshi, as the client's answers).
    val delivered = Serializer.moshi.adapter(OrderUpdatedEvent::class.java).fromJson(File(System.getenv("RAMP_DELIVERY_FILE")).readText())
        ?: error("delivery: empty")
    println("delivery ${delivered.event.value} ${delivered.order.id} ${delivered.order.status.value}")

    println("openapi-generator kotlin: organizations, customer, its two wallets, a token request, token costs, webhook subscription and its 409, delivery ok")
}

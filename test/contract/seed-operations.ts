/**
 * The 40 operations the service publishes (what the contract marks `x-provenance: seed`), by
 * surface, method and path exactly as published. The contract must hold each one, so this list
 * is written here, apart from the contract it checks.
 */
export const seedOperations = {
  auth: [
    'POST /auth/token',
    'POST /auth/launch',
    'GET /auth/launch',
  ],
  lookup: [
    'GET /lookup/tokens/cost',
    'GET /lookup/tokens/cost/{identifier}',
    'GET /lookup/bonds/cost',
    'GET /lookup/bonds/cost/{identifier}',
    'GET /lookup/country-codes',
    'GET /lookup/restricted-countries',
    'GET /lookup/exchange_rate',
  ],
  v1: [
    'PUT /ramp/organization/{org_id}/name',
    'POST /ramp/organization',
    'GET /ramp/customers',
    'POST /ramp/customers',
    'POST /ramp/orders',
    'POST /ramp/customer/{customer_id}/orders',
    'POST /ramp/bank-accounts',
    'POST /ramp/customer/{customer_id}/bank-accounts',
    'POST /ramp/wallets',
    'POST /ramp/customer/{customer_id}/wallets',
    'POST /ramp/webhooks',
    'POST /ramp/webhook',
    'GET /ramp/webhook/{id}',
    'DELETE /ramp/webhook/{id}',
    'POST /ramp/order/{id}/regenerate_tx',
    'POST /ramp/swap/{id}/regenerate_tx',
    'GET /ramp/customer/{customer_id}/kyc',
    'POST /ramp/onboarding/bank-accounts',
  ],
  v2: [
    'GET /organizations',
    'GET /organization/{organizationId}/payment_accounts',
    'GET /organization/{organizationId}/payment_account/{id}',
    'GET /orders',
    'POST /organization/{organizationId}/order',
    'GET /organization/{organizationId}/order/{id}',
    'POST /organization/{organizationId}/order/{id}/claim',
    'GET /organization/{organizationId}/kyc',
    'POST /webhook_subscription',
    'GET /webhook_subscriptions',
    'GET /webhook_subscription/{id}',
    'DELETE /webhook_subscription/{id}',
  ],
} as const;

/** The operations the service deprecates. */
export const seedDeprecated = [
  'GET /lookup/bonds/cost',
  'GET /lookup/bonds/cost/{identifier}',
  'POST /ramp/onboarding/bank-accounts',
];

/** The webhook events the service publishes, by surface. */
export const seedWebhooks = {
  v1: ['order_updated', 'swap_updated', 'customer_updated', 'kyc_updated', 'kyb_updated', 'bank_account_updated'],
  v2: ['orderUpdated', 'paymentAccountUpdated', 'kycUpdated', 'kybUpdated'],
} as const;

/** The problem slugs the service publishes, with their fixed statuses. */
export const seedProblems: Record<string, number> = {
  'invalid-request': 400,
  'validation-error': 400,
  'quote-expired': 400,
  'amount-out-of-range': 400,
  'sandbox-limit-exceeded': 400,
  'invalid-signature': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'method-not-allowed': 405,
  conflict: 409,
  'organization-not-approved': 409,
  'payment-account-unavailable': 409,
  'payment-account-disabled': 409,
  'payment-account-not-ready': 409,
  'order-not-cancelable': 409,
  'order-not-claimable': 409,
  'authorization-expired': 409,
  'authorization-not-required': 409,
  'payload-too-large': 413,
  'quote-unavailable': 422,
  'registration-info-required': 422,
  'holder-tax-id-mismatch': 422,
  unsupported: 422,
  'rate-limit-exceeded': 429,
  'internal-error': 500,
  'not-implemented': 501,
  'service-unavailable': 503,
};

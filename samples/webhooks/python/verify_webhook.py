"""Verify a Ramp webhook delivery before trusting it.

X-Signature is ``sha256=<hex>``: HMAC-SHA256 over the RFC 8785 (JCS) canonical form of the
JSON body, keyed with the subscription secret decoded from base64url (44 characters, one
``=``, 32 bytes).
"""

import base64
import binascii
import hashlib
import hmac
import json
import re

import rfc8785

_SECRET = re.compile(r"[A-Za-z0-9_-]{43}=")
_SIGNATURE = re.compile(r"sha256=([0-9a-f]{64})")


class WebhookVerificationError(Exception):
    """``reason`` is one of invalid-secret, invalid-signature-header, invalid-body, signature-mismatch."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


def decode_secret(secret: str) -> bytes:
    """The 32-byte HMAC key of a subscription ``secret``, exactly as its creation returned it."""
    if not isinstance(secret, str) or not _SECRET.fullmatch(secret):
        raise WebhookVerificationError("invalid-secret", "the secret must be 44 base64url characters ending in =")
    key = base64.urlsafe_b64decode(secret)
    # Only the canonical encoding is a secret the API gave out (its last bits are zero).
    if base64.urlsafe_b64encode(key).decode("ascii") != secret:
        raise WebhookVerificationError("invalid-secret", "the secret is not a canonical base64url encoding")
    return key


def canonicalize(body: bytes) -> bytes:
    """The RFC 8785 form of a UTF-8 JSON text."""
    try:
        # To the signer every JSON number is an IEEE double (RFC 8785 section 3.2.2.3), so
        # integers are read as floats here: past 2**53 they round as they did when signed.
        value = json.loads(body.decode("utf-8"), parse_int=float)
    except (UnicodeDecodeError, ValueError) as error:
        raise WebhookVerificationError("invalid-body", f"the body is not UTF-8 JSON: {error}") from None
    try:
        return rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, UnicodeEncodeError) as error:
        raise WebhookVerificationError("invalid-body", f"the body has no RFC 8785 form: {error}") from None


def verify_webhook(body: bytes, signatures: list[str], secret: str) -> dict:
    """Returns the event of a delivery whose X-Signature matches; raises WebhookVerificationError otherwise.

    ``signatures`` is every X-Signature header of the request: exactly one is allowed.
    """
    key = decode_secret(secret)
    match = _SIGNATURE.fullmatch(signatures[0]) if len(signatures) == 1 else None
    if match is None:
        raise WebhookVerificationError("invalid-signature-header", "X-Signature must be one header sha256=<64 lowercase hex digits>")
    canonical = canonicalize(body)
    expected = hmac.new(key, canonical, hashlib.sha256).digest()
    if not hmac.compare_digest(expected, binascii.unhexlify(match.group(1))):
        raise WebhookVerificationError("signature-mismatch", "X-Signature does not match the body and secret")
    event = json.loads(body)
    if not isinstance(event, dict):
        raise WebhookVerificationError("invalid-body", "the body is not a JSON object")
    return event

// Package rampwebhook verifies Ramp webhook deliveries before they are trusted.
//
// X-Signature is "sha256=<hex>": HMAC-SHA256 over the RFC 8785 (JCS) canonical form of the
// JSON body, keyed with the subscription secret decoded from base64url (44 characters, one
// "=", 32 bytes).
package rampwebhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"

	"github.com/gowebpki/jcs"
)

// VerificationError says why a delivery was refused: Reason is one of invalid-secret,
// invalid-signature-header, invalid-body, signature-mismatch.
type VerificationError struct {
	Reason  string
	Message string
}

func (e *VerificationError) Error() string { return e.Reason + ": " + e.Message }

var (
	secretPattern    = regexp.MustCompile(`^[A-Za-z0-9_-]{43}=$`)
	signaturePattern = regexp.MustCompile(`^sha256=([0-9a-f]{64})$`)
)

// DecodeSecret returns the 32-byte HMAC key of a subscription secret, exactly as its creation returned it.
func DecodeSecret(secret string) ([]byte, error) {
	if !secretPattern.MatchString(secret) {
		return nil, &VerificationError{"invalid-secret", "the secret must be 44 base64url characters ending in ="}
	}
	// Strict: only the canonical encoding (zero trailing bits) is a secret the API gave out.
	key, err := base64.URLEncoding.Strict().DecodeString(secret)
	if err != nil || len(key) != 32 {
		return nil, &VerificationError{"invalid-secret", "the secret is not a canonical base64url encoding of 32 bytes"}
	}
	return key, nil
}

// Verify checks a delivery: body as received, every X-Signature header of the request
// (exactly one is allowed) and the subscription secret. Unmarshal the body only when it
// returns nil.
func Verify(body []byte, signatures []string, secret string) error {
	key, err := DecodeSecret(secret)
	if err != nil {
		return err
	}
	var match []string
	if len(signatures) == 1 {
		match = signaturePattern.FindStringSubmatch(signatures[0])
	}
	if match == nil {
		return &VerificationError{"invalid-signature-header", "X-Signature must be one header sha256=<64 lowercase hex digits>"}
	}
	canonical, err := jcs.Transform(body)
	if err != nil {
		return &VerificationError{"invalid-body", fmt.Sprintf("the body has no RFC 8785 form: %v", err)}
	}
	want, _ := hex.DecodeString(match[1])
	mac := hmac.New(sha256.New, key)
	mac.Write(canonical)
	if !hmac.Equal(mac.Sum(nil), want) {
		return &VerificationError{"signature-mismatch", "X-Signature does not match the body and secret"}
	}
	if canonical[0] != '{' {
		return &VerificationError{"invalid-body", "the body is not a JSON object"}
	}
	return nil
}

package com.example.ramp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.erdtman.jcs.JsonCanonicalizer;

/**
 * Verifies a Ramp webhook delivery before it is trusted. X-Signature is {@code sha256=<hex>}:
 * HMAC-SHA256 over the RFC 8785 (JCS) canonical form of the JSON body, keyed with the
 * subscription secret decoded from base64url (44 characters, one {@code =}, 32 bytes).
 */
public final class WebhookVerifier {
  private static final Pattern SECRET = Pattern.compile("[A-Za-z0-9_-]{43}=");
  private static final Pattern SIGNATURE = Pattern.compile("sha256=([0-9a-f]{64})");
  private static final ObjectMapper JSON = new ObjectMapper();

  private WebhookVerifier() {}

  /** Why a delivery was refused: invalid-secret, invalid-signature-header, invalid-body or signature-mismatch. */
  public static final class WebhookVerificationException extends Exception {
    private final String reason;

    WebhookVerificationException(String reason, String message) {
      super(message);
      this.reason = reason;
    }

    public String reason() {
      return reason;
    }
  }

  /** The 32-byte HMAC key of a subscription secret, exactly as its creation returned it. */
  public static byte[] decodeSecret(String secret) throws WebhookVerificationException {
    if (secret == null || !SECRET.matcher(secret).matches()) {
      throw new WebhookVerificationException("invalid-secret", "the secret must be 44 base64url characters ending in =");
    }
    byte[] key = Base64.getUrlDecoder().decode(secret);
    // Only the canonical encoding (zero trailing bits) is a secret the API gave out.
    if (!Base64.getUrlEncoder().encodeToString(key).equals(secret)) {
      throw new WebhookVerificationException("invalid-secret", "the secret is not a canonical base64url encoding");
    }
    return key;
  }

  /** The RFC 8785 bytes of a JSON text; refuses text that is not UTF-8 JSON or holds a lone surrogate. */
  public static byte[] canonicalize(byte[] body) throws WebhookVerificationException {
    try {
      String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
      String canonical = new JsonCanonicalizer(text).getEncodedString();
      // A strict encoder: the library would write a lone surrogate as "?", which RFC 8785 refuses.
      ByteBuffer bytes = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(canonical));
      byte[] out = new byte[bytes.remaining()];
      bytes.get(out);
      return out;
    } catch (IOException | RuntimeException e) {
      throw new WebhookVerificationException("invalid-body", "the body has no RFC 8785 form: " + e.getMessage());
    }
  }

  /**
   * Returns the event of a delivery whose X-Signature matches, or throws. {@code signatures} is
   * every X-Signature header of the request: exactly one is allowed.
   */
  public static JsonNode verify(byte[] body, List<String> signatures, String secret) throws WebhookVerificationException {
    byte[] key = decodeSecret(secret);
    Matcher match = signatures != null && signatures.size() == 1 ? SIGNATURE.matcher(signatures.get(0)) : null;
    if (match == null || !match.matches()) {
      throw new WebhookVerificationException("invalid-signature-header", "X-Signature must be one header sha256=<64 lowercase hex digits>");
    }
    byte[] canonical = canonicalize(body);
    byte[] actual;
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      actual = mac.doFinal(canonical);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
    if (!MessageDigest.isEqual(actual, HexFormat.of().parseHex(match.group(1)))) {
      throw new WebhookVerificationException("signature-mismatch", "X-Signature does not match the body and secret");
    }
    JsonNode event;
    try {
      event = JSON.readTree(body);
    } catch (IOException e) {
      throw new WebhookVerificationException("invalid-body", "the body is not JSON: " + e.getMessage());
    }
    if (event.isObject()) return event;
    throw new WebhookVerificationException("invalid-body", "the body is not a JSON object");
  }
}

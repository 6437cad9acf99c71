package com.example.ramp;

import com.example.ramp.WebhookVerifier.WebhookVerificationException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.erdtman.jcs.NumberToJSON;

/**
 * Checks the canonicalizer and WebhookVerifier against the shared vectors (test/vectors/jcs).
 *
 * <pre>java -cp … com.example.ramp.Vectors &lt;vectors folder&gt; &lt;cases.json&gt;</pre>
 *
 * cases.json (written by test/samples/webhooks.test.ts) holds the extra RFC 8785 cases as JSON
 * text and the secrets and X-Signature headers every recipe must refuse. Prints one line per
 * wrong result and a count; exits 1 when anything is wrong.
 */
public final class Vectors {
  private static int checks;
  private static int wrong;

  private static void check(String name, Object got, Object want) {
    checks++;
    if (!Objects.equals(got, want)) {
      wrong++;
      System.out.println("wrong " + name + ": " + got + " instead of " + want);
    }
  }

  private static String canonicalOrError(byte[] json) {
    try {
      return new String(WebhookVerifier.canonicalize(json), StandardCharsets.UTF_8);
    } catch (WebhookVerificationException e) {
      return "ERROR";
    }
  }

  private static String reason(byte[] body, List<String> signatures, String secret) {
    try {
      WebhookVerifier.verify(body, signatures, secret);
      return "verified";
    } catch (WebhookVerificationException e) {
      return e.reason();
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(item -> out.add(item.asText()));
    return out;
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    Path vectors = Path.of(args[0]);
    JsonNode cases = JSON.readTree(Files.readAllBytes(Path.of(args[1])));
    checkCanonical(vectors, cases);
    checkSignatures(vectors, cases);
    System.out.println("java vectors: " + checks + " checks, " + wrong + " wrong");
    System.exit(wrong == 0 ? 0 : 1);
  }

  /** The RFC 8785 reference inputs and outputs, the numbers, the extra cases. */
  private static void checkCanonical(Path vectors, JsonNode cases) throws Exception {
    try (var files = Files.list(vectors.resolve("input"))) {
      for (Path file : files.sorted().toList()) {
        String want = Files.readString(vectors.resolve("output").resolve(file.getFileName()));
        check("input/" + file.getFileName(), canonicalOrError(Files.readAllBytes(file)), want);
      }
    }
    try (var files = Files.list(vectors.resolve("numbers"))) {
      for (Path file : files.sorted().toList()) {
        for (String line : Files.readAllLines(file)) {
          if (line.isBlank()) continue;
          String[] parts = line.split(",", 2);
          double number = Double.longBitsToDouble(Long.parseUnsignedLong(parts[0], 16));
          String got;
          try {
            got = NumberToJSON.serializeNumber(number);
          } catch (java.io.IOException e) {
            got = "ERROR";
          }
          check("numbers/" + file.getFileName() + " " + parts[0], got, parts[1].startsWith("ERROR") ? "ERROR" : parts[1]);
        }
      }
    }
    for (JsonNode c : cases.get("extra")) {
      String text = c.get("json").asText();
      String got;
      if (text.startsWith("{") || text.startsWith("[")) {
        got = canonicalOrError(text.getBytes(StandardCharsets.UTF_8));
      } else {
        // The library reads only an object or an array at the top (a webhook body is always an
        // object): a lone value is checked as the one element of an array.
        got = canonicalOrError(("[" + text + "]").getBytes(StandardCharsets.UTF_8));
        if (!got.equals("ERROR")) got = got.substring(1, got.length() - 1);
      }
      check("extra " + c.get("name").asText(), got, c.get("expect").asText());
    }
  }

  /** The X-Signature vectors through verify, and what it must refuse. */
  private static void checkSignatures(Path vectors, JsonNode cases) throws Exception {
    JsonNode signatures = JSON.readTree(Files.readAllBytes(vectors.resolve("hmac-signature-vectors.json")));
    String secret = signatures.get("secret_b64url").asText() + "=";
    byte[] key = WebhookVerifier.decodeSecret(secret);
    check("secret decodes to the vector key", HexFormat.of().formatHex(key), signatures.get("key_hex").asText());
    byte[] frenchBody = null;
    String frenchHeader = null;
    for (JsonNode v : signatures.get("vectors")) {
      String file = v.get("file").asText();
      String header = v.get("header").asText();
      byte[] body = Files.readAllBytes(vectors.resolve(v.get("input").asText()));
      byte[] canonical = WebhookVerifier.canonicalize(body);
      check(file + " canonical", new String(canonical, StandardCharsets.UTF_8), v.get("canonical_utf8").asText());
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      check(file + " header", "sha256=" + HexFormat.of().formatHex(mac.doFinal(canonical)), header);
      boolean isObject = v.get("canonical_utf8").asText().startsWith("{");
      check(file + " verify", reason(body, List.of(header), secret), isObject ? "verified" : "invalid-body");
      if (isObject) {
        check(file + " verify returns the body", WebhookVerifier.verify(body, List.of(header), secret), JSON.readTree(body));
        String text = new String(body, StandardCharsets.UTF_8).strip();
        byte[] tampered = (text.substring(0, text.length() - 1) + ",\"tampered\":true}").getBytes(StandardCharsets.UTF_8);
        check(file + " tampered", reason(tampered, List.of(header), secret), "signature-mismatch");
      }
      if (file.equals("french.json")) {
        frenchBody = body;
        frenchHeader = header;
      }
    }
    for (JsonNode bad : cases.get("badSecrets")) {
      check("secret " + bad, reason(frenchBody, List.of(frenchHeader), bad.asText()), "invalid-secret");
    }
    for (JsonNode bad : cases.get("badHeaders")) {
      check("X-Signature " + bad, reason(frenchBody, strings(bad), secret), "invalid-signature-header");
    }
    check("a body that is not JSON", reason("{".getBytes(StandardCharsets.UTF_8), List.of(frenchHeader), secret), "invalid-body");
    check("a body that is not UTF-8", reason(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xff, '"', '}'}, List.of(frenchHeader), secret), "invalid-body");
  }
}

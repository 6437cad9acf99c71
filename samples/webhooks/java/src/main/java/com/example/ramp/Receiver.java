package com.example.ramp;

import com.example.ramp.WebhookVerifier.WebhookVerificationException;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * A webhook receiver: verifies each delivery, answers 204 (or 401 when it does not verify).
 *
 * <pre>RAMP_WEBHOOK_SECRET=&lt;the subscription's secret&gt; PORT=8000 java -cp … com.example.ramp.Receiver</pre>
 */
public final class Receiver {
  public static void main(String[] args) throws IOException {
    String secret = System.getenv("RAMP_WEBHOOK_SECRET");
    int port = Integer.parseInt(System.getenv().getOrDefault("PORT", "8000"));
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    server.createContext("/", exchange -> {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      List<String> signatures = exchange.getRequestHeaders().getOrDefault("X-Signature", List.of());
      int status;
      try {
        JsonNode event = WebhookVerifier.verify(body, signatures, secret);
        // A v2 event is an envelope {event, eventId, …}; a v1 event has one key, its type.
        // Deliveries are retried with the same eventId: deduplicate on it before acting.
        String name = event.has("event") ? event.get("event").asText() : event.fieldNames().next();
        System.out.println(("verified " + name + " " + event.path("eventId").asText("")).strip());
        status = 204;
      } catch (WebhookVerificationException e) {
        System.out.println("refused " + e.reason());
        status = 401;
      }
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
    });
    server.start();
    System.out.println("listening on http://127.0.0.1:" + server.getAddress().getPort());
  }
}

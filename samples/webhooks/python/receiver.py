"""A webhook receiver: verifies each delivery, answers 204 (or 401 when it does not verify).

    RAMP_WEBHOOK_SECRET=<the subscription's secret> PORT=8000 python receiver.py
"""

import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from verify_webhook import WebhookVerificationError, verify_webhook

SECRET = os.environ["RAMP_WEBHOOK_SECRET"]


class WebhookHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            event = verify_webhook(body, self.headers.get_all("X-Signature", []), SECRET)
        except WebhookVerificationError as error:
            print(f"refused {error.reason}", flush=True)
            self.send_response(401)
            self.end_headers()
            return
        # A v2 event is an envelope {event, eventId, …}; a v1 event has one key, its type.
        # Deliveries are retried with the same eventId: deduplicate on it before acting.
        name = event.get("event") or next(iter(event), "")
        print(f"verified {name} {event.get('eventId', '')}".rstrip(), flush=True)
        self.send_response(204)
        self.end_headers()

    def log_message(self, format, *args):
        pass


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8000"))), WebhookHandler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()

// A webhook receiver: verifies each delivery, answers 204 (or 401 when it does not verify).
//
//	RAMP_WEBHOOK_SECRET=<the subscription's secret> PORT=8000 go run ./cmd/receiver
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"

	"example.com/rampwebhook"
)

func main() {
	secret := os.Getenv("RAMP_WEBHOOK_SECRET")
	port := os.Getenv("PORT")
	if port == "" {
		port = "8000"
	}
	http.HandleFunc("POST /", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		if err := rampwebhook.Verify(body, r.Header.Values("X-Signature"), secret); err != nil {
			var refused *rampwebhook.VerificationError
			if errors.As(err, &refused) {
				fmt.Println("refused", refused.Reason)
			}
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		// A v2 event is an envelope {event, eventId, …}; a v1 event has one key, its type.
		// Deliveries are retried with the same eventId: deduplicate on it before acting.
		var event map[string]json.RawMessage
		_ = json.Unmarshal(body, &event)
		var name, eventID string
		if json.Unmarshal(event["event"], &name) != nil {
			for key := range event {
				name = key
			}
		}
		_ = json.Unmarshal(event["eventId"], &eventID)
		if eventID == "" {
			fmt.Println("verified", name)
		} else {
			fmt.Println("verified", name, eventID)
		}
		w.WriteHeader(http.StatusNoContent)
	})
	listener, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening on http://%s\n", listener.Addr())
	log.Fatal(http.Serve(listener, nil))
}

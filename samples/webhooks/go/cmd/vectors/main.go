// Checks jcs and rampwebhook.Verify against the shared vectors (test/vectors/jcs).
//
//	go run ./cmd/vectors <vectors folder> <cases.json>
//
// cases.json (written by test/samples/webhooks.test.ts) holds the extra RFC 8785 cases as JSON
// text and the secrets and X-Signature headers every recipe must refuse. Prints one line per
// wrong result and a count; exits 1 when anything is wrong.
package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"example.com/rampwebhook"
	"github.com/gowebpki/jcs"
)

var checks, wrong int

func check(name, got, want string) {
	checks++
	if got != want {
		wrong++
		fmt.Printf("wrong %s: %q instead of %q\n", name, got, want)
	}
}

func must[T any](value T, err error) T {
	if err != nil {
		panic(err)
	}
	return value
}

func canonicalOrError(text []byte) string {
	canonical, err := jcs.Transform(text)
	if err != nil {
		return "ERROR"
	}
	return string(canonical)
}

func reason(body []byte, signatures []string, secret string) string {
	var refused *rampwebhook.VerificationError
	if err := rampwebhook.Verify(body, signatures, secret); errors.As(err, &refused) {
		return refused.Reason
	} else if err != nil {
		return err.Error()
	}
	return "verified"
}

type cases struct {
	Extra      []struct{ Name, JSON, Expect string }
	BadSecrets []string
	BadHeaders [][]string
}

func main() {
	vectors := os.Args[1]
	read := func(parts ...string) []byte {
		return must(os.ReadFile(filepath.Join(append([]string{vectors}, parts...)...)))
	}
	var c cases
	must(0, json.Unmarshal(must(os.ReadFile(os.Args[2])), &c))
	checkCanonical(vectors, read, c)
	checkSignatures(read, c)
	fmt.Printf("go vectors: %d checks, %d wrong\n", checks, wrong)
	if wrong > 0 {
		os.Exit(1)
	}
}

// checkCanonical: the RFC 8785 reference inputs and outputs, the numbers, the extra cases.
func checkCanonical(vectors string, read func(...string) []byte, c cases) {
	for _, entry := range must(os.ReadDir(filepath.Join(vectors, "input"))) {
		check("input/"+entry.Name(), canonicalOrError(read("input", entry.Name())), string(read("output", entry.Name())))
	}
	for _, entry := range must(os.ReadDir(filepath.Join(vectors, "numbers"))) {
		for _, line := range strings.Split(string(read("numbers", entry.Name())), "\n") {
			bits, expected, found := strings.Cut(strings.TrimSpace(line), ",")
			if !found {
				continue
			}
			number := math.Float64frombits(must(strconv.ParseUint(bits, 16, 64)))
			got, err := jcs.NumberToJSON(number)
			if err != nil {
				got = "ERROR"
			}
			if strings.HasPrefix(expected, "ERROR") {
				expected = "ERROR"
			}
			check("numbers/"+entry.Name()+" "+bits, got, expected)
		}
	}
	for _, e := range c.Extra {
		check("extra "+e.Name, canonicalOrError([]byte(e.JSON)), e.Expect)
	}
}

// checkSignatures: the X-Signature vectors through Verify, and what it must refuse.
func checkSignatures(read func(...string) []byte, c cases) {
	var signatures struct {
		SecretB64url string `json:"secret_b64url"`
		KeyHex       string `json:"key_hex"`
		Vectors      []struct {
			File, Input, Header string
			CanonicalUTF8       string `json:"canonical_utf8"`
		}
	}
	must(0, json.Unmarshal(read("hmac-signature-vectors.json"), &signatures))
	secret := signatures.SecretB64url + "="
	key := must(rampwebhook.DecodeSecret(secret))
	check("secret decodes to the vector key", hex.EncodeToString(key), signatures.KeyHex)
	var frenchBody []byte
	var frenchHeader string
	for _, v := range signatures.Vectors {
		body := read(v.Input)
		canonical := must(jcs.Transform(body))
		check(v.File+" canonical", string(canonical), v.CanonicalUTF8)
		mac := hmac.New(sha256.New, key)
		mac.Write(canonical)
		check(v.File+" header", "sha256="+hex.EncodeToString(mac.Sum(nil)), v.Header)
		want := "invalid-body"
		if strings.HasPrefix(v.CanonicalUTF8, "{") {
			want = "verified"
			tampered := bytes.Join([][]byte{bytes.TrimSuffix(bytes.TrimSpace(body), []byte("}")), []byte(`,"tampered":true}`)}, nil)
			check(v.File+" tampered", reason(tampered, []string{v.Header}, secret), "signature-mismatch")
		}
		check(v.File+" verify", reason(body, []string{v.Header}, secret), want)
		if v.File == "french.json" {
			frenchBody, frenchHeader = body, v.Header
		}
	}
	for _, bad := range c.BadSecrets {
		check(fmt.Sprintf("secret %q", bad), reason(frenchBody, []string{frenchHeader}, bad), "invalid-secret")
	}
	for _, bad := range c.BadHeaders {
		check(fmt.Sprintf("X-Signature %q", bad), reason(frenchBody, bad, secret), "invalid-signature-header")
	}
	check("a body that is not JSON", reason([]byte("{"), []string{frenchHeader}, secret), "invalid-body")
	check("a body that is not UTF-8", reason([]byte("{\"a\":\"\xff\"}"), []string{frenchHeader}, secret), "invalid-body")
}

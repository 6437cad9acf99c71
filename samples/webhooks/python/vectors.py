"""Checks rfc8785 and verify_webhook against the shared vectors (test/vectors/jcs).

    python vectors.py <vectors folder> <cases.json>

cases.json (written by test/samples/webhooks.test.ts) holds the extra RFC 8785 cases as JSON
text and the secrets and X-Signature headers every recipe must refuse. Prints one line per
wrong result and a count; exits 1 when anything is wrong.
"""

import hashlib
import hmac
import json
import struct
import sys
from pathlib import Path

import rfc8785

from verify_webhook import WebhookVerificationError, canonicalize, decode_secret, verify_webhook

vectors, cases = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text("utf-8"))
checks, wrong = 0, 0


def check(name: str, got, want):
    global checks, wrong
    checks += 1
    if got != want:
        wrong += 1
        print(f"wrong {name}: {got!r} instead of {want!r}")


def canonical_or_error(number: float) -> str:
    try:
        return rfc8785.dumps(number).decode("utf-8")
    except rfc8785.CanonicalizationError:
        return "ERROR"


def canonical_text_or_error(text: str) -> str:
    try:
        return canonicalize(text.encode("utf-8")).decode("utf-8")
    except WebhookVerificationError:
        return "ERROR"


def reason(body: bytes, signatures: list[str], secret: str) -> str:
    try:
        verify_webhook(body, signatures, secret)
        return "verified"
    except WebhookVerificationError as error:
        return error.reason


for file in sorted((vectors / "input").iterdir()):
    check(f"input/{file.name}", canonicalize(file.read_bytes()), (vectors / "output" / file.name).read_bytes())

for file in sorted((vectors / "numbers").iterdir()):
    for line in file.read_text("utf-8").splitlines():
        if line.strip():
            bits, expected = line.split(",", 1)
            number = struct.unpack(">d", bytes.fromhex(bits.rjust(16, "0")))[0]
            check(f"numbers/{file.name} {bits}", canonical_or_error(number), "ERROR" if expected.startswith("ERROR") else expected)

for case in cases["extra"]:
    check(f"extra {case['name']}", canonical_text_or_error(case["json"]), case["expect"])

signatures = json.loads((vectors / "hmac-signature-vectors.json").read_text("utf-8"))
secret = signatures["secret_b64url"] + "="
key = decode_secret(secret)
check("secret decodes to the vector key", key.hex(), signatures["key_hex"])
for vector in signatures["vectors"]:
    body = (vectors / vector["input"]).read_bytes()
    canonical = canonicalize(body)
    check(f"{vector['file']} canonical", canonical.decode("utf-8"), vector["canonical_utf8"])
    check(f"{vector['file']} header", "sha256=" + hmac.new(key, canonical, hashlib.sha256).hexdigest(), vector["header"])
    is_object = vector["canonical_utf8"].startswith("{")
    check(f"{vector['file']} verify", reason(body, [vector["header"]], secret), "verified" if is_object else "invalid-body")
    if is_object:
        check(f"{vector['file']} verify returns the body", verify_webhook(body, [vector["header"]], secret), json.loads(body))
        tampered = json.dumps({**json.loads(body), "tampered": True}).encode("utf-8")
        check(f"{vector['file']} tampered", reason(tampered, [vector["header"]], secret), "signature-mismatch")

french = next(v for v in signatures["vectors"] if v["file"] == "french.json")
body, header = (vectors / french["input"]).read_bytes(), french["header"]
for bad in cases["badSecrets"]:
    check(f"secret {bad!r}", reason(body, [header], bad), "invalid-secret")
for bad in cases["badHeaders"]:
    check(f"X-Signature {bad!r}", reason(body, bad, secret), "invalid-signature-header")
check("a body that is not JSON", reason(b"{", [header], secret), "invalid-body")
check("a body that is not UTF-8", reason(b'{"a":"\xff"}', [header], secret), "invalid-body")

print(f"python vectors: {checks} checks, {wrong} wrong")
sys.exit(1 if wrong else 0)

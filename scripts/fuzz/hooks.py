"""Schemathesis hooks of `npm run test:fuzz` (session.ts loads this file through SCHEMATHESIS_HOOKS).

1. The world's requests. world.ts gives every operation that documents a 2xx at least one
   request it answers with a 2xx, with a resource of its own in the state the operation needs
   (an order waiting for its signature, a key to revoke, an order the simulated action applies
   to). They join the operation's explicit examples, in the examples phase, which runs before
   every generating phase. With a time budget (CI's --max-time), each operation gets a share
   of the phase's time, and once its share is spent Schemathesis stops collecting that
   operation's cases after the first and stops sending them after the first it sends; it
   sends the collected cases last-in first-out. So the first world request goes both at the
   head of the list (the case collected first) and at its tail (the case sent first when all
   were collected), the others after the head: however short the share, the first request
   Schemathesis sends for the operation is a world request. When the share allows more, the
   contract's own examples follow, then the world's requests again (a documented answer such
   as 404 or 409 where the first one used the resource up; setJwtIssuer's registers the
   world's issuer again after the contract's example registered another). schemathesis.toml
   has the examples phase draw nothing from earlier answers, so no request before them can use
   their resources up. Schemathesis checks their answers like any other: each operation's 2xx
   no longer depends on what the generators happen to draw in the time a busy machine leaves
   them. And no case may revoke the key Schemathesis sends (`filter_case`).

2. NUL. Every string a request carries must be free of U+0000 (and well-formed Unicode, which
   Schemathesis never breaks), names and values alike, else the surface's documented 400
   (server/shared/requestLimits.ts; the rule is in each surface's description). The schemas do
   not say it (a pattern on every string, `propertyNames` on every open object), so a generated
   string with a NUL is "valid data" to Schemathesis and `positive_data_acceptance` fails its
   refusal. Here, a request that carries a NUL anywhere must be refused with a 400
   (`nul_refused`, stricter than before: a 2xx fails it), and that 400 is then not a
   `positive_data_acceptance` failure (`filter_failure` drops exactly that failure, and
   Schemathesis counts what it drops). Every other case is judged by the unchanged check: a
   valid case without a NUL that gets a 400 still fails. The answer's format is checked by the
   conformance checks, as every answer's is.

   What is judged is the request as sent, not the generated case: a form body cannot carry an
   object member, and Schemathesis leaves such a member out, so a NUL in its name never
   reaches the server (a 200 to POST /auth/launch failed the check that way).

3. Links' bodies. A link that sends the next operation a body (quote -> order,
   `{"quoteId": ...}`) gives it as `x-request-body`, not as the Link Object's `requestBody`,
   which openapi-generator's validator refuses unless it is a string (openapi/README.md).
   `before_load_schema` gives it back to Schemathesis as `requestBody`, so the stateful phase
   still follows the link with its body.
"""

from __future__ import annotations

import json
import os
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import schemathesis
from schemathesis.generation.hypothesis.examples import generate_one
from schemathesis.generation.meta import TestPhase
from schemathesis.openapi.checks import RejectedPositiveData

# operationId -> the world's requests (world.ts ExampleRequest), written by session.ts.
_EXAMPLES: dict[str, list[dict[str, Any]]] = {}
if os.environ.get("RAMP_FUZZ_EXAMPLES"):
    with open(os.environ["RAMP_FUZZ_EXAMPLES"], encoding="utf-8") as file:
        _EXAMPLES = json.load(file)


@schemathesis.hook
def before_add_examples(context, examples):
    operation = context.operation
    requests = _EXAMPLES.get(operation.definition.raw.get("operationId"), [])
    if not requests:
        return
    examples[0:0] = [_case(operation, request) for request in requests]
    examples.append(_case(operation, requests[0]))


@schemathesis.hook
def before_load_schema(context, raw_schema):
    restore_link_bodies(raw_schema)


def restore_link_bodies(document: dict[str, Any]) -> None:
    """Each link's `x-request-body` becomes its `requestBody` (point 3 above)."""
    for item in (document.get("paths") or {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for response in (operation.get("responses") or {}).values():
                for link in ((response or {}).get("links") or {}).values():
                    if isinstance(link, dict) and "x-request-body" in link:
                        link["requestBody"] = link.pop("x-request-body")


def _case(operation, request: dict[str, Any]):
    kwargs: dict[str, Any] = {
        "phase": TestPhase.EXAMPLES,
        "path_parameters": request.get("path", {}),
        "query": request.get("query", {}),
    }
    if "body" in request:
        kwargs["body"] = request["body"]
        kwargs["media_type"] = request["mediaType"]
    # The simplest case of the strategy: exactly these values, optional ones left out.
    return generate_one(operation.as_strategy(**kwargs))


@schemathesis.hook
def filter_case(context, case):
    """Never revoke the key Schemathesis sends (the partner's seed key): the rest of the run would be 401."""
    if context.operation.definition.raw.get("operationId") != "deleteApiKey":
        return True
    own = os.environ.get("RAMP_FUZZ_OWN_KEY_ID", "")
    return str((case.path_parameters or {}).get("id", "")).lower() != own.lower()


def _carries_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, bytes):
        return b"\x00" in value
    if isinstance(value, dict):
        return any(_carries_nul(k) or _carries_nul(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_carries_nul(v) for v in value)
    return False


def request_carries_nul(request) -> bool:
    """A NUL in the request as sent (a requests.PreparedRequest): its path or query once
    percent-decoded, a header, or its body as the server reads its media type (names or
    values; a form's pairs without a name are dropped)."""
    url = urlsplit(request.url)
    if "\x00" in unquote(url.path) or any(_carries_nul(pair) for pair in parse_qsl(url.query, keep_blank_values=True)):
        return True
    if any(_carries_nul(name) or _carries_nul(value) for name, value in (request.headers or {}).items()):
        return True
    body = request.body
    if body is None:
        return False
    # Undecodable bytes become U+FFFD: decoding keeps a NUL byte a NUL and never makes one.
    text = body if isinstance(body, str) else bytes(body).decode("utf-8", "replace")
    media_type = str((request.headers or {}).get("Content-Type", "")).split(";")[0].strip().lower()
    if media_type == "application/json" or media_type.endswith("+json"):
        try:
            return _carries_nul(json.loads(text))
        except ValueError:
            pass  # Not JSON at all (the negative phase's bodies): its text as sent.
    if media_type == "application/x-www-form-urlencoded":
        # The server's form parser (body-parser) drops a pair without a name, value and all.
        return any(_carries_nul(pair) for pair in parse_qsl(text, keep_blank_values=True) if pair[0])
    return "\x00" in text


@schemathesis.check
def nul_refused(ctx, response, case):
    """A valid-looking request that carries a NUL is refused with the surface's 400."""
    if case.meta is None or not case.meta.generation.mode.is_positive or not request_carries_nul(response.request):
        return None
    if response.status_code != 400:
        raise AssertionError(
            f"A request carrying a NUL (U+0000) must be refused with 400 (server/shared/requestLimits.ts); got {response.status_code}"
        )
    return None


@schemathesis.hook
def filter_failure(context, failure, case, response):
    """Keep every failure but positive_data_acceptance's on a NUL case refused with 400 (nul_refused judges those)."""
    return not (isinstance(failure, RejectedPositiveData) and response.status_code == 400 and request_carries_nul(response.request))

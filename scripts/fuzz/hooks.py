"""Schemathesis hooks of `npm run test:fuzz` (session.ts loads this file through SCHEMATHESIS_HOOKS).

1. The world's requests. world.ts gives every operation that documents a 2xx at least one
   request it answers with a 2xx, with a resource of its own in the state the operation needs
   (an order waiting for its signature, a key to revoke, an order the simulated action applies
   to). They join the operation's explicit examples, in the examples phase, which runs before
   every generating phase. Put at the head of the list, they are the cases Schemathesis
   collects first (a time share that runs out while collecting keeps the cases collected) and,
   since it sends explicit examples last-in first-out, sends after the contract's own examples
   of the operation (so setJwtIssuer's, which registers the world's issuer again, comes after
   the contract's example that registers another one). schemathesis.toml has the examples
   phase draw nothing from earlier answers, so no request before them can use their resources
   up. Schemathesis sends each one and runs every check on its answer, as on any example: the
   run's 2xx on each operation no longer depends on what the generators happen to draw in the
   time a busy machine leaves them. And no case may revoke the key Schemathesis sends
   (`filter_case`).
"""

from __future__ import annotations

import json
import os
from typing import Any

import schemathesis
from schemathesis.generation.hypothesis.examples import generate_one
from schemathesis.generation.meta import TestPhase

# operationId -> the world's requests (world.ts ExampleRequest), written by session.ts.
_EXAMPLES: dict[str, list[dict[str, Any]]] = {}
if os.environ.get("RAMP_FUZZ_EXAMPLES"):
    with open(os.environ["RAMP_FUZZ_EXAMPLES"], encoding="utf-8") as file:
        _EXAMPLES = json.load(file)


@schemathesis.hook
def before_add_examples(context, examples):
    operation = context.operation
    requests = _EXAMPLES.get(operation.definition.raw.get("operationId"), [])
    cases = []
    for request in requests:
        kwargs: dict[str, Any] = {
            "phase": TestPhase.EXAMPLES,
            "path_parameters": request.get("path", {}),
            "query": request.get("query", {}),
        }
        if "body" in request:
            kwargs["body"] = request["body"]
            kwargs["media_type"] = request["mediaType"]
        # The simplest case of the strategy: exactly these values, optional ones left out.
        cases.append(generate_one(operation.as_strategy(**kwargs)))
    examples[0:0] = cases


@schemathesis.hook
def filter_case(context, case):
    """Never revoke the key Schemathesis sends (the partner's seed key): the rest of the run would be 401."""
    if context.operation.definition.raw.get("operationId") != "deleteApiKey":
        return True
    own = os.environ.get("RAMP_FUZZ_OWN_KEY_ID", "")
    return str((case.path_parameters or {}).get("id", "")).lower() != own.lower()

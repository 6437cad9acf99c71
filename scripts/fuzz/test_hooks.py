"""Tests of hooks.py, run by session.ts with the pinned Schemathesis before every fuzz run.

Each test gives the hooks real Schemathesis cases of a small document.
"""

import importlib.util
import os
import unittest

import schemathesis
from schemathesis.generation.hypothesis.examples import generate_one
from schemathesis.generation.meta import TestPhase

spec = importlib.util.spec_from_file_location("ramp_fuzz_hooks", os.path.join(os.path.dirname(__file__), "hooks.py"))
hooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hooks)

SCHEMA = schemathesis.openapi.from_dict(
    {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/things/{id}": {
                "put": {
                    "operationId": "putThing",
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                        {"name": "q", "in": "query", "schema": {"type": "string"}},
                    ],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {"type": "object", "additionalProperties": True}}},
                    },
                    "responses": {"200": {"description": "ok"}, "400": {"description": "refused"}},
                }
            }
        },
    },
    # Not the schemathesis.toml beside this file: that one is the fuzz run's.
    config=schemathesis.Config(),
)
OPERATION = SCHEMA["/things/{id}"]["PUT"]


def positive_case(path_id="a", body=None, query=None):
    strategy = OPERATION.as_strategy(
        phase=TestPhase.FUZZING, path_parameters={"id": path_id}, query=query or {}, body=body if body is not None else {"name": "x"}, media_type="application/json"
    )
    return generate_one(strategy)


class OwnKey(unittest.TestCase):
    def test_no_case_revokes_the_key_schemathesis_sends(self):
        os.environ["RAMP_FUZZ_OWN_KEY_ID"] = "ABC"
        delete = type("Op", (), {"definition": type("D", (), {"raw": {"operationId": "deleteApiKey"}})()})()
        other = type("Op", (), {"definition": type("D", (), {"raw": {"operationId": "getApiKey"}})()})()
        context = type("Ctx", (), {"operation": delete})()
        self.assertFalse(hooks.filter_case(context, positive_case(path_id="abc")))
        self.assertTrue(hooks.filter_case(context, positive_case(path_id="abd")))
        self.assertTrue(hooks.filter_case(type("Ctx", (), {"operation": other})(), positive_case(path_id="abc")))


if __name__ == "__main__":
    unittest.main()

"""Tests of hooks.py, run by session.ts with the pinned Schemathesis before every fuzz run.

The NUL rule replaces positive_data_acceptance's verdict on one kind of case only: a request
that carried a NUL and was answered 400. Everything else keeps the check's verdict, and a NUL
request must be refused. Each test gives the hooks real Schemathesis cases of a small document,
and the requests Schemathesis's transport makes of them.
"""

import importlib.util
import os
import unittest

import requests
import schemathesis
from schemathesis.generation.hypothesis.examples import generate_one
from schemathesis.generation.meta import TestPhase
from schemathesis.openapi.checks import RejectedPositiveData, UndefinedStatusCode

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
            },
            "/forms": {
                "post": {
                    "operationId": "postForm",
                    "requestBody": {
                        "required": True,
                        "content": {"application/x-www-form-urlencoded": {"schema": {"type": "object", "additionalProperties": True}}},
                    },
                    "responses": {"200": {"description": "ok"}, "400": {"description": "refused"}},
                }
            },
        },
    },
    # Not the schemathesis.toml beside this file: that one is the fuzz run's.
    config=schemathesis.Config(),
)
OPERATION = SCHEMA["/things/{id}"]["PUT"]
FORM = SCHEMA["/forms"]["POST"]
# The arguments of requests.Request among those Schemathesis's transport gives a session.
REQUEST_ARGUMENTS = ("method", "url", "headers", "params", "data", "json", "cookies", "files")


def sent(case):
    """The request Schemathesis's transport sends for the case."""
    kwargs = case.as_transport_kwargs(base_url="http://127.0.0.1:3000")
    return requests.Request(**{k: v for k, v in kwargs.items() if k in REQUEST_ARGUMENTS}).prepare()


class Answer:
    """What the hooks read of a response: its status and the request it answered."""

    def __init__(self, status_code, case):
        self.status_code = status_code
        self.request = sent(case)


def positive_case(path_id="a", body=None, query=None):
    strategy = OPERATION.as_strategy(
        phase=TestPhase.FUZZING, path_parameters={"id": path_id}, query=query or {}, body=body if body is not None else {"name": "x"}, media_type="application/json"
    )
    return generate_one(strategy)


def form_case(body):
    return generate_one(FORM.as_strategy(phase=TestPhase.FUZZING, body=body, media_type="application/x-www-form-urlencoded"))


def carries_nul(case):
    return hooks.request_carries_nul(sent(case))


def rejected(status):
    return RejectedPositiveData(operation=OPERATION.label, message="Valid data should have been accepted", status_code=status, allowed_statuses=["2xx"])


def kept(failure, case, status):
    return hooks.filter_failure(None, failure, case, Answer(status, case))


class NulRule(unittest.TestCase):
    def test_a_request_carries_a_nul_in_a_value_a_name_or_a_parameter(self):
        self.assertTrue(carries_nul(positive_case(body={"name": "a\x00b"})))
        self.assertTrue(carries_nul(positive_case(body={"a\x00": 1})))
        self.assertTrue(carries_nul(positive_case(body={"list": [{"deep": "\x00"}]})))
        self.assertTrue(carries_nul(positive_case(path_id="a\x00")))
        self.assertTrue(carries_nul(positive_case(query={"q": "a\x00"})))
        self.assertTrue(carries_nul(form_case({"target": "a\x00b"})))
        self.assertTrue(carries_nul(form_case({"a\x00": "b"})))
        self.assertFalse(carries_nul(positive_case(body={"name": "a0b", "n": 0})))
        # The text `%00` is a NUL only in the path, which Schemathesis sends as it holds it
        # (a valid escape stays one); a query or body value is encoded (`%2500`), and the text
        # `\u0000` in a JSON string is six characters.
        self.assertTrue(carries_nul(positive_case(path_id="%00")))
        self.assertFalse(carries_nul(positive_case(path_id="%2500", query={"q": "%00"}, body={"%00": "%00", "text": "\\u0000"})))
        self.assertFalse(carries_nul(form_case({"%00": "%00"})))

    def test_a_nul_the_transport_leaves_out_is_not_sent(self):
        # A form body cannot carry an object member: Schemathesis leaves it out, name and all
        # (POST /auth/launch answered such a case 200, rightly, and the check failed it).
        case = form_case({"\x99\x00": {}, "target": "/offramp"})
        self.assertNotIn("%00", sent(case).body)
        self.assertFalse(carries_nul(case))
        self.assertIsNone(hooks.nul_refused(None, Answer(200, case), case))
        self.assertTrue(kept(rejected(400), case, 400))

    def test_a_nul_the_server_reads_nowhere_is_not_judged(self):
        # A form pair without a name is dropped by the server's parser, its NUL value with it
        # (POST /auth/token answered such a case 200, rightly, and the check failed it).
        case = form_case({"": "\x00", "grant_type": "refresh_token"})
        self.assertIn("=%00", sent(case).body)
        self.assertFalse(carries_nul(case))
        self.assertIsNone(hooks.nul_refused(None, Answer(200, case), case))

    def test_a_nul_case_refused_with_400_passes(self):
        case = positive_case(body={"a\x00": 1})
        self.assertFalse(kept(rejected(400), case, 400))
        self.assertIsNone(hooks.nul_refused(None, Answer(400, case), case))

    def test_a_valid_case_without_a_nul_refused_with_400_still_fails(self):
        case = positive_case(body={"name": "plain"})
        self.assertTrue(kept(rejected(400), case, 400))

    def test_a_nul_case_accepted_or_refused_otherwise_fails(self):
        for case in (positive_case(body={"name": "a\x00b"}), form_case({"target": "a\x00b"})):
            for status in (200, 404, 500):
                with self.assertRaises(AssertionError):
                    hooks.nul_refused(None, Answer(status, case), case)
                self.assertTrue(kept(rejected(status), case, status))

    def test_other_checks_failures_on_a_nul_case_are_kept(self):
        case = positive_case(body={"name": "a\x00b"})
        failure = UndefinedStatusCode(operation=OPERATION.label, status_code=400, defined_status_codes=["200"], allowed_status_codes=[200], message="Undocumented")
        self.assertTrue(kept(failure, case, 400))


class WorldRequests(unittest.TestCase):
    def test_the_first_request_sent_is_a_world_request_however_short_the_time_share(self):
        hooks._EXAMPLES["putThing"] = [{"path": {"id": "w1"}, "body": {"n": 1}, "mediaType": "application/json"}, {"path": {"id": "w2"}}]
        contract = [positive_case(path_id="contract-1"), positive_case(path_id="contract-2")]
        examples = list(contract)
        hooks.before_add_examples(type("Ctx", (), {"operation": OPERATION})(), examples)
        ids = [case.path_parameters["id"] for case in examples]
        self.assertEqual(ids, ["w1", "w2", "contract-1", "contract-2", "w1"])
        self.assertEqual(examples[0].body, {"n": 1})
        self.assertEqual(examples[0].meta.phase.name, "examples")
        # Schemathesis sends what it collected last-in first-out; a spent share collects only the first.
        for collected in (examples, examples[:1]):
            self.assertEqual(collected[-1].path_parameters["id"], "w1")

    def test_an_operation_without_world_requests_keeps_its_examples(self):
        hooks._EXAMPLES.pop("putThing", None)
        examples = [positive_case(path_id="contract-1")]
        hooks.before_add_examples(type("Ctx", (), {"operation": OPERATION})(), examples)
        self.assertEqual([case.path_parameters["id"] for case in examples], ["contract-1"])


class OwnKey(unittest.TestCase):
    def test_no_case_revokes_the_key_schemathesis_sends(self):
        os.environ["RAMP_FUZZ_OWN_KEY_ID"] = "ABC"
        delete = type("Op", (), {"definition": type("D", (), {"raw": {"operationId": "deleteApiKey"}})()})()
        other = type("Op", (), {"definition": type("D", (), {"raw": {"operationId": "getApiKey"}})()})()
        context = type("Ctx", (), {"operation": delete})()
        self.assertFalse(hooks.filter_case(context, positive_case(path_id="abc")))
        self.assertTrue(hooks.filter_case(context, positive_case(path_id="abd")))
        self.assertTrue(hooks.filter_case(type("Ctx", (), {"operation": other})(), positive_case(path_id="abc")))


class LinkBodies(unittest.TestCase):
    def test_a_links_x_request_body_reaches_schemathesis_as_its_request_body(self):
        body = {"quoteId": "$response.body#/quoteId"}
        document = {
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "paths": {
                "/quotes": {
                    "post": {
                        "operationId": "createQuote",
                        "responses": {"201": {"description": "ok", "links": {"CreateOrder": {"operationId": "createOrder", "x-request-body": body}}}},
                    }
                },
                "/orders": {"post": {"operationId": "createOrder", "responses": {"201": {"description": "ok"}}}},
            },
        }
        schema = schemathesis.openapi.from_dict(document, config=schemathesis.Config())
        link = schema.raw_schema["paths"]["/quotes"]["post"]["responses"]["201"]["links"]["CreateOrder"]
        self.assertEqual(link, {"operationId": "createOrder", "requestBody": body})


if __name__ == "__main__":
    unittest.main()

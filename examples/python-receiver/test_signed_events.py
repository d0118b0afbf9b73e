"""The receiver's verification against every signed example of @dcbkit/sandbox/signed-events.json,
as a partner's unit test: python3 -m unittest test_signed_events (SIGNED_EVENTS=path/to/the/file)."""

import json
import os
import unittest

from receiver import signature_is_valid

FIXTURES = os.environ.get("SIGNED_EVENTS", "signed-events.json")


class SignedEvents(unittest.TestCase):
    def setUp(self):
        with open(FIXTURES, encoding="utf-8") as file:
            self.fixtures = json.load(file)

    def test_every_genuine_event_verifies(self):
        for example in self.fixtures["events"]:
            with self.subTest(example["event"]):
                raw_body = example["rawBody"].encode()
                self.assertTrue(
                    signature_is_valid(raw_body, example["serviceSignature"], self.fixtures["secret"], self.fixtures["signedAt"])
                )

    def test_every_forged_or_stale_event_is_refused(self):
        for example in self.fixtures["mustRefuse"]:
            with self.subTest(example["why"]):
                raw_body = example["rawBody"].encode()
                self.assertFalse(
                    signature_is_valid(raw_body, example["serviceSignature"], self.fixtures["secret"], example["verifyAt"])
                )


if __name__ == "__main__":
    unittest.main()

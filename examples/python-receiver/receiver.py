"""A carrier-billing webhook receiver in Python 3, standard library only.

Verifies on the raw body, de-duplicates, applies grant and revoke in an order that does not depend
on delivery order, and answers access: the rules of dcbkit's docs/entitlements.md ("Access rules"),
cut to what a receiver without the service's API needs.

    DCB_WEBHOOK_SECRET=... python3 receiver.py --port 8000

Routes: POST /webhooks/dcb, GET /access?account=&product=, POST /spend?account=&product=.
RECEIVER_FLAW (tests only): reserialized-body or no-dedupe, the two classic mistakes.
"""

import argparse
import hashlib
import hmac
import json
import os
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

SIGNATURE_TOLERANCE_SECONDS = 300

# The offers configured in the service's console, as this receiver needs them: the sandbox's
# default offers (@dcbkit/sandbox's default-config.json). `unitAccessSeconds` is the partner's own:
# how long a pass gives access once used (a day).
OFFERS = {
    "offer_premium_monthly": {"type": "SUBSCRIPTION", "trialDays": 7, "graceDays": 3, "accessDuringGrace": True},
    "offer_premium_monthly_paid": {"type": "SUBSCRIPTION", "trialDays": 0, "graceDays": 3, "accessDuringGrace": True},
    "offer_day_pass": {"type": "CONSUMABLE", "unitAccessSeconds": 86400},
    "offer_full_unlock": {"type": "NON_CONSUMABLE"},
}

STEP = {
    "payment.succeeded": 0, "subscription.trial_started": 0, "entitlement.granted": 1,
    "entitlement.updated": 2, "subscription.updated": 3, "entitlement.revoked": 4,
    "subscription.suspended": 4, "subscription.canceled": 4, "subscription.expired": 4,
    "subscription.failed": 4,
}
# At one instant and step, the outcome that gives more access wins: a tie never takes access away.
ACCESS_RANK = {"REVOKED": 0, "IN_GRACE": 1, "PRE_CANCELED": 2, "TRIALING": 3, "ACTIVE": 4}


def signature_is_valid(raw_body: bytes, header: str, secret: str, now: float) -> bool:
    """True when Service-Signature (t=<unix>,v1=<hex>) signs these exact bytes, within 5 minutes."""
    timestamp, digests = None, []
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        if name == "t" and value.isdigit():
            timestamp = int(value)
        elif name == "v1":
            digests.append(value)
    if timestamp is None or abs(now - timestamp) > SIGNATURE_TOLERANCE_SECONDS:
        return False
    # The HMAC is over the bytes as received: json.loads then json.dumps would not give them back.
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + raw_body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, digest) for digest in digests)


def event_key(event: dict) -> str:
    """Events carry no id: these fields tell one event from another (a redelivery has the same key)."""
    fields = ["event", "paymentUid", "subscriptionUid", "orderId", "subscriptionStatus", "occurredAt"]
    return "\x1f".join(str(event.get(field) or "") for field in fields)


def status_after(event: dict, offer: dict):
    """The status a subscription event leads to, or None for events that change no access."""
    name, status = event["event"], event.get("subscriptionStatus")
    if name == "payment.succeeded":
        return status or ("TRIALING" if offer.get("trialDays", 0) > 0 else "ACTIVE")
    if name == "subscription.trial_started":
        return "TRIALING"
    if name == "entitlement.granted":
        return "TRIALING" if status == "TRIALING" else "ACTIVE"
    if name == "entitlement.updated":
        outstanding = (event.get("periodOutstanding") or {}).get("amount", 0)
        return "IN_GRACE" if status == "IN_GRACE" or (status is None and outstanding > 0) else "ACTIVE"
    if name == "subscription.updated":
        return "PRE_CANCELED" if status == "PRE_CANCELED" or event.get("cancelAt") else "ACTIVE"
    return "REVOKED" if STEP.get(name) == 4 else None


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


class Entitlements:
    """The receiver's state, in memory, behind one lock: the key check and the effect are one step."""

    def __init__(self, flaw: str = ""):
        self.lock = threading.Lock()
        self.processed = set()
        self.held = {}
        self.deduplicate = flaw != "no-dedupe"

    def receive(self, event: dict) -> bool:
        """Applies a verified event once; True when it is a copy of one processed before."""
        key = event_key(event)
        with self.lock:
            if self.deduplicate and key in self.processed:
                return True
            self._apply(event)
            self.processed.add(key)
            return False

    def _apply(self, event: dict) -> None:
        account = (event.get("metadata") or {}).get("accountKey")
        offer = OFFERS.get(event.get("offerUid") or "")
        product = event.get("productUid")
        if not isinstance(account, str) or offer is None or not isinstance(product, str):
            return
        held = self.held.setdefault(
            (account, product),
            {"offerUid": event["offerUid"], "status": None, "units": 0, "spent": 0, "orders": set(), "rank": None},
        )
        if offer["type"] == "CONSUMABLE":
            if event["event"] == "payment.succeeded":
                # One unit per order, however often its event comes (the flaw counts every delivery).
                order = event.get("orderId") or event.get("paymentUid")
                if not self.deduplicate or order not in held["orders"]:
                    held["orders"].add(order)
                    held["units"] += 1
        elif offer["type"] == "NON_CONSUMABLE":
            if event["event"] == "payment.succeeded":
                held["status"] = "ACTIVE"
        else:
            status = status_after(event, offer)
            if status is None:
                return
            rank = (event["occurredAt"], STEP[event["event"]], ACCESS_RANK[status])
            # The greatest event in (occurredAt, step, access) sets the status, whatever arrives last.
            if held["rank"] is None or rank > held["rank"]:
                held["rank"] = rank
                held["status"] = status
                held["cancelAt"] = event.get("cancelAt")
                held["graceEndsAt"] = (
                    parse_time(event["occurredAt"]) + timedelta(days=offer.get("graceDays", 0))
                    if status == "IN_GRACE"
                    else None
                )

    def has_access(self, account: str, product: str) -> bool:
        with self.lock:
            return self._has_access(self.held.get((account, product)))

    def _has_access(self, held) -> bool:
        if held is None:
            return False
        offer = OFFERS[held["offerUid"]]
        now = datetime.now(timezone.utc)
        if offer["type"] == "CONSUMABLE":
            # A pass that sells time opens access once used, for its time; credits while one is left.
            if "unitAccessSeconds" in offer:
                return held.get("accessEndsAt") is not None and held["accessEndsAt"] > now
            return held["units"] - held["spent"] > 0
        status = held["status"]
        if status in ("ACTIVE", "TRIALING"):
            return True
        if status == "PRE_CANCELED":
            return held["cancelAt"] is None or parse_time(held["cancelAt"]) > now
        if status == "IN_GRACE":
            return offer.get("accessDuringGrace", False) and held["graceEndsAt"] > now
        return False

    def spend(self, account: str, product: str):
        """Spends one unit of a pass (its time starts now, or after the time already running);
        the units left, or None when there is none."""
        with self.lock:
            held = self.held.get((account, product))
            if held is None:
                return None
            offer = OFFERS[held["offerUid"]]
            if offer["type"] != "CONSUMABLE" or held["units"] - held["spent"] <= 0:
                return None
            held["spent"] += 1
            if "unitAccessSeconds" in offer:
                now = datetime.now(timezone.utc)
                start = max(now, held.get("accessEndsAt") or now)
                held["accessEndsAt"] = start + timedelta(seconds=offer["unitAccessSeconds"])
            return held["units"] - held["spent"]


def handler_for(secret: str, entitlements: Entitlements, flaw: str):
    class Handler(BaseHTTPRequestHandler):
        def answer(self, status: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def query(self):
            fields = parse_qs(urlparse(self.path).query)
            return fields.get("account", [""])[0], fields.get("product", [""])[0]

        def do_POST(self):
            path = urlparse(self.path).path
            if path == "/webhooks/dcb":
                raw_body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                signed = json.dumps(json.loads(raw_body)).encode() if flaw == "reserialized-body" else raw_body
                if not signature_is_valid(signed, self.headers.get("Service-Signature", ""), secret, time.time()):
                    return self.answer(401, {"error": "signature does not match"})
                try:
                    event = json.loads(raw_body)
                except ValueError:
                    return self.answer(400, {"error": "not JSON"})
                if not isinstance(event, dict) or "event" not in event or "occurredAt" not in event:
                    return self.answer(400, {"error": "not an event"})
                # A copy of an event processed before is acknowledged: any other answer makes the service retry it.
                duplicate = entitlements.receive(event)
                return self.answer(200, {"duplicate": True} if duplicate else {"received": True})
            if path == "/spend":
                left = entitlements.spend(*self.query())
                if left is None:
                    return self.answer(409, {"error": "no unit left"})
                return self.answer(200, {"unitsLeft": left})
            self.answer(404, {"error": f"no route POST {path}"})

        def do_GET(self):
            if urlparse(self.path).path == "/access":
                allowed = entitlements.has_access(*self.query())
                return self.answer(200 if allowed else 403, {"access": allowed})
            self.answer(404, {"error": f"no route GET {self.path}"})

        def log_message(self, format, *args):  # noqa: A002 - the base class's signature
            pass

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    secret = os.environ.get("DCB_WEBHOOK_SECRET", "")
    if not secret:
        raise SystemExit("DCB_WEBHOOK_SECRET is not set: the webhook secret of your environment in the console")
    flaw = os.environ.get("RECEIVER_FLAW", "")
    server = ThreadingHTTPServer((args.host, args.port), handler_for(secret, Entitlements(flaw), flaw))
    print(f"listening on http://{args.host}:{server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

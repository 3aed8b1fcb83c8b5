"""How the service delivers webhook events: timeouts, back-off, when it gives up.

`tenant-console serve` takes each as an option (console/service/cli.py); the defaults are
close to what the hosted service does (it documents retries and disabling, not numbers):
a delivery is tried at once, then after 1 s, 2 s, 4 s... at most 5 minutes apart, up to 8
times; a webhook whose deliveries fail 10 times in a row is disabled.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_TIMEOUT = 5.0
DEFAULT_RETRY_BASE = 1.0
DEFAULT_RETRY_CAP = 300.0
DEFAULT_MAX_ATTEMPTS = 8
DEFAULT_DISABLE_AFTER = 10
MAX_IN_FLIGHT = 8
"""Deliveries sent at once, over every webhook (one at a time per webhook, so that a slow
receiver holds up only its own deliveries)."""
POLL_SECONDS = 1.0
"""The deliverer looks for due deliveries this often besides being woken after a write."""
KEEP_FINISHED_SECONDS = 86_400.0
KEEP_FINISHED_PER_WEBHOOK = 100
"""Delivered and failed deliveries are kept a day, and at most this many per webhook."""
SWEEP_SECONDS = 60.0


@dataclass(frozen=True)
class DeliverySettings:
    """The deliverer's settings (seconds, counts). `retry_base`: the wait before the second
    attempt; each later wait doubles, up to `retry_cap`."""

    timeout: float = DEFAULT_TIMEOUT
    retry_base: float = DEFAULT_RETRY_BASE
    retry_cap: float = DEFAULT_RETRY_CAP
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    disable_after: int = DEFAULT_DISABLE_AFTER
    max_in_flight: int = MAX_IN_FLIGHT
    poll: float = POLL_SECONDS

    def backoff(self, attempts: int) -> float:
        """Seconds to wait after the `attempts`-th failed attempt (1, 2, ...)."""
        exponent = min(max(attempts - 1, 0), 60)
        return min(self.retry_cap, self.retry_base * 2.0**exponent)

    def problem(self) -> str | None:
        """Why these settings cannot be used (one sentence naming the option), or None."""
        if not 0 < self.timeout <= 300:
            return f"--webhook-timeout must be above 0 and at most 300, not {self.timeout:g}."
        if not 0 < self.retry_base <= 3600:
            return (
                f"--webhook-retry-base must be above 0 and at most 3600, not {self.retry_base:g}."
            )
        if not self.retry_base <= self.retry_cap <= 86_400:
            return (
                f"--webhook-retry-cap must be from --webhook-retry-base ({self.retry_base:g}) "
                f"to 86400, not {self.retry_cap:g}."
            )
        if not 1 <= self.max_attempts <= 100:
            return f"--webhook-max-attempts must be from 1 to 100, not {self.max_attempts}."
        if not 1 <= self.disable_after <= 1000:
            return f"--webhook-disable-after must be from 1 to 1000, not {self.disable_after}."
        return None

"""Token buckets: how much of something (new visitors, messages, bytes) may pass at once and
over time, as immutable values.

A `Bucket` holds up to `capacity` tokens and gains `per_second` of them every second;
taking `amount` tokens from it gives the bucket that is left, or None when there are too
few (the bucket is unchanged: a refused take takes nothing). Times are monotonic seconds,
passed in by the caller.

    >>> full = Bucket.full(capacity=2, per_second=0.5, now=0.0)
    >>> after_two = full.take(1, 0.0).take(1, 0.0)
    >>> after_two.take(1, 0.0) is None
    True
    >>> after_two.take(1, 2.0) is not None  # one token back after 2 s
    True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Bucket:
    """`level` tokens at time `at`, of at most `capacity`, refilled at `per_second`."""

    capacity: float
    per_second: float
    level: float
    at: float

    @classmethod
    def full(cls, capacity: float, per_second: float, now: float) -> Bucket:
        return cls(capacity, per_second, float(capacity), now)

    def level_at(self, now: float) -> float:
        """The tokens in the bucket at `now` (never more than `capacity`)."""
        return min(self.capacity, self.level + max(0.0, now - self.at) * self.per_second)

    def take(self, amount: float, now: float) -> Bucket | None:
        """The bucket after taking `amount` tokens at `now`, or None if there are too few."""
        level = self.level_at(now)
        if level < amount:
            return None
        return Bucket(self.capacity, self.per_second, level - amount, now)

    def wait_for(self, amount: float, now: float) -> float:
        """Seconds from `now` until `amount` tokens are there (0 when they are now)."""
        missing = amount - self.level_at(now)
        if missing <= 0:
            return 0.0
        return float("inf") if self.per_second <= 0 else missing / self.per_second

    def is_full(self, now: float) -> bool:
        return self.level_at(now) >= self.capacity

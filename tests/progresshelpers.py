"""Helpers of the progress and dashboard tests: a class roster of learners by key (what
`store.classes.ClassStore` answers), and a clock that ticks a second a reading."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Member:
    name: str


class Roster:
    """A class of learners by key, with one teacher key."""

    def __init__(self, code: str, teacher: str, learners: dict[str, str]) -> None:
        self.code, self.teacher, self.keys = code, teacher, dict(learners)
        self.asked = 0

    def is_teacher(self, code: str, teacher_key: str) -> bool:
        return code == self.code and teacher_key == self.teacher

    def learner(self, code: str, learner_key: str) -> Member | None:
        self.asked += 1
        name = self.keys.get(learner_key) if code == self.code else None
        return None if name is None else Member(name)

    def members(self, code: str, teacher_key: str) -> list[Member]:
        return [Member(n) for n in self.keys.values()]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now

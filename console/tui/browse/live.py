"""A sequence or mapping made anew from a function at each use: the console's tables of kinds
keep their names (`LIST_KINDS`, `SECTIONS`) and still follow the registry as it is now."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class LiveSequence(Sequence[T]):
    """The tuple `make()` returns when read: a kind registered later is in it."""

    def __init__(self, make: Callable[[], tuple[T, ...]]) -> None:
        self._make = make

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        return self._make()[index]

    def __len__(self) -> int:
        return len(self._make())

    def __iter__(self) -> Iterator[T]:
        return iter(self._make())

    def __repr__(self) -> str:
        return f"LiveSequence({self._make()!r})"


class LiveMapping(Mapping[str, T]):
    """The dict `make()` returns when read, by key."""

    def __init__(self, make: Callable[[], dict[str, T]]) -> None:
        self._make = make

    def __getitem__(self, key: str) -> T:
        return self._make()[key]

    def __len__(self) -> int:
        return len(self._make())

    def __iter__(self) -> Iterator[str]:
        return iter(self._make())

    def __repr__(self) -> str:
        return f"LiveMapping({self._make()!r})"

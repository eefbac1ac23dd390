from typing import Any, Literal, NotRequired, TypedDict


def anything(**kwargs: Any) -> Any:
    """No schema at all."""
    ...


class Point(TypedDict):
    x: float
    y: float


def tagged(*, mode: Literal["fast"], point: Point, weights: dict[str, float] = ..., id: int | str = ..., **kwargs: Any) -> dict[str, int]:
    ...

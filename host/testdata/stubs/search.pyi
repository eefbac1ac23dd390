from typing import Any, Literal, NotRequired, TypedDict


class SearchFilters(TypedDict):
    """Narrow the search."""
    after: str
    tags: NotRequired[list[str]]


class SearchResultItem(TypedDict):
    title: str
    score: float


def search(*, query: str, limit: int = 10, lang: Literal["en", "fr"] = ..., filters: SearchFilters = ..., exact: bool | None = ...) -> list[SearchResultItem]:
    """Search the index.
    Results are ranked.

    Args:
        query: The text to find.
        filters: Narrow the search.
    """
    ...

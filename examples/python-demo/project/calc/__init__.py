"""A tiny calculator used by the ci-replay demo."""

from calc.core import add, describe, multiply

__all__ = ["add", "describe", "multiply"]

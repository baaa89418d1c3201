"""Arithmetic helpers."""


def add(a: int, b: int) -> int:
    """Return the sum of a and b."""
    return a + b


def multiply(a: int, b: int) -> int:
    """Return the product of a and b."""
    return a * b


def describe(value: int) -> str:
    """Describe a number in words."""
    if value < 0:
        return "negative"
    if value == 0:
        return "zero"
    return "positive"

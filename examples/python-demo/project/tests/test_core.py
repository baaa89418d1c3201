from calc import add, describe, multiply


def test_add():
    assert add(2, 3) == 5


def test_multiply():
    assert multiply(2, 3) == 6


def test_describe():
    assert describe(-4) == "negative"
    assert describe(0) == "zero"
    assert describe(7) == "positive"

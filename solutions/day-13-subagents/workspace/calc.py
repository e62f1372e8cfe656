"""A tiny calculator: the project the agent works on in the day-7 walk-through."""


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def divide(a, b):
    return a / b

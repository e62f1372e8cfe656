"""Tests for calc.py. One of them fails until divide() refuses a zero divisor."""

import unittest

from calc import add, divide, mul, sub


class CalcTests(unittest.TestCase):
    def test_add_and_sub(self):
        self.assertEqual(add(2, 3), 5)
        self.assertEqual(sub(2, 3), -1)

    def test_mul(self):
        self.assertEqual(mul(4, 5), 20)

    def test_divide(self):
        self.assertEqual(divide(9, 3), 3)

    def test_divide_by_zero(self):
        with self.assertRaises(ValueError):
            divide(1, 0)


if __name__ == "__main__":
    unittest.main()

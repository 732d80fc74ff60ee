# d(out)/d(self), d(out)/d(other), for out = self * other
(0, 0)

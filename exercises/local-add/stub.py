# the local derivatives of out = self + other:
# (for self, for other)
(0, 0)

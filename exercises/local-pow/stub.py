# d(out)/d(self), for out = self ** other, x = self.data, other the exponent
(0,)

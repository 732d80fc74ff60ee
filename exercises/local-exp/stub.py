# d(out)/d(self), for out = e**x, x = self.data
(0,)

# d(out)/d(self), for out = log(x), x = self.data
(0,)

# the local derivative of out = exp(self), x = self.data
(0,)

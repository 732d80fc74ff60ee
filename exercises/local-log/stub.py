# the local derivative of out = log(self), x = self.data
(0,)

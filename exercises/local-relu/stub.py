# the local derivative of out = relu(self), x = self.data
(0,)

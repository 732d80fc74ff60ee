# out = tanh(self); the method computed t = tanh(x),
# which is also out.data
# Add self's share of out.grad to self.grad, with +=.
pass

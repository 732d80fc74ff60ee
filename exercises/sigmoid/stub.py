# out = sigmoid(self); the method computed
# s = 1 / (1 + exp(-x)), which is also out.data
# Add self's share of out.grad to self.grad, with +=.
pass

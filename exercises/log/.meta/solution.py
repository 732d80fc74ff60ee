self.grad += (1 / x) * out.grad

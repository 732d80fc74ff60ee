self.grad += s * (1 - s) * out.grad

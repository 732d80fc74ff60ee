self.grad += (1 - out.data**2) * out.grad

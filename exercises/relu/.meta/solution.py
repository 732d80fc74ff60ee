self.grad += (out.data > 0) * out.grad

self.grad += out.data * out.grad

self.grad += other.data * out.grad
other.grad += self.data * out.grad

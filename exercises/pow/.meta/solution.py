self.grad += other * self.data ** (other - 1) * out.grad

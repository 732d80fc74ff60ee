self.grad += 1.0 * out.grad
other.grad += 1.0 * out.grad

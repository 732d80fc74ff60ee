def numerical_grad(f, x, h):
    return (f(x + h) - f(x - h)) / (2 * h)


def relative_error(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def check(f, x, grad):
    return relative_error(numerical_grad(f, x, 1e-5), grad)

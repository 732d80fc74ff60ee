# Three functions; the test calls each on numbers of its own.


def numerical_grad(f, x, h):
    # f's slope at x, measured with the step h (f takes one number)
    return 0.0


def relative_error(a, b):
    # how far apart a and b are, whatever their scale
    return 0.0


def check(f, x, grad):
    # the relative error of your numerical_grad, at an h you choose, against grad
    return 0.0

def train(w, b, points, steps, lr):
    """Fits y = w * x + b to `points`, (x, y) pairs, by gradient descent: `w` and `b` are
    Values, moved `steps` times; returns the loss before each step."""
    losses = []
    for _ in range(steps):
        loss = sum((w * x + b - y) ** 2 for x, y in points) / len(points)
        for p in (w, b):
            p.grad = 0.0
        loss.backward()
        for p in (w, b):
            p.data -= lr * p.grad
        losses.append(loss.data)
    return losses

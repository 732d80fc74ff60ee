"""The two-moons data set, without numpy or scikit-learn: two interleaving half circles with
Gaussian noise, labelled -1 and +1, the same for the same seed."""

import math
import random


def two_moons(count=100, noise=0.1, seed=1):
    """`count` points `(x, y)` and their labels (±1): the outer half circle (cos t, sin t) and
    the inner one (1 - cos t, 0.5 - sin t), t spaced evenly over [0, π], noise added."""
    rng = random.Random(seed)
    outer, inner = count // 2, count - count // 2
    points, labels = [], []
    for n, label, shape in (
        (outer, -1, lambda t: (math.cos(t), math.sin(t))),
        (inner, 1, lambda t: (1 - math.cos(t), 0.5 - math.sin(t))),
    ):
        for i in range(n):
            t = math.pi * i / max(n - 1, 1)
            x, y = shape(t)
            points.append((x + rng.gauss(0, noise), y + rng.gauss(0, noise)))
            labels.append(label)
    order = list(range(count))
    rng.shuffle(order)
    return [points[i] for i in order], [labels[i] for i in order]

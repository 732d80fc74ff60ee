"""A training session: micrograd's demo (an MLP learning the two moons with a max-margin loss,
L2 regularization and a decaying learning rate), on the Value class made of the learner's own
closures, a few steps at a time so that the page can pause it, show it and stop it.

`Session(value_class, Config())`: `.step()` takes one step of gradient descent and returns its
loss; `.accuracy()`, `.boundary()` read the model with plain floats (no graph is built for them).
In the browser, training/worker.py drives it, JSON in and out.
"""

import math
import random
from dataclasses import dataclass, field

from runner.numbers import finite
from runner.settings import known_keys

from .moons import two_moons
from .nn import MLP

USES = ("add", "mul", "relu")  # the ops whose closures the network's training runs
REACH = 2.0  # the plot spans the data, and this much around it (x from -1.5 to 2.5, say)


@dataclass
class Config:
    hidden: list = field(default_factory=lambda: [16, 16])  # neurons per hidden layer
    learning_rate: float = 0.5  # at the first step; it decays linearly to a tenth of it
    decay_steps: int = 150  # the step at which it has decayed to a tenth
    batch: int = 16  # points per step (all of them when as many as the data)
    point_count: int = 100
    noise: float = 0.1
    seed: int = 1
    alpha: float = 1e-4  # L2 regularization
    zero_grad: bool = True  # False: the grads of every step pile up ("break it")
    assign_add: bool = False  # True: `=` for `+=` in the learner's `__add__` ("break it")
    # training stops by itself (the widget's Train goes on from there):
    step_limit: int = 500  # after this many steps since it started or went on,
    window: int = 50  # or once the loss's mean over this many steps has fallen by less than
    settled: float = 0.01  # this share of its mean over the window before, the rate done decaying

    @classmethod
    def of(cls, given):
        """A Config from a dict, its values checked; a key it does not know is a ValueError (a
        misspelt setting would otherwise be dropped without a word)."""
        config = cls(**known_keys(cls, given))
        config.hidden = [min(max(int(n), 1), 64) for n in config.hidden][:3]
        config.point_count = min(max(int(config.point_count), 10), 400)
        config.batch = min(max(int(config.batch), 1), config.point_count)
        config.learning_rate = float(config.learning_rate)
        config.step_limit = max(int(config.step_limit), 1)
        config.window = max(int(config.window), 1)
        return config


def extent(points):
    """The plot's `[x0, x1, y0, y1]`: the points, and a margin around them."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    pad = REACH / 4
    return [min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad]


def dataset(config):
    """A config's moons as the widget draws them before training starts: its seed, the points,
    their labels and the plot's extent (the session makes the same from the same config)."""
    points, labels = two_moons(config.point_count, config.noise, config.seed)
    return {"seed": config.seed, "points": points, "labels": labels, "extent": extent(points)}


class Session:
    def __init__(self, value_class, config):
        self.value = value_class
        self.config = config
        self.rng = random.Random(config.seed)
        self.points, self.labels = two_moons(config.point_count, config.noise, config.seed)
        self.model = MLP(value_class, 2, [*config.hidden, 1], rng=self.rng)
        self.count = 0
        self.losses = []  # every step's loss, for `finished`
        self.since = 0  # the step training last started or went on from

    def learning_rate(self):
        c = self.config
        return c.learning_rate * (1.0 - 0.9 * min(self.count, c.decay_steps) / c.decay_steps)

    def batch(self):
        indices = range(len(self.points))
        if self.config.batch < len(self.points):
            indices = self.rng.sample(indices, self.config.batch)
        return [self.points[i] for i in indices], [self.labels[i] for i in indices]

    def loss(self, points, labels):
        """The max-margin loss of the batch, plus the L2 term: a Value."""
        inputs = [[self.value(coordinate) for coordinate in point] for point in points]
        scores = [self.model(x) for x in inputs]
        losses = [(1 + -label * score).relu() for label, score in zip(labels, scores, strict=True)]
        data_loss = sum(losses) * (1.0 / len(losses))
        reg_loss = self.config.alpha * sum(p * p for p in self.model.parameters())
        return data_loss + reg_loss

    def step(self):
        """One step of gradient descent on a batch; returns the loss before the step. A step
        whose gradients are not all finite numbers moves nothing (training/culprit.py)."""
        total = self.loss(*self.batch())
        if self.config.zero_grad:
            self.model.zero_grad()
        total.backward()
        self.graph = total
        params = self.model.parameters()
        if all(finite(p.grad) for p in params):
            rate = self.learning_rate()
            for p in params:
                p.data -= rate * p.grad
        self.count += 1
        self.losses.append(total.data)
        return total.data

    def go_on(self):
        """Training goes on after it stopped by itself: a new step limit, new windows of loss."""
        self.since = self.count

    def finished(self):
        """Why training should stop by itself now, or None: "limit" after `step_limit` steps
        since it started or went on, "converged" once the learning rate is done decaying and the
        loss's mean over the last `window` steps is less than `settled` (1%) below its mean over
        the `window` before."""
        c, ran = self.config, self.count - self.since
        if ran >= c.step_limit:
            return "limit"
        if ran < 2 * c.window or self.count < c.decay_steps:
            return None
        last, before = self.losses[-c.window :], self.losses[-2 * c.window : -c.window]
        if all(map(finite, last + before)) and sum(last) > (1 - c.settled) * sum(before):
            return "converged"
        return None

    def stalled(self):
        """Whether the last step's backward pass reached no parameter at all: every gradient 0.
        Training that works never does this (the L2 term alone gives every weight a gradient)."""
        return all(p.grad == 0 for p in self.model.parameters())

    def healthy(self):
        """Whether the last step left finite numbers in every parameter and its gradient."""
        return all(finite(p.data) and finite(p.grad) for p in self.model.parameters())

    def weights(self):
        """Each layer's weights and biases as plain floats: `[[(w, ..., b), ...], ...]`."""
        return [
            [[*(w.data for w in n.w), n.b.data] for n in layer.neurons]
            for layer in self.model.layers
        ]

    def scores(self, points):
        """The model's score for each point, computed with plain floats."""
        layers = self.weights()
        found = []
        for point in points:
            x = list(point)
            for i, layer in enumerate(layers):
                x = [sum(w * xi for w, xi in zip(n[:-1], x, strict=True)) + n[-1] for n in layer]
                if i < len(layers) - 1:
                    x = [max(0.0, v) for v in x]
            found.append(x[0])
        return found

    def accuracy(self):
        scores = self.scores(self.points)
        right = sum((s > 0) == (y > 0) for s, y in zip(scores, self.labels, strict=True))
        return right / len(self.points)

    def extent(self):
        return extent(self.points)

    def boundary(self, size=24):
        """The model's scores over a `size` × `size` grid of the plot, row by row, top first."""
        x0, x1, y0, y1 = self.extent()
        grid = [
            (x0 + (x1 - x0) * (i + 0.5) / size, y1 - (y1 - y0) * (j + 0.5) / size)
            for j in range(size)
            for i in range(size)
        ]
        return [round(s, 3) if math.isfinite(s) else None for s in self.scores(grid)]

"""microgpt's model: a GPT over letters, made of scalar Values, with its loss, Adam and sampling.

Every number the network computes with is a Value of the class it is given, so training runs
that class's ops and its backward(): the learner's local-gradient tuples, in the browser. The
shapes are microgpt's: token and position embeddings, rmsnorm, `n_layer` blocks of multi-head
causal attention (keys and values cached position by position) and a relu MLP, each with a
residual connection, and a linear head giving one logit per token.
"""

import math
from dataclasses import dataclass

from .names import BOS, VOCAB_SIZE


@dataclass
class Config:
    n_embd: int = 16  # the width of every position's vector
    n_head: int = 4  # attention heads, each n_embd // n_head wide
    n_layer: int = 1
    block_size: int = 16  # the longest context: a name of up to 15 letters, and BOS
    learning_rate: float = 0.01  # Adam's, at the first step; it decays linearly to 0
    steps: int = 1000  # the length of the decay
    beta1: float = 0.85
    beta2: float = 0.99
    seed: int = 42


class GPT:
    """The network's weights, as lists of rows of Values, and its forward pass."""

    def __init__(self, value, config, rng):
        self.value, self.config = value, config
        n, std = config.n_embd, 0.08

        def matrix(rows, columns):
            return [[value(rng.gauss(0, std)) for _ in range(columns)] for _ in range(rows)]

        self.weights = {"wte": matrix(VOCAB_SIZE, n), "wpe": matrix(config.block_size, n)}
        for i in range(config.n_layer):
            for name in ("wq", "wk", "wv", "wo"):
                self.weights[f"layer{i}.{name}"] = matrix(n, n)
            self.weights[f"layer{i}.fc1"] = matrix(4 * n, n)
            self.weights[f"layer{i}.fc2"] = matrix(n, 4 * n)
        self.weights["lm_head"] = matrix(VOCAB_SIZE, n)

    def parameters(self):
        return [p for matrix in self.weights.values() for row in matrix for p in row]

    def cache(self):
        """An empty cache: each layer's keys and values, one per position seen so far."""
        return [([], []) for _ in range(self.config.n_layer)]

    def __call__(self, token, position, cache):
        """The logits of the token after `token` at `position`, the positions before it read
        from `cache` (which this position is added to)."""
        w = self.weights
        x = [t + p for t, p in zip(w["wte"][token], w["wpe"][position], strict=True)]
        x = rmsnorm(x)
        for i, (keys, values) in enumerate(cache):
            x = add(x, self.attention(rmsnorm(x), i, keys, values))
            hidden = [h.relu() for h in linear(rmsnorm(x), w[f"layer{i}.fc1"])]
            x = add(x, linear(hidden, w[f"layer{i}.fc2"]))
        return linear(x, w["lm_head"])

    def attention(self, x, i, keys, values):
        """Each head's weighted mix of the values of every position so far, through `wo`."""
        w, heads = self.weights, self.config.n_head
        q = linear(x, w[f"layer{i}.wq"])
        keys.append(linear(x, w[f"layer{i}.wk"]))
        values.append(linear(x, w[f"layer{i}.wv"]))
        size = len(q) // heads
        mixed = []
        for head in range(heads):
            part = slice(head * size, (head + 1) * size)
            scores = [dot(q[part], k[part]) / math.sqrt(size) for k in keys]
            attention = softmax(scores)
            mixed += [
                sum(a * v[part][j] for a, v in zip(attention, values, strict=True))
                for j in range(size)
            ]
        return linear(mixed, w[f"layer{i}.wo"])


def dot(a, b):
    return sum(x * y for x, y in zip(a, b, strict=True))


def linear(x, matrix):
    """The matrix times the vector `x`: one dot product per row."""
    return [dot(row, x) for row in matrix]


def add(x, y):
    return [a + b for a, b in zip(x, y, strict=True)]


def rmsnorm(x):
    """`x` scaled to a root mean square of 1."""
    mean_square = sum(xi * xi for xi in x) / len(x)
    scale = (mean_square + 1e-5) ** -0.5
    return [xi * scale for xi in x]


def softmax(logits):
    """Probabilities from logits: e to each, over their sum. The largest logit is taken off
    first, which changes nothing but keeps `exp` from overflowing."""
    top = max(logit.data for logit in logits)
    exps = [(logit - top).exp() for logit in logits]
    total = sum(exps)
    return [e / total for e in exps]


def loss(model, tokens):
    """The mean cross-entropy of predicting each next token of `tokens` (a name's), −log p of
    the right one, and the number of positions it averages."""
    count = min(model.config.block_size, len(tokens) - 1)
    cache = model.cache()
    losses = []
    for position in range(count):
        probabilities = softmax(model(tokens[position], position, cache))
        losses.append(-probabilities[tokens[position + 1]].log())
    return sum(losses) * (1 / count), count


class Adam:
    """Adam, with a learning rate that decays linearly to 0 over `config.steps`."""

    def __init__(self, parameters, config):
        self.parameters, self.config = parameters, config
        self.m = [0.0] * len(parameters)
        self.v = [0.0] * len(parameters)
        self.count = 0

    def rate(self):
        return self.config.learning_rate * max(0.0, 1 - self.count / self.config.steps)

    def step(self):
        c, rate = self.config, self.rate()
        self.count += 1
        fix1, fix2 = 1 - c.beta1**self.count, 1 - c.beta2**self.count
        for i, p in enumerate(self.parameters):
            self.m[i] = c.beta1 * self.m[i] + (1 - c.beta1) * p.grad
            self.v[i] = (
                c.beta2 * self.v[i] + (1 - c.beta2) * p.grad * p.grad
            )  # inf, not an error, when huge
            p.data -= rate * (self.m[i] / fix1) / ((self.v[i] / fix2) ** 0.5 + 1e-8)


def sample(model, rng, temperature):
    """One name drawn letter by letter from the model's probabilities, sharpened (temperature
    below 1) or flattened (above 1); it ends at BOS or at the block size."""
    cache, token, letters = model.cache(), BOS, []
    for position in range(model.config.block_size):
        logits = model(token, position, cache)
        probabilities = softmax([logit / temperature for logit in logits])
        token = rng.choices(range(VOCAB_SIZE), weights=[p.data for p in probabilities])[0]
        if token == BOS:
            break
        letters.append(token)
    return letters

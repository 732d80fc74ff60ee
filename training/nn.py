"""micrograd's neural networks (nn.py, MIT, Andrej Karpathy, 2020), built on the `Value` class
they are given: the learner's, or the course's reference."""

import random


class Module:
    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0

    def parameters(self):
        return []


class Neuron(Module):
    def __init__(self, value, nin, nonlin=True, rng=random):
        self.w = [value(rng.uniform(-1, 1)) for _ in range(nin)]
        self.b = value(0)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x, strict=True)), self.b)
        return act.relu() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]


class Layer(Module):
    def __init__(self, value, nin, nout, rng=random, **kwargs):
        self.neurons = [Neuron(value, nin, rng=rng, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


class MLP(Module):
    def __init__(self, value, nin, nouts, rng=random):
        sizes = [nin, *nouts]
        self.layers = [
            Layer(value, sizes[i], sizes[i + 1], rng=rng, nonlin=i != len(nouts) - 1)
            for i in range(len(nouts))
        ]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

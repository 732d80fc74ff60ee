"""Training microgpt a step at a time, on the Value class it is given, and sampling names.

`Session(value_class, Config(), names)`: `.step()` trains on the next name and returns its loss;
`.sample(count, temperature)` draws names from the model as it is. Training and sampling draw
from random generators of their own, so the losses do not depend on when names were sampled.
"""

import contextlib
import gc
import math
import random
from dataclasses import dataclass

from runner.numbers import finite
from runner.settings import known_keys

from . import model
from .names import decode, encode

SMOOTHING = 0.98  # one name's loss is noisy: the curve shown averages about the last 50


@dataclass
class Config(model.Config):
    zero_grad: bool = True  # False: every step's gradients pile onto the last's ("break it")

    @classmethod
    def of(cls, given):
        """A Config from a dict, sizes kept where a step stays short; a key it does not know is
        a ValueError."""
        config = cls(**known_keys(cls, given))
        config.n_layer = min(max(int(config.n_layer), 1), 2)
        config.n_head = 4
        config.n_embd = min(max(int(config.n_embd) // 4 * 4, 4), 32)
        config.block_size = 16
        config.steps = min(max(int(config.steps), 1), 5000)
        config.learning_rate = float(config.learning_rate)
        config.seed = int(config.seed)
        return config


class Session:
    def __init__(self, value_class, config, names):
        self.config = config
        self.rng = random.Random(config.seed)
        self.names = list(names)
        self.rng.shuffle(self.names)
        self.model = model.GPT(value_class, config, self.rng)
        self.parameters = self.model.parameters()
        self.adam = model.Adam(self.parameters, config)
        self.sampler = random.Random(config.seed + 1)
        self.count = 0
        self.name = ""  # the name of the last step
        self.average = 0.0  # the losses' moving average, before its correction for a short past
        self.reached_no_parameter = False  # the last step's backward pass reached none

    def step(self):
        """One step of Adam on the next name; returns its loss. A step whose gradients are not
        all finite numbers moves nothing."""
        self.name = self.names[self.count % len(self.names)]
        with collecting_later():
            total, _ = model.loss(self.model, encode(self.name))
            total.backward()
            loss = total.data
            del total  # the graph goes before the collector resumes
        grads = [p.grad for p in self.parameters]
        # every gradient 0 (the starter tuples): nothing can learn, and the worker says so
        self.reached_no_parameter = set(map(type, grads)) <= {float, int} and not any(grads)
        if all_finite(grads):
            self.adam.step()
        if self.config.zero_grad:
            for p in self.parameters:
                p.grad = 0.0
        self.count += 1
        if finite(loss):
            self.average = SMOOTHING * self.average + (1 - SMOOTHING) * loss
        return loss

    def smoothed(self):
        """The losses' exponential moving average, corrected (as Adam corrects its moments) for
        having fewer steps behind it than it averages."""
        return self.average / (1 - SMOOTHING**self.count) if self.count else None

    def stalled(self):
        """Whether the last step's backward pass reached no parameter at all: every gradient 0."""
        return self.reached_no_parameter

    def healthy(self):
        """Whether every parameter and its gradient are still finite numbers."""
        parameters = self.parameters
        return all_finite([p.data for p in parameters]) and all_finite([p.grad for p in parameters])

    def sample(self, count, temperature):
        """`count` names drawn from the model at `temperature`."""
        return [decode(model.sample(self.model, self.sampler, temperature)) for _ in range(count)]


@contextlib.contextmanager
def collecting_later():
    """Python's cycle collector paused while a step builds its graph: the graph has no cycles
    (reference counting frees it), yet its ~50,000 new Values would set the collector off again
    and again, walking every live one each time, which made a step four times slower. Any cycle
    made meanwhile is collected once it resumes."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def all_finite(numbers):
    """Whether each of `numbers` (a list) is a finite number, as `finite` says, in a few passes
    in C where a loop calling `finite` would take a few milliseconds a step: an infinity or a
    nan makes the sum one too, and a sum of finite numbers is not finite only when it
    overflows (then each is looked at)."""
    if set(map(type, numbers)) <= {float, int}:
        with contextlib.suppress(OverflowError):  # an int too large for a float
            if math.isfinite(sum(numbers)):
                return True
    return all(map(finite, numbers))

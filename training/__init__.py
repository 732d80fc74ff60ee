"""Training a neural network with the learner's own engine: micrograd's `nn` built on whatever
`Value` class it is given (`nn.py`), the two-moons data (`moons.py`), and a training session that
takes steps a few at a time (`session.py`). Pure standard library: it runs in the browser's
runner, on the class assembled from the learner's closures, and in CPython for the tests.
"""

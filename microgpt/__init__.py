"""microgpt (Andrej Karpathy, 2026; MIT): a GPT trained on first names, made of scalar Values.

Plain Python, run the same in CPython (the tests, the lesson page) and in the browser's runner,
on the local-gradients Value class the learner completes: `names` (the data and its tokens),
`model` (the network, its loss, Adam and sampling), `session` (training a few steps at a time)
and `worker` (the runner's JSON entry points).
"""

"""A check's graph, built from its code: the one way both halves of grading build it (the
runner with the learner's Value class, the judge with the answer key's nodes)."""


def build_graph(build, leaves, output, make):
    """Runs a check's `build` code on leaves made by `make(value, name)`: `(output node, space)`,
    `space` mapping each name the check defines to its node. `output` is the name the build
    ends on, or "out" when `build` is one expression."""
    space = {name: make(value, name) for name, value in leaves.items()}
    if output == "out":
        space["out"] = eval(build, space)
    else:
        exec(build, space)
    return space[output], space

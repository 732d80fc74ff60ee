"""The fuzzer's words (grader/fuzz.py's Finding), for the command (grader/cli/fuzz.py) and the
page (grader/fuzz_page.py): the graph as Python, the leaf and the two numbers; never a local
derivative (grader/disclosure.py), a golden file holds them (tests/fuzz_transcript.txt)."""

from runner.fuzz import statement

from .disclosure import tells
from .figures import seven


def program(graph, labels, output="out"):
    """The graph as Python, one statement a line, its output named `output` (None: the name
    the graph gives it)."""
    lines = [f"{leaf} = Value({value!r})" for leaf, value in graph["leaves"]]
    nodes = graph["nodes"]
    lines += [statement(node, labels) for node in nodes[:-1]]
    if nodes:
        output = output or nodes[-1][0]
        lines.append(statement([output, *nodes[-1][1:]], labels))
    else:
        output = graph["leaves"][0][0]
    if graph["grad"] == 1.0:
        lines.append(f"{output}.backward()")
    else:
        lines.append(
            f"# the backward pass, from {output}.grad = {graph['grad']!r} "
            "(backward() itself starts from 1.0)"
        )
    return lines


def ops_count(graph):
    """ "1 op", "3 ops": the ops of a graph."""
    count = len(graph["nodes"])
    return f"{count} op" + ("" if count == 1 else "s")


def quiet(summary):
    """An error's summary, without its message if that states a local derivative (the message
    may quote the learner's code)."""
    return summary.partition(":")[0] if tells(summary) else summary


def engine_did(failure):
    """What the learner's engine did on a failing graph: the leaf's two numbers, or its error."""
    if failure.error:
        return f"Your engine raised an error: {quiet(failure.error)}"
    got = seven(failure.got) if isinstance(failure.got, float) else failure.got
    expected = seven(failure.expected)
    return f"{failure.leaf}.grad: your engine gives {got}, the answer key {expected}."

"""What hostile hand-ins do, written once for every test that grades them (regrade, Gradescope):
each a block of code that goes at the top of a tab's body."""

# what an earlier design let one hand-in do to every later run: the references for every op
PATCH_CODE = (
    "import sys\n"
    "value_class = sys.modules['runner.value_class']\n"
    "value_class.bodies_to_run.__code__ = (lambda exercise, design, bodies: "
    "(design['references'], {})).__code__\n"
)


# what a hand-in did last round: Node's global object found through a dict the sandbox kept,
# its JSON.parse replaced so that every later request ran the reference bodies
GC_HOOK = (
    "import builtins, gc\n"
    "if not hasattr(builtins, 'hooked'):  # once a run: a closure runs once a check\n"
    "    builtins.hooked = True\n"
    "    for held in gc.get_objects():\n"
    "        if isinstance(held, dict):\n"
    "            for value in list(held.values()):\n"
    "                if type(value).__name__ == 'JsProxy' and repr(value) == '[object global]':\n"
    "                    parse = value.JSON.parse\n"
    "                    def rewritten(text, *rest):\n"
    "                        asked = parse(text)\n"
    "                        asked.bodies = asked.data.designs.closures.references\n"
    "                        return asked\n"
    "                    value.JSON.parse = rewritten\n"
)
# a way into JavaScript that hiding modules does not close: Pyodide's C half, made anew
FOOTHOLD = (
    "import sys\n"
    "from importlib.machinery import BuiltinImporter\n"
    "spec = BuiltinImporter.find_spec('_pyodide_core')\n"
    "core = sys.modules['_imp'].create_builtin(spec)\n"
    "array = core.to_js([])\n"
    "array.__proto__.push = array.__proto__.pop\n"
    "array.__proto__.__proto__.toJSON = array.__proto__.pop\n"
)
# every change a run can make to its Python that would outlive it in a Python kept alive
PATCHES = (
    "import builtins, sys\n"
    "builtins.round = lambda *a: 0\n"
    "trace = sys.modules['runner.trace']\n"
    "trace.Trace.record = lambda self: {'nodes': [], 'steps': [], 'complete': True}\n"
    "json = sys.modules['json']\n"
    "json.dumps.__code__ = (lambda *a, **k: '{}').__code__\n"
)

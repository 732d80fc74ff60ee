"""The runner's half, sealed in Node (runner/node.mjs), for hand-ins: one process for each
job, in which each hand-in gets a worker of its own, ended with it, its Python restored from a
memory snapshot made once per regrade and put back to that same memory after every run; a
process replaced after any crash, time-out or memory cap.

What a run may use: `time_limit` seconds (the course's, from mkdocs.yml), counted from when a
fresh Python is ready, so that starting is never charged to a run; PYTHON_MB of memory for
its Python (past that, Python raises MemoryError, as in a browser's worker); and its whole
process may hold PROCESS_MB, or it is ended and the run said to be over its memory. What a run
knows: its request (grader/runner_data.py's `run_data`: no other exercise's answer).
"""

import json
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from functools import cache
from pathlib import Path

from ..runner_data import run_data, runner_data

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "runner" / "node.mjs"
PYODIDE = ROOT / "node_modules" / "pyodide"
SES = ROOT / "node_modules" / "ses" / "dist" / "ses.mjs"  # lockdown(), for runner/node.mjs
START_LIMIT_S = 60  # a Python's restore: never charged to a run
PYTHON_MB = 256  # a run's Python: far more than a tiny graph needs
PROCESS_MB = 1536  # the whole Node process: Pyodide, its last Python and the garbage of others
MAX_LINE = 8_000_000  # a report larger than this did not come from the runner
PAGE = 65536  # a WebAssembly page
REFUSED = "Access to this API has been restricted"  # Node's permission model said no


class RunFailed(RuntimeError):
    """A run that gave no report. `reason` is "time", "memory", "refused" (it reached for a
    process, a file or the network) or "crashed"; the message says what happened."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


class Harness:
    """What every sealed process shares: the Node command, the snapshot (made once) and each
    exercise's request data."""

    def __init__(self, exercises, time_limit):
        self.time_limit = time_limit
        node = shutil.which("node")
        if node is None or not PYODIDE.is_dir() or not SES.is_file():
            needs = "regrade needs Node.js, Pyodide and SES"
            raise SystemExit(f"{needs}: run `make regrade-setup` first")
        self.node = node
        self.exercises = exercises
        self.known = runner_data(exercises)
        self.data = {}  # exercise id -> its run_data, made when first asked
        self.folder = tempfile.TemporaryDirectory(prefix="regrade-")
        self.snapshot = Path(self.folder.name) / "runner.snapshot"
        self.snapshot.write_bytes(self._make())

    def _make(self):
        """The runner's memory, every module of it imported, before any learner code."""
        files = {
            str(path.relative_to(ROOT)): path.read_text()
            for path in sorted((ROOT / "runner").glob("*.py"))
        }
        made = subprocess.run(
            [self.node, *sealing_flags(self.node), str(HARNESS), "make"],
            input=(json.dumps({"files": files}) + "\n").encode(),
            capture_output=True,
            cwd=ROOT,
            timeout=START_LIMIT_S * 2,
        )
        if made.returncode != 0 or len(made.stdout) < PAGE:
            raise SystemExit(f"Pyodide could not start in Node: {made.stderr.decode()[-500:]}")
        return made.stdout

    def request(self, exercise_id, bodies):
        """The line that asks runner/seal.py for one run of `bodies` on `exercise_id`."""
        if exercise_id not in self.data:
            self.data[exercise_id] = run_data(self.known, self.exercises[exercise_id])
        asked = {"exercise": exercise_id, "bodies": bodies, "data": self.data[exercise_id]}
        return json.dumps(asked) + "\n"

    def command(self):
        flags = sealing_flags(self.node, self.snapshot)
        return [self.node, *flags, str(HARNESS), "run", str(self.snapshot)]

    def close(self):
        self.folder.cleanup()


class SealedRunner:
    """A sealed process for one hand-in after another (or a fuzz session's runs): started when
    first needed, replaced after a run that did not end well, ended by `close()`. Each hand-in
    begins with `fresh()`: a worker of its own, in a realm and a Python no other has touched."""

    def __init__(self, harness):
        self.harness = harness
        self.process = None
        self.lines = None
        self.ready = False  # whether a hand-in's worker waits for its next run

    def fresh(self):
        """Ends the last hand-in's worker, if any: the next run gets a new one."""
        if self.process and self.ready:
            self.process.stdin.write('{"fresh": true}\n')
            self.process.stdin.flush()
            self.ready = False

    def run(self, request):
        """The runner's report of one run, as JSON text, for `request` (a line of
        Harness.request's); raises RunFailed."""
        if self.process is None:
            self._start()
        if not self.ready:
            self._wait_ready()
        self.process.stdin.write(request)
        self.process.stdin.flush()
        answer = self._answer(self.harness.time_limit)
        if isinstance(answer.get("observation"), str):
            return answer["observation"]
        self.close()
        said = str(answer.get("crashed", "no report"))[:200]
        raise RunFailed("refused" if REFUSED in said else "crashed", said)

    def close(self):
        if self.process:
            self.process.kill()
            self.process.wait()
            self.process = None
        self.ready = False

    def _start(self):
        self.process = subprocess.Popen(
            self.harness.command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
        )
        self.lines = queue.Queue()
        threading.Thread(target=_read, args=(self.process, self.lines), daemon=True).start()

    def _wait_ready(self):
        try:
            answer = self._answer(START_LIMIT_S)
        except RunFailed as failed:
            raise RunFailed(failed.reason, f"Python could not be restored ({failed})") from None
        if answer.get("ready") is not True:
            self.close()
            said = str(answer.get("crashed", "no word why"))[:200]
            raise RunFailed("crashed", f"Python could not be restored ({said})")
        self.ready = True

    def _answer(self, limit):
        """The next line, within `limit` seconds and the process's memory cap."""
        deadline = time.monotonic() + limit
        while True:
            try:
                line = self.lines.get(timeout=min(0.05, max(deadline - time.monotonic(), 0)))
                break
            except queue.Empty:
                if resident_mb(self.process.pid) > PROCESS_MB:
                    self.close()
                    raise RunFailed("memory", f"its process passed {PROCESS_MB} MB") from None
                if time.monotonic() >= deadline:
                    self.close()
                    raise RunFailed("time", f"still running after {limit:g} s") from None
        if line is None or not line.endswith("\n"):
            code = self.process.poll()
            self.close()
            raise RunFailed("crashed", f"its Python ended (status {code})")
        try:
            return json.loads(line)
        except ValueError:
            self.close()
            raise RunFailed("crashed", "its report was not JSON") from None


def _read(process, lines):
    for line in iter(lambda: process.stdout.readline(MAX_LINE), ""):
        lines.put(line)
    lines.put(None)  # the process ended


def resident_mb(pid):
    """The process's resident memory in MB (Linux's /proc; 0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/statm").read_text().split()
    except OSError:
        return 0
    return int(fields[1]) * 4096 // 1_000_000


def sealing_flags(node, snapshot=None):
    """Node's permission model: read Pyodide, SES, the harness and the snapshot only; no code
    from strings; a run's Python capped at PYTHON_MB."""
    permission = "--permission" if node_major(node) >= 23 else "--experimental-permission"
    readable = [f"{PYODIDE.resolve()}/*", str(SES.resolve()), str(HARNESS)]
    readable += [str(snapshot)] if snapshot else []
    return [
        permission,
        "--allow-worker",  # a worker for each hand-in, under the same permissions
        *(f"--allow-fs-read={path}" for path in readable),
        "--disallow-code-generation-from-strings",
        f"--wasm-max-mem-pages={PYTHON_MB * 1024 * 1024 // PAGE}",
        "--no-warnings",
    ]


@cache
def node_major(node):
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
    return int(version.strip().lstrip("v").split(".")[0] or 0)

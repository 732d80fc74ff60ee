"""The runner's half, sealed in Node (runner/node.mjs), for hand-ins: a fresh Python for every
run, restored from a memory snapshot made once per regrade, in a process replaced after any
crash, time-out or memory cap.

What a run may use: `time_limit` seconds (the course's, from mkdocs.yml), counted from when a
restored Python is ready, so that starting is never charged to a run; PYTHON_MB of memory for
its Python (past that, Python raises MemoryError, as in a browser's worker); and its whole
process may hold PROCESS_MB, or it is ended and the run said to be over its memory.
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

from .runner_data import runner_data

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "runner" / "node.mjs"
PYODIDE = ROOT / "node_modules" / "pyodide"
START_LIMIT_S = 60  # a Python's restore: never charged to a run
PYTHON_MB = 256  # a run's Python: far more than a tiny graph needs
PROCESS_MB = 1536  # the whole Node process: Pyodide, its last Python and the garbage of others
MAX_LINE = 8_000_000  # a report larger than this did not come from the runner
PAGE = 65536  # a WebAssembly page


class RunFailed(RuntimeError):
    """A run that gave no report. `reason` is "time", "memory" or "crashed"; the message says
    what happened."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


class Harness:
    """What every sealed process shares: the Node command and the snapshot, made once."""

    def __init__(self, exercises, time_limit):
        self.time_limit = time_limit
        node = shutil.which("node")
        if node is None or not PYODIDE.is_dir():
            raise SystemExit("regrade needs Node.js and Pyodide: run `make regrade-setup` first")
        self.node = node
        files = {
            str(path.relative_to(ROOT)): path.read_text()
            for path in sorted((ROOT / "runner").glob("*.py"))
        }
        self.setup = json.dumps({"files": files}) + "\n"
        self.folder = tempfile.TemporaryDirectory(prefix="regrade-")
        self.snapshot = Path(self.folder.name) / "runner.snapshot"
        self.snapshot.write_bytes(self._make(files, runner_data(exercises)))

    def _make(self, files, data):
        """The runner's memory, imported with the exercises' data, before any learner code."""
        made = subprocess.run(
            [self.node, *sealing_flags(self.node), str(HARNESS), "make"],
            input=(json.dumps({"files": files, "data": data}) + "\n").encode(),
            capture_output=True,
            cwd=ROOT,
            timeout=START_LIMIT_S * 2,
        )
        if made.returncode != 0 or len(made.stdout) < PAGE:
            raise SystemExit(f"Pyodide could not start in Node: {made.stderr.decode()[-500:]}")
        return made.stdout

    def command(self):
        flags = sealing_flags(self.node, self.snapshot)
        return [self.node, *flags, str(HARNESS), "run", str(self.snapshot)]

    def close(self):
        self.folder.cleanup()


class SealedRunner:
    """One sealed process at a time, started when first needed and replaced after a run that
    did not end well."""

    def __init__(self, harness):
        self.harness = harness
        self.process = None
        self.lines = None

    def run(self, exercise_id, bodies):
        """The runner's report of one run, as JSON text; raises RunFailed."""
        if self.process is None:
            self._start()
        self._wait_ready()
        self.process.stdin.write(json.dumps({"exercise": exercise_id, "bodies": bodies}) + "\n")
        self.process.stdin.flush()
        answer = self._answer(self.harness.time_limit)
        if isinstance(answer.get("observation"), str):
            return answer["observation"]
        self.close()
        raise RunFailed("crashed", str(answer.get("crashed", "no report"))[:200])

    def close(self):
        if self.process:
            self.process.kill()
            self.process.wait()
            self.process = None

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
        self.process.stdin.write(self.harness.setup)
        self.process.stdin.flush()

    def _wait_ready(self):
        try:
            answer = self._answer(START_LIMIT_S)
        except RunFailed as failed:
            raise RunFailed(failed.reason, f"Python could not be restored ({failed})") from None
        if answer.get("ready") is not True:
            self.close()
            raise RunFailed("crashed", "Python could not be restored")

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
    """Node's permission model: read Pyodide, the harness and the snapshot only; no code from
    strings; a run's Python capped at PYTHON_MB."""
    permission = "--permission" if node_major(node) >= 23 else "--experimental-permission"
    readable = [f"{PYODIDE.resolve()}/*", str(HARNESS), *([str(snapshot)] if snapshot else [])]
    return [
        permission,
        *(f"--allow-fs-read={path}" for path in readable),
        "--disallow-code-generation-from-strings",
        f"--wasm-max-mem-pages={PYTHON_MB * 1024 * 1024 // PAGE}",
        "--no-warnings",
    ]


@cache
def node_major(node):
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
    return int(version.strip().lstrip("v").split(".")[0] or 0)

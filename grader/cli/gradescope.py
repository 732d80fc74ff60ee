"""A Gradescope autograder: `python -m grader gradescope` writes the zip (setup.sh,
run_autograder, the grader, the runner, the exercises and Pyodide), and its run_autograder runs
`python -m grader gradescope-run`, which grades the work file a learner submitted, sealed as a
regrade grades it, and writes results.json in the fields of Gradescope's autograder
specification: a score, and one test per exercise (name, score, max_score, status, output,
visibility).
"""

import json
import time
import zipfile
from pathlib import Path

from ..handin import course_id, learner
from .gradebook import feedback, points
from .regrade import files_in, regrade_file
from .roster import Person, Roster
from .sealed import PYODIDE, ROOT, SES, Harness, SealedRunner

NODE_VERSION = "20.20.2"  # Node.js for the autograder's image: the version tested here
SETUP = f"""#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (choose an Ubuntu
# 24.04 base image: its Python is 3.12; the grader needs 3.11 or newer), and Node.js
# {NODE_VERSION} from nodejs.org, checked against its published SHA-256 sums.
set -euo pipefail
apt-get update
apt-get install -y --no-install-recommends python3 curl xz-utils ca-certificates
python3 -c 'import sys; assert sys.version_info >= (3, 11), "the grader needs Python 3.11+"'
cd /tmp
base=https://nodejs.org/dist/v{NODE_VERSION}
file=node-v{NODE_VERSION}-linux-x64.tar.xz
curl -fsSLO "$base/$file"
curl -fsSL "$base/SHASUMS256.txt" | grep " $file\\$" | sha256sum -c -
tar -xJf "$file" -C /usr/local --strip-components=1
node --version
"""
RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission, from /autograder
cd /autograder/source
exec python3 -m grader gradescope-run /autograder/submission /autograder/results/results.json \\
    --time-limit {time_limit}{weights}
"""
METADATA = "submission_metadata.json"  # Gradescope's, in /autograder beside submission/
# every module, subpackages too (grader/kinds/, grader/cli/, grader/diagnosis/)
SOURCES = ("grader/**/*.py", "runner/**/*.py", "runner/node.mjs", "exercises/**/*")


def write_zip(out, time_limit, weights):
    """The autograder zip: what Gradescope's specification asks for at its root (setup.sh,
    run_autograder), and the course's files, laid out as in this repository."""
    given = "".join(f" --weight {name}={value:g}" for name, value in weights.items())
    files = [path for pattern in SOURCES for path in sorted(ROOT.glob(pattern)) if path.is_file()]
    files += sorted(path for path in PYODIDE.rglob("*") if path.is_file())
    files += [SES, SES.parent.parent / "package.json", SES.parent.parent / "LICENSE"]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        _script(archive, "setup.sh", SETUP)
        _script(archive, "run_autograder", RUN.format(time_limit=f"{time_limit:g}", weights=given))
        for path in files:
            if "__pycache__" not in path.parts:
                archive.write(path, str(path.relative_to(ROOT)))


def _script(archive, name, text):
    info = zipfile.ZipInfo(name)
    info.external_attr = 0o755 << 16
    archive.writestr(info, text)


def grade_submission(submission, results, exercises, weights, time_limit):
    """Grades the one work file in the folder `submission`; writes results.json to `results`.
    Returns 0 (Gradescope shows the learner what results.json says, a refusal included)."""
    started = time.monotonic()
    found = files_in([submission])
    if len(found) != 1:
        said = f"Submit exactly one work file (from “Download my work”); found {len(found)}."
        return _write(results, {"score": 0, "output": said, "tests": []})
    harness = Harness(exercises, time_limit)
    runner = SealedRunner(harness)
    try:
        graded = regrade_file(found[0], exercises, runner, course_id(exercises))
    finally:
        runner.close()
        harness.close()
    seconds = time.monotonic() - started
    return _write(results, result_json(graded, exercises, weights, seconds, submitters(submission)))


def submitters(submission):
    """Who submitted, as Gradescope's submission_metadata.json (beside the submission folder)
    names them: a (name, email, sid) for each of its users; none when it cannot be read."""
    try:
        found = json.loads((Path(submission).absolute().parent / METADATA).read_text("utf-8"))
        users = found.get("users") if isinstance(found, dict) else None
    except (OSError, ValueError):
        return ()
    return tuple(
        (learner(user.get("name")), learner(user.get("email")), learner(user.get("sid")))
        for user in (users if isinstance(users, list) else [])
        if isinstance(user, dict)
    )


def identity(graded, people):
    """Who results.json says was graded: Gradescope's submitters, and the learner text in the
    work file only where it names none of them (the file's name when it gives none)."""
    if not any(any(person) for person in people):
        return f"Graded the work of {graded.learner}."
    named = [
        f"{name} ({email})" if name and email else name or email or sid
        for name, email, sid in people
        if name or email or sid
    ]
    said = f"Graded the work of {' and '.join(named)}."
    typed = "" if graded.learner == Path(graded.file).stem else graded.learner
    forms = [(*person, *_reversed(person[0])) for person in people]
    gradescope = Roster("gradescope", (), [Person(0, "", (), names) for names in forms])
    if typed and gradescope.find(typed).person is None:
        said += f" The work file gives the name “{typed}”."
    return said


def _reversed(name):
    """`First Last` as `Last, First`, as a learner may type it."""
    first, _, last = name.rpartition(" ")
    return (f"{last}, {first}",) if first else ()


def result_json(graded, exercises, weights, seconds, people=()):
    """Gradescope's results.json for one Graded hand-in; `people` are Gradescope's
    submitters (`submitters`)."""
    if graded.problem:
        output = f"Your file could not be graded: {graded.problem}."
        return {"score": 0, "execution_time": round(seconds), "output": output, "tests": []}
    scores = points(graded, weights)
    tests = []
    for name, exercise in exercises.items():
        tab = graded.tabs.get(name)
        words = _section(feedback(graded, {name: exercise}, {name: weights[name]}))
        tests.append(
            {
                "name": f"{name} ({exercise.label})",
                "score": scores[name],
                "max_score": weights[name],
                "status": "passed" if tab and tab.verdict == "pass" else "failed",
                "output": words,
                "visibility": "visible",
            }
        )
    return {
        "score": sum(scores.values()),
        "execution_time": round(seconds),
        "output": " ".join([identity(graded, people), *graded.notes]),
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def _section(text):
    """A feedback file's words for its one exercise: from its heading on."""
    return text[text.index("## ") :].strip() if "## " in text else text.strip()


def _write(results, found):
    Path(results).parent.mkdir(parents=True, exist_ok=True)
    Path(results).write_text(json.dumps(found, indent=1), encoding="utf-8")
    return 0

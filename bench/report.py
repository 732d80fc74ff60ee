"""The benchmark's figures from its samples, and the table it prints."""

import math
import re
import statistics

KINDS = ("ours", "bare")
SCENARIOS = {
    "first": "first visit",
    "private": "private window",
    "repeat": "repeat visit",
    "in_order": "in order: read 20 s, Run",
}


def summary(values):
    values = sorted(values)
    return {
        "median": statistics.median(values),
        "p90": values[math.ceil(0.9 * len(values)) - 1],
        "min": values[0],
        "max": values[-1],
        "n": len(values),
    }


def network_figures(samples):
    """Per scenario, ours and bare, Python ready and the first verdict (the bare page's is its
    ready: its one runPython; it has no "in order": its ratio is to a first visit), and how many
    of ours were restored from the memory snapshot."""
    found = {}
    for scenario in SCENARIOS:
        visits = samples[scenario]
        ours = visits if scenario == "in_order" else visits["ours"]
        bare = summary(
            [
                v["ready_ms"]
                for v in samples["first" if scenario == "in_order" else scenario]["bare"]
            ]
        )
        found[scenario] = {
            "ready": {"ours": summary([v["ready_ms"] for v in ours]), "bare": bare},
            "verdict": {"ours": summary([v["verdict_ms"] for v in ours]), "bare": bare},
            "restored": [sum(bool(v["restored"]) for v in ours), len(ours)],
        }
    for scenario in ("first", "private"):
        visits = samples[scenario]
        if "sent_bytes" not in visits["ours"][0]:
            continue  # results.json from before first visits counted what was sent
        found[scenario]["downloads"] = {
            kind: summary([v["downloads"] for v in visits[kind]]) for kind in KINDS
        }
        found[scenario]["sent"] = {
            kind: summary([v["sent_bytes"] for v in visits[kind]]) for kind in KINDS
        }
        if samples.get("throttle"):
            # what the bytes sent take at the network's rate alone: a visit can hardly beat it
            mbit, _ = samples["throttle"]
            found[scenario]["over_transfer"] = {
                kind: summary(
                    [
                        v["verdict_ms" if kind == "ours" else "ready_ms"] / transfer_ms(v, mbit)
                        for v in visits[kind]
                    ]
                )
                for kind in KINDS
            }
    return found


def transfer_ms(visit, mbit):
    """How long the bytes the server sent for `visit` take at `mbit` Mbit/s."""
    return visit["sent_bytes"] * 8 / (mbit * 1e6) * 1000


# the parts of a verdict's time (bench/probe.js), as the table names them
VERDICT_PARTS = {
    "to_runner_ms": "click to runner",
    "runner_ms": "runner",
    "judge_ms": "judge",
    "drawn_ms": "drawn",
}


def figures(raw):
    """Medians and spreads of every sample in `raw` (see run.py), by figure: of the parts that
    were measured."""
    found = {}
    if "networks" in raw:
        found |= visit_figures(raw["networks"])
        found["read_first"] = {
            "read_s": raw["read_first"]["read_ms"] / 1000,
            "ms": summary(raw["read_first"]["ms"]),
        }
    if "lesson" in raw:
        found["lesson"] = lesson_figures(raw["lesson"])
    if "runs" in raw:
        found["verdict"] = verdict_figures(raw["runs"]["verdict"])
        found["runs_main_thread"] = raw["runs"]["main_thread"]
    if "training" in raw:
        found["training"] = raw["training"]
    if "microgpt" in raw:
        found["microgpt"] = raw["microgpt"]
    return found


def visit_figures(networks):
    first = networks["loopback"]["first"]
    memory = {kind: [v["memory"] for v in first[kind] if v.get("memory")] for kind in KINDS}
    return {
        "networks": {label: network_figures(samples) for label, samples in networks.items()},
        "widget_shown_ms": summary([v["mounted_ms"] for v in first["ours"]]),
        "after_ready_ms": summary([v["after_ready_ms"] for v in first["ours"]]),
        "back_to_back_ms": summary([ms for v in first["ours"] for ms in v["back_to_back_ms"]]),
        "main_thread": {
            **{
                kind: {
                    key: summary([v[key] for v in first[kind]])
                    for key in ("longest_task_ms", "blocking_ms")
                }
                for kind in KINDS
            },
            "shown_to_ready": summary([v.get("usable_longest_task_ms", 0) for v in first["ours"]]),
        },
        "memory": {kind: summary(values) for kind, values in memory.items() if values},
        "phases": {
            scenario: phase_figures(networks["loopback"][scenario]["ours"])
            for scenario in ("first", "repeat")
        },
    }


# a worker's start-up, in order (widget/src/worker/load-python.js): ms from the worker's start
PHASES = ("files", "read", "python", "warm", "ready")


def phase_figures(visits):
    """The median of each phase's end, by role, over `visits` that reported phases."""
    found = {}
    for role in ("judge", "runner"):
        reported = [v["phases"][role] for v in visits if (v.get("phases") or {}).get(role)]
        found[role] = {
            phase: statistics.median(ends)
            for phase in PHASES
            if (ends := [r[phase] for r in reported if phase in r])
        }
    return found


def lesson_figures(lesson):
    return {
        how: {
            key: summary([v[key] for v in lesson[how]])
            for key in ("fcp_ms", "longest_task_ms", "blocking_ms")
        }
        | {"loaded_ahead": [sum(v["loaded_ahead"] for v in lesson[how]), len(lesson[how])]}
        for how in lesson
    }


def verdict_figures(runs):
    """Each tab's time to a verdict, and its parts' medians (of the runs that were judged)."""
    found = {}
    for label, timings in runs.items():
        judged = [t for t in timings if "judge_ms" in t]
        parts = (
            {key: statistics.median(t[key] for t in judged) for key in VERDICT_PARTS}
            if judged
            else {}
        )
        found[label] = summary([t["ms"] for t in timings]) | {"parts": parts}
    return found


def count(value):
    return f"{value:,.0f}"


def times(value):
    return f"{value:.2f}×"


def ms(value):
    return f"{value:,.0f} ms"


def kb(size):
    return f"{size / 1000:,.0f} KB"


def mb(size):
    return f"{size / 1e6:,.0f} MB"


def spread(s, unit=ms):
    low = re.match(r"[-\d,.]*", unit(s["min"])).group()  # the number, its unit said once
    return f"{unit(s['median'])} ({low}–{unit(s['max'])})"


def print_table(results, where):
    if "networks" in results:
        print_visits(results)
    if "lesson" in results:
        print_lesson(results["lesson"])
    if "verdict" in results:
        print_verdicts(results["verdict"], results["runs_main_thread"])
    if "training" in results:
        print_training(results["training"])
    if "microgpt" in results:
        print_microgpt(results["microgpt"])
    if "bytes" in results:
        print_bytes(results["bytes"])
    m = results["machine"]
    print(
        f"\n{m['cpus']} CPUs, Chromium {m['chromium']}, Pyodide {m['pyodide']}, "
        f"files {'gzipped' if m.get('compressed') else 'as stored'}, "
        f"load average at start {m['load_average_at_start'][0]:.1f}; samples in {where}"
    )


def row(name, ours, bare=None, ratio="", unit=ms):
    bare = spread(bare, unit) if bare else ""
    print(f"{name:<46}{spread(ours, unit):>31}{bare:>31}{ratio:>8}")


def print_visits(results):
    print(f"\n{'median (min–max)':<46}{'ours':>31}{'bare Pyodide':>31}{'ratio':>8}")
    for label, network in results["networks"].items():
        print(f"{label[0].upper()}{label[1:]}")
        for scenario, name in SCENARIOS.items():
            s = network[scenario]
            restored, total = s["restored"]
            print(f"  {name} (restored {restored}/{total})")
            for figure, what in (("ready", "Python ready"), ("verdict", "first verdict")):
                if scenario != "in_order" or figure == "verdict":
                    ours, bare = s[figure]["ours"], s[figure]["bare"]
                    ratio = f"{ours['median'] / bare['median']:.2f}"
                    row(f"    {what}", ours, bare, ratio)
            if "sent" in s:
                row("    bytes sent (until settled)", *s["sent"].values(), unit=kb)
            if "downloads" in s:
                row("    most downloads of one file", *s["downloads"].values(), unit=count)
            if "over_transfer" in s:
                row("    over the bytes' transfer time", *s["over_transfer"].values(), unit=times)
    print("  (bare Pyodide: its ready, its one runPython, in both rows; in order: its first visit)")
    row("First verdict after Python ready, first visit", results["after_ready_ms"])
    row("Runs back to back, first visit", results["back_to_back_ms"])
    read = results["read_first"]
    row(f"First Run after reading {read['read_s']:g} s, first visit", read["ms"])
    row("Widget shown, first visit", results["widget_shown_ms"])
    main = results["main_thread"]
    row(
        "Longest main-thread task, loading",
        main["ours"]["longest_task_ms"],
        main["bare"]["longest_task_ms"],
    )
    row("Total blocking time, loading", main["ours"]["blocking_ms"], main["bare"]["blocking_ms"])
    row("Longest task, widget shown to Python ready", main["shown_to_ready"])
    if results["memory"]:
        row(
            "Memory, settled after the runs (page, workers)",
            results["memory"]["ours"],
            results["memory"].get("bare"),
            unit=mb,
        )
    if results.get("phases"):
        print_phases(results["phases"])


def print_phases(phases):
    title = "Where a worker's start went, loopback"
    print(f"\n{title:<38}" + "".join(f"{phase:>10}" for phase in PHASES))
    print("  (medians; ms from the worker's start to each phase's end)")
    for scenario in ("first", "repeat"):
        for role, ends in phases[scenario].items():
            cells = "".join(f"{ms(ends[p]) if p in ends else '—':>10}" for p in PHASES)
            print(f"{f'  {SCENARIOS[scenario]}, {role}':<38}{cells}")


def print_lesson(lesson):
    print(
        f"\n{'The lesson before the exercise page':<46}{'loading ahead':>31}{'not (save data)':>31}"
    )
    for key, name in (
        ("fcp_ms", "First contentful paint"),
        ("longest_task_ms", "Longest main-thread task"),
        ("blocking_ms", "Total blocking time"),
    ):
        row(name, lesson["ahead"][key], lesson["not"][key])
    loaded, total = lesson["ahead"]["loaded_ahead"]
    print(f"{'  Python loaded ahead':<46}{f'{loaded} of {total}':>31}")


def print_verdicts(verdicts, main_thread):
    print(f"\n{'Run to verdict':<46}{'median':>12}{'p90':>12}{'max':>12}{'runs':>8}")
    for label, s in verdicts.items():
        print(f"{label:<46}{ms(s['median']):>12}{ms(s['p90']):>12}{ms(s['max']):>12}{s['n']:>8}")
    print(
        f"{'Longest main-thread task during the runs':<46}{ms(main_thread['longest_task_ms']):>12}"
    )
    parts = [s["parts"] for s in verdicts.values() if s["parts"]]
    if parts:
        print("  where the time goes (medians of the tabs' medians):")
        for key, name in VERDICT_PARTS.items():
            print(f"{'    ' + name:<46}{ms(statistics.median(p[key] for p in parts)):>12}")


def print_pace(title, chromium, cpython):
    """A trainer's header: its steps per second in Chromium and in CPython."""
    print(f"\n{title:<46}{'Chromium':>12}{'CPython':>12}{'ratio':>8}")
    browser, native = chromium["steps_per_s"], cpython["steps_per_s"]
    print(f"{'  steps per second':<46}{browser:>12.1f}{native:>12.1f}{native / browser:>8.2f}")


def print_training(training):
    chromium = training["chromium"]
    print_pace("Training (default model, reference closures)", chromium, training["cpython"])
    print(f"{'  Train to the first boundary drawn':<46}{ms(chromium['first_boundary_ms']):>12}")
    to_95 = chromium["to_95_ms"]
    print(f"{'  Train to 95% accuracy':<46}{ms(to_95) if to_95 else 'not reached':>12}")


def print_microgpt(microgpt):
    chromium = microgpt["chromium"]
    print_pace("microgpt (default model, the learner's tuples)", chromium, microgpt["cpython"])
    print(f"{'  Train to the first names shown':<46}{ms(chromium['first_names_ms']):>12}")
    print(f"{'  Train to step 1,000':<46}{ms(chromium['total_ms']):>12}")
    print(f"{'  smoothed loss at step 1,000':<46}{chromium['final_loss']:>12.4f}")
    print(f"{'  longest main-thread task while training':<46}{ms(chromium['longest_task_ms']):>12}")
    memory = chromium["memory"]
    print(f"{'  memory at step 1,000':<46}{mb(memory) if memory else 'n/a':>12}")


def print_bytes(sizes):
    print(f"\n{'Bytes':<46}{'raw':>12}{'gzip':>12}{'brotli':>12}")
    for key, name in (("own_js_css", "The site's own JS and CSS"), ("first_visit", "First visit")):
        s = sizes[key]
        print(f"{name:<46}{kb(s['raw']):>12}{kb(s['gzip']):>12}{kb(s['brotli']):>12}")

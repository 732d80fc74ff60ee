"""The benchmark's figures from its samples, and the table it prints."""

import math
import statistics

KINDS = ("ours", "bare")
READY = {
    "first": "Python ready, first visit",
    "repeat": "Python ready, repeat visit",
    "throttled": "Python ready, first visit, {throttle}",
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


def figures(raw):
    """Medians and spreads of every sample in `raw` (see run.py), by figure."""
    first = raw["first"]
    return {
        "ready": {
            key: {kind: summary([v["ready_ms"] for v in raw[key][kind]]) for kind in KINDS}
            for key in READY
            if key in raw
        },
        "widget_shown_ms": summary([v["mounted_ms"] for v in first["ours"]]),
        "restored": {  # visits whose Python came from the memory snapshot, of all
            key: [sum(bool(v["restored"]) for v in raw[key]["ours"]), len(raw[key]["ours"])]
            for key in READY
            if key in raw
        },
        "main_thread": {
            **{
                kind: {
                    key: summary([v[key] for v in first[kind]])
                    for key in ("longest_task_ms", "blocking_ms")
                }
                for kind in KINDS
            },
            "shown_to_ready": summary([v.get("usable_longest_task_ms", 0) for v in first["ours"]]),
            "runs": raw["runs"]["main_thread"],
        },
        "verdict": {
            label: summary([t["ms"] for t in timings])
            for label, timings in raw["runs"]["verdict"].items()
        },
    }


def ms(value):
    return f"{value:,.0f} ms"


def kb(size):
    return f"{size / 1000:,.0f} KB"


def spread(s):
    return f"{ms(s['median'])} ({s['min']:,.0f}–{s['max']:,.0f})"


def print_table(results, throttle, where):
    def row(name, ours, bare=None, ratio=""):
        print(f"{name:<46}{spread(ours):>28}{spread(bare) if bare else '':>28}{ratio:>8}")

    print(f"\n{'median (min–max)':<46}{'ours':>28}{'bare Pyodide':>28}{'ratio':>8}")
    for key, name in READY.items():
        if key in results["ready"]:
            ours, bare = results["ready"][key]["ours"], results["ready"][key]["bare"]
            ratio = f"{ours['median'] / bare['median']:.2f}"
            row(name.format(throttle=throttle), ours, bare, ratio)
    restored = ", ".join(
        f"{key} {count} of {total}" for key, (count, total) in results["restored"].items()
    )
    print(f"{'  restored from the memory snapshot':<46}{restored:>28}")
    row("Widget shown, first visit", results["widget_shown_ms"])
    main = results["main_thread"]
    row(
        "Longest main-thread task, loading",
        main["ours"]["longest_task_ms"],
        main["bare"]["longest_task_ms"],
    )
    row("Total blocking time, loading", main["ours"]["blocking_ms"], main["bare"]["blocking_ms"])
    row("Longest task, widget shown to Python ready", main["shown_to_ready"])

    print(f"\n{'Run to verdict':<46}{'median':>12}{'p90':>12}{'max':>12}{'runs':>8}")
    for label, s in results["verdict"].items():
        print(f"{label:<46}{ms(s['median']):>12}{ms(s['p90']):>12}{ms(s['max']):>12}{s['n']:>8}")
    print(
        f"{'Longest main-thread task during the runs':<46}{ms(main['runs']['longest_task_ms']):>12}"
    )

    print(f"\n{'Bytes':<46}{'raw':>12}{'gzip':>12}{'brotli':>12}")
    for key, name in (("own_js_css", "The site's own JS and CSS"), ("first_visit", "First visit")):
        s = results["bytes"][key]
        print(f"{name:<46}{kb(s['raw']):>12}{kb(s['gzip']):>12}{kb(s['brotli']):>12}")
    m = results["machine"]
    print(
        f"\n{m['cpus']} CPUs, Chromium {m['chromium']}, Pyodide {m['pyodide']}, "
        f"load average at start {m['load_average_at_start'][0]:.1f}; samples in {where}"
    )

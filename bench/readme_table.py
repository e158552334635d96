"""The server tables of docs/performance.md, from one or more results of bench/server_bench.py (``--json FILE``).

    .venv/bin/python bench/readme_table.py run1.json run2.json run3.json

Prints Markdown: a summary with one column per run (capacity, saturation, CPU per move, memory,
watcher lag, echo, the machine and how busy it was), then every run's steps.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _n(v: Any, digits: int = 0) -> str:
    if v is None:
        return "-"
    if isinstance(v, int | float):
        return f"{v:,.{digits}f}"
    return str(v)


def _step_at(run: dict[str, Any], rate: float) -> dict[str, Any] | None:
    for s in run["steps"]:
        if s["offered_per_second"] == rate:
            step: dict[str, Any] = s
            return step
    return None


def _title(run: dict[str, Any], path: str) -> str:
    return f"{Path(path).stem}: {run['processes']} process{'es' if run['processes'] > 1 else ''}"


def summary(runs: list[tuple[str, dict[str, Any]]]) -> list[str]:
    head = "| figure | " + " | ".join(_title(r, p) for p, r in runs) + " | target |"
    lines = [head, "|" + " --- |" * (len(runs) + 2)]

    def row(name: str, target: str, fn: Any) -> None:
        lines.append(f"| {name} | " + " | ".join(fn(r) for _, r in runs) + f" | {target} |")

    def at(rate: float, key: str, digits: int = 0) -> Any:
        def get(r: dict[str, Any]) -> str:
            s = _step_at(r, rate)
            return "-" if s is None else _n(s[key], digits)

        return get

    def lag(r: dict[str, Any], rate: float) -> str:
        s = _step_at(r, rate)
        if s is None:
            return "-"
        a = s["watch"]["ack_to_watcher_ms"]
        return f"{_n(a['p50'])} / {_n(a['p99'])} ms"

    def cap(r: dict[str, Any]) -> str:
        c = r.get("capacity_per_second")
        return "none of the steps" if c is None else _n(c)

    def errors(r: dict[str, Any]) -> str:
        c = r.get("capacity_per_second") or 0
        good = [s for s in r["steps"] if s["offered_per_second"] <= c]
        return _n(sum(s["error_count"] + sum(s["refused_by_engine"].values()) for s in good))

    row("capacity: highest offered moves/s with p99 <= 50 ms", ">= 5,000", cap)
    row(
        "saturation: acked moves/s, every player as fast as answers come",
        "",
        lambda r: _n((r.get("saturated") or {}).get("acked_per_second")),
    )
    for rate in (1000.0, 2000.0):
        row(
            f"p50 / p99 at {rate:,.0f} offered (ms)",
            "p99 <= 50",
            lambda r, rate=rate: (
                lambda s: "-" if s is None else f"{_n(s['ack_ms']['p50'])} / {_n(s['ack_ms']['p99'])}"
            )(_step_at(r, rate)),
        )
    row("server CPU per move at 2,000/s (us)", "<= 100", at(2000.0, "server_us_per_move"))
    row("server CPU per move, saturated (us)", "", lambda r: _n((r.get("saturated") or {}).get("server_us_per_move")))
    row("PostgreSQL CPU per move at 2,000/s (us)", "<= 60", at(2000.0, "postgres_us_per_move"))
    row(
        "commits / s and moves per commit at 2,000/s",
        "",
        lambda r: (
            lambda s: "-" if s is None else f"{_n(s.get('commits_per_second'))} of {_n(s.get('moves_per_commit'), 1)}"
        )(_step_at(r, 2000.0)),
    )
    row("watcher lag p50 / p99 at 2,000/s (ack to the update showing it)", "p99 <= 1 s", lambda r: lag(r, 2000.0))
    row("errors up to the capacity", "0", errors)
    row(
        "server memory per connected player (KiB RSS)",
        "<= 100",
        lambda r: (
            f"{_n(r['memory']['kib_per_player'], 1)} ({_n(r['memory']['kib_per_player_after_play'], 1)} after play)"
        ),
    )
    row(
        "load generator CPU per move at 2,000/s (us); its core's use",
        "",
        lambda r: (lambda s: "-" if s is None else f"{_n(s['loadgen_us_per_move'])}; {_n(s['loadgen_cpu_percent'])}%")(
            _step_at(r, 2000.0)
        ),
    )
    row(
        "same-stack echo: messages/s; server CPU per message (us)",
        "",
        lambda r: (
            "-"
            if not r.get("echo")
            else f"{_n(r['echo']['messages_per_second'])}; {_n(r['echo']['server_us_per_message'])}"
        ),
    )
    row(
        "machine: whole-machine CPU during the 2,000/s step (% of one core)",
        "",
        lambda r: at(2000.0, "machine_cpu_percent")(r),
    )
    row("load average before the run", "", lambda r: " ".join(f"{x:.1f}" for x in r["machine"]["load_average_before"]))
    return lines


def steps(path: str, run: dict[str, Any]) -> list[str]:
    lines = [
        f"{_title(run, path)} ({run['when']}, {run['machine']['cores']} x {run['machine']['cpu']}):",
        "",
        "| offered / s | acked / s | p50 ms | p99 ms | server us/move | PostgreSQL us/move | commits/s (moves each) "
        "| watcher lag p50 / p99 ms | generator CPU | errors | moves due but not sent (server behind) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    rows = list(run["steps"]) + ([run["saturated"]] if run.get("saturated") else [])
    for s in rows:
        a = s["watch"]["ack_to_watcher_ms"]
        behind = s["errors"].get("not_sent_in_time", 0)
        errors = s["error_count"] - behind + sum(s["refused_by_engine"].values())
        lines.append(
            f"| {_n(s['offered_per_second']) if s['offered_per_second'] else 'as fast as answered'} "
            f"| {_n(s['acked_per_second'])} | {_n(s['ack_ms']['p50'])} | {_n(s['ack_ms']['p99'])} "
            f"| {_n(s['server_us_per_move'])} | {_n(s['postgres_us_per_move'])} "
            f"| {_n(s.get('commits_per_second'))} ({_n(s.get('moves_per_commit'), 1)}) "
            f"| {_n(a['p50'])} / {_n(a['p99'])} | {_n(s['loadgen_cpu_percent'])}% | {errors} | {_n(behind)} |"
        )
    return lines


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    runs = [(p, json.loads(Path(p).read_text())) for p in argv]
    out = summary(runs)
    for p, r in runs:
        out += ["", *steps(p, r)]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

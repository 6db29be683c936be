"""A digest of every game a tournament stores, per game id: the check that a
refactoring changed no record.

Plays FILE with a fixed key into a scratch results folder through the
``arena`` command of the interpreter running this script (so a checkout with
its own ``.venv`` plays its own code), exports the store and hashes each
game's deterministic fields (the deal, options, seats' bots, scores, ranks,
faults and moves; not ids, clocks or timestamps), in key order.  Two trees
whose digests agree stored the same games::

    .venv/bin/python tools/records_digest.py tournaments/quick.toml --deals 100
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

#: fields of an exported game that vary from run to run
VOLATILE = {"id", "finished", "duration"}
VOLATILE_SEAT = {"time_used"}
KEY = "5eed" * 16


def digests(tournament: Path, deals: int | None, workers: int) -> dict[str, tuple[int, int, str]]:
    arena = [sys.executable, "-m", "arena"]
    with tempfile.TemporaryDirectory() as scratch:
        text = tournament.read_text()
        if deals is not None:
            text = re.sub(r"(?m)^deals\s*=\s*\d+", f"deals = {deals}", text)
        copy = Path(scratch, tournament.name)
        copy.write_text(text)
        results = Path(scratch, "results")
        subprocess.run(
            arena
            + [
                "tournament",
                str(copy),
                "--results",
                str(results),
                "--key",
                KEY,
                "--quiet",
                "--workers",
                str(workers),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        exported = subprocess.run(
            arena + ["export", str(results)], check=True, capture_output=True, text=True
        ).stdout
    games: dict[str, list[tuple[str, str]]] = defaultdict(list)
    faults: dict[str, int] = defaultdict(int)
    for line in exported.splitlines():
        game = json.loads(line)
        for name in VOLATILE:
            game.pop(name, None)
        for seat in game["seats"]:
            for name in VOLATILE_SEAT:
                seat.pop(name, None)
        games[game["game"]].append((game["key"], json.dumps(game, sort_keys=True)))
        faults[game["game"]] += sum(seat["fault"] is not None for seat in game["seats"])
    return {
        name: (
            len(rows),
            faults[name],
            hashlib.sha256("\n".join(text for _, text in sorted(rows)).encode()).hexdigest()[:16],
        )
        for name, rows in sorted(games.items())
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tournament", type=Path)
    parser.add_argument("--deals", type=int, help="deals per table (overrides the file)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    for name, (count, faulted, digest) in digests(
        args.tournament, args.deals, args.workers
    ).items():
        # a fault (a bot out of time on a loaded machine) changes a record
        print(f"{name:20} {count:6} games {faulted:4} faults  {digest}")


if __name__ == "__main__":
    main()

"""The child side of sandboxed plugin discovery (:mod:`arena.plugins.sandboxed`).

Run as ``python -I arena/plugins/host.py DISTRIBUTION`` inside the bot sandbox:
loads that distribution's plugins of the ``arena`` entry-point group, as the
arena would, and prints what they register as one JSON line on stdout --
launch specs as plain data, the errors as one-line texts, and the ids of any
games (which a third-party bot plugin may not add).  The plugin's own code
runs only here, never in the arena process.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from importlib import metadata


def main() -> None:
    wire = sys.stdout
    sys.stdout = sys.stderr  # a plugin's print must not corrupt the answer
    from arena import add_sites
    from arena.plugins import GROUP, Registry, one_line

    add_sites()  # where the distribution may be installed
    registry = Registry()
    dist = metadata.distribution(sys.argv[-1])
    for point in sorted(dist.entry_points.select(group=GROUP), key=lambda p: p.name):
        try:
            module = point.load()
        except Exception as error:
            registry.errors.append(f"plugin '{point.name}': {one_line(error)}")
            continue
        registry.add_plugin(point.name, module)
    wire.write(
        json.dumps(
            {
                "bots": [
                    dict(asdict(spec), plugin=registry.origin[f"bot:{name}"])
                    for name, spec in registry.bots.items()
                ],
                "games": sorted(registry.games),
                "errors": registry.errors,
            }
        )
        + "\n"
    )
    wire.flush()


if __name__ == "__main__":
    main()

"""What a strict-sandboxed bot may read of the host's Python installation.

Every installed bot distribution lives in the same site-packages, and its
files (code, weights) are a rival's to read if they are mounted.  So the
strict sandbox mounts, besides the system folders, only:

* the interpreter and the standard library, never the site folders that come
  with them (a bot installed system-wide is hidden like any other);
* the bot kit: of the arena's own distribution, the three modules that
  ``python -m arena.botkit`` imports, and msgpack;
* for a Python bot (``module:Class``), the distribution that provides its
  module and the closure of that distribution's declared requirements
  (``importlib.metadata``: its ``files``, editable installs' source folders).
  The arena's own distribution, when in that closure, gives the bot kit, the
  engines, their contract (``arena/game/__init__.py``) and the built-in bots -- not
  the referee, and not the referee's own requirements;
* for a command bot, the files its command line names (each file alone, not
  its folder) and the ``files`` the tournament lists for it;
* for the plugin host (:mod:`arena.plugins.host`), the plugin API and the
  closure of the distribution whose plugins it loads.

Anything of another installed distribution that lies inside a folder mounted
this way (a bot's source folder inside another's editable checkout) is
hidden again by a mask.
"""

from __future__ import annotations

import compileall
import functools
import importlib
import importlib.util
import json
import os
import site
import sys
import sysconfig
from dataclasses import dataclass
from importlib import metadata
from importlib.util import find_spec

from arena import DISTRIBUTION

#: the arena package's folder, and the plugin host's script in it
ARENA = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLUGIN_HOST = os.path.join(ARENA, "plugins", "host.py")
#: what a bot may import of the arena, whole packages: the bot kit (which
#: ``python -m arena.botkit`` runs, with the wire protocol and its message types)
KIT_MODULES = ("__init__.py", "botkit")
KIT_REQUIREMENTS = ("msgpack",)
#: what the plugin host (:mod:`arena.plugins.host`) imports besides the kit:
#: the plugin API and its one requirement
HOST_MODULES = ("plugins", "game")
HOST_REQUIREMENTS = ("pluggy",)
#: what the arena's own bots import besides the kit: the engines (a game's
#: rules engine and the parts its unit names, such as its RL encoding, are a
#: bot's to use), the engine contract they are written against (the
#: :mod:`arena.game` package), the RL kit a trained policy plays through
#: (arena.rl.policy_bot) and what those need
BOT_PACKAGES = ("engines", "bots")
BOT_MODULES = ("game", "rl")
BOT_REQUIREMENTS = ("numpy",)
SYSTEM = ("/usr", "/etc")


@dataclass(frozen=True)
class FileView:
    """What to mount, in this order: ``sites`` (site folders of the system
    and the interpreter, covered by an empty folder), ``binds`` (host paths
    bound read-only at the same place, some inside those sites) and
    ``masks`` (another distribution's paths inside a bind, hidden again)."""

    sites: tuple[str, ...]
    binds: tuple[str, ...]
    masks: tuple[str, ...]


def canonicalize_name(name: str) -> str:
    """PEP 503's form of a distribution name (packaging's, imported only
    when a view is worked out: it costs every ``arena`` command tens of ms)."""
    from packaging.utils import canonicalize_name as canonical

    return canonical(name)


def _own_sites() -> set[str]:
    """The interpreter's own site folders (and the user's, when enabled)."""
    sites = set(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        sites.add(site.getusersitepackages())
    return sites


def _search_path() -> list[str]:
    """Where distributions are looked up: the path a fresh interpreter has,
    from its first site folder on (with what ``.pth`` files add after it, and
    site folders added at run time) -- not the folders a script or a test
    runner put in front (a checkout's ``*.egg-info`` there is no install)."""
    sites = _own_sites()
    first = next((i for i, p in enumerate(sys.path) if p in sites), len(sys.path))
    return [p for p in sys.path[first:] if os.path.isabs(p) and os.path.isdir(p)]


def run_time_sites() -> list[str]:
    """Folders of installed distributions (``*.dist-info``) on the search
    path besides the interpreter's own site folders: ones ``site.addsitedir``
    added at run time (an environment layered so, a test session's
    throw-away one).  What is installed there counts as installed, for a
    view as for the referee; a bot's or plugin host's fresh interpreter
    would not have them, so it is given them (``arena.SITES_VARIABLE``)."""
    own = _own_sites()
    return [p for p in _search_path() if p not in own and _holds_distributions(p)]


def _holds_distributions(folder: str) -> bool:
    try:
        return any(name.endswith(".dist-info") for name in os.listdir(folder))
    except OSError:
        return False


@functools.lru_cache(maxsize=1)
def _distributions() -> dict[str, metadata.Distribution]:
    """Installed distributions by canonical name, the first on the path winning."""
    found: dict[str, metadata.Distribution] = {}
    for dist in metadata.distributions(path=_search_path()):
        name = dist.metadata["Name"]
        if name:
            found.setdefault(canonicalize_name(name), dist)
    return found


def _editable_root(dist: metadata.Distribution) -> str | None:
    try:
        direct = json.loads(dist.read_text("direct_url.json") or "{}")
    except (OSError, ValueError):
        return None
    url = direct.get("url", "")
    if direct.get("dir_info", {}).get("editable") and url.startswith("file://"):
        return url[len("file://") :]
    return None


@functools.cache
def _top_names(dist: metadata.Distribution) -> tuple[str, ...]:
    """The import names a distribution provides (worked out once per
    process and distribution: a bot's view asks for every one's)."""
    names = (dist.read_text("top_level.txt") or "").split()
    if names:
        return tuple(names)
    tops = {str(f).split("/")[0] for f in dist.files or ()}
    return tuple(
        sorted(
            t.removesuffix(".py")
            for t in tops
            if not t.endswith((".dist-info", ".egg-info", ".pth", ".data")) and t != ".."
        )
    )


def _editable_sources(dist: metadata.Distribution) -> list[str]:
    """The package folders of an editable install (outside site-packages)."""
    root = _editable_root(dist)
    if root is None:
        return []
    candidates = [
        os.path.join(base, top + ext)
        for top in _top_names(dist)
        for base in (root, os.path.join(root, "src"))
        for ext in ("", ".py")
    ]
    return [path for path in candidates if os.path.exists(path)] or [root]


@functools.cache
def _site_files(name: str) -> dict[str, list[str]]:
    """A distribution's installed files in its site folder, by top-level
    entry (its RECORD read once per process: every view and the owners'
    table need it; read only)."""
    dist = _distributions()[name]
    site_dir = os.path.abspath(str(dist.locate_file("")))
    inside = site_dir + os.sep
    entries: dict[str, list[str]] = {}
    for file in dist.files or ():
        # a RECORD path is relative to the site folder: normalised, it is
        # inside unless it climbs out ("../../bin/arena"); one join and no
        # relpath per file (relpath would slow the reading: docs/performance.md)
        relative = os.path.normpath(str(file))
        if os.path.isabs(relative):
            path = relative
            if not path.startswith(inside):
                continue
            relative = path[len(inside) :]
        elif (
            relative == os.curdir
            or relative == os.pardir
            or relative.startswith(os.pardir + os.sep)
        ):
            continue
        else:
            path = inside + relative
        entries.setdefault(inside + relative.split(os.sep)[0], []).append(path)
    return entries


@functools.lru_cache(maxsize=1)
def _owners() -> dict[str, set[str]]:
    """Every top-level site entry and editable source, and who installed it."""
    owners: dict[str, set[str]] = {}
    for name, dist in _distributions().items():
        for top in list(_site_files(name)) + _editable_sources(dist):
            owners.setdefault(top, set()).add(name)
    return owners


def _paths_of(name: str) -> list[str]:
    """What to mount for one distribution: its top-level site entries (its
    own files alone where another distribution shares the entry, as in a
    namespace package) and its editable source folders."""
    dist = _distributions()[name]
    paths = []
    for top, files in _site_files(name).items():
        paths += [top] if _owners().get(top) == {name} else [f for f in files if os.path.exists(f)]
    return paths + _editable_sources(dist)


def _package_location(name: str) -> list[str]:
    """Where the top-level module ``name`` lives, found without importing it
    (finding a top-level module runs none of its code)."""
    try:
        spec = find_spec(name)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return list(spec.submodule_search_locations)
    return [spec.origin] if spec.origin and os.path.exists(spec.origin) else []


def _arena_paths(with_bots: bool) -> list[str]:
    """The arena's own distribution as a bot sees it: the bot kit (and the
    engines and built-in bots for its bots), plus the files that make it
    importable (an editable install's finder, its metadata) -- never the
    referee's modules."""
    if DISTRIBUTION not in _distributions():
        return []
    packages = {
        os.path.realpath(p) for top in ("arena", *BOT_PACKAGES) for p in _arena_package(top)
    }
    paths = [p for p in _paths_of(DISTRIBUTION) if os.path.realpath(p) not in packages]
    paths += [os.path.join(ARENA, module) for module in KIT_MODULES]
    if with_bots:
        paths += [os.path.join(ARENA, module) for module in BOT_MODULES]
        paths += [p for top in BOT_PACKAGES for p in _arena_package(top)]
    return paths


def _arena_package(name: str) -> list[str]:
    """Where one of the arena's own packages lives (trusted code: imported,
    as the plugin host already has, rather than looked for on a path a test
    runner may have put a folder of the same name on)."""
    return list(importlib.import_module(name).__path__)


def _requirements(name: str) -> list[str]:
    """The installed distributions ``name`` declares it needs (markers
    evaluated for this interpreter, extras not taken).  The arena's own needs
    are the referee's; a bot needs only the kit's."""
    from packaging.requirements import InvalidRequirement, Requirement

    if name == DISTRIBUTION:
        return [n for n in KIT_REQUIREMENTS + BOT_REQUIREMENTS if n in _distributions()]
    needed = []
    for line in _distributions()[name].requires or ():
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            needed.append(canonicalize_name(requirement.name))
    return [n for n in needed if n in _distributions()]


def closure(names: list[str]) -> set[str]:
    """The distributions and everything they require, transitively."""
    seen: set[str] = set()
    pending = [canonicalize_name(n) for n in names if canonicalize_name(n) in _distributions()]
    while pending:
        name = pending.pop()
        if name not in seen:
            seen.add(name)
            pending += _requirements(name)
    return seen


def provides(name: str, module: str) -> bool:
    """Whether distribution ``name`` installs top-level module ``module``."""
    dist = _distributions().get(canonicalize_name(name))
    return dist is not None and module in _top_names(dist)


def owns(name: str, path: str) -> bool:
    """Whether ``path`` is one of distribution ``name``'s own files (or the
    system's, or the interpreter): what a bot plugin's command may name."""
    dist = canonicalize_name(name)
    if dist not in _distributions():
        return False
    real = os.path.realpath(path)
    mine = [os.path.realpath(p) for p in _paths_of(dist)] + [os.path.realpath(sys.executable)]
    return _under(real, mine) or (_under(real, SYSTEM) and not _under(real, _interpreter()[1]))


def _provider(module: str) -> str | None:
    """The distribution that installs top-level module ``module``."""
    for name, dist in _distributions().items():
        if module in _top_names(dist):
            return name
    return None


def _distribution_view(names: set[str]) -> list[str]:
    paths = _arena_paths(with_bots=True) if DISTRIBUTION in names else []
    for name in sorted(names - {DISTRIBUTION}):
        paths += _paths_of(name)
    return paths


def _interpreter() -> tuple[list[str], list[str]]:
    """The interpreter (a venv's links and ``pyvenv.cfg``, the real binary,
    ``libpython``) and the standard library; and the site folders that come
    with them, to be masked."""
    binary = os.path.realpath(sys.executable)
    binds = [binary, sysconfig.get_paths()["stdlib"]]
    folder = os.path.dirname(sys.executable)
    binds += [
        os.path.join(folder, entry)
        for entry in os.listdir(folder)
        if os.path.realpath(os.path.join(folder, entry)) == binary
    ]
    if sys.prefix != sys.base_prefix:
        binds.append(os.path.join(sys.prefix, "pyvenv.cfg"))
    library = sysconfig.get_config_var("LDLIBRARY")
    libraries = sysconfig.get_config_var("LIBDIR") or ""
    if library and os.path.isdir(libraries):
        binds += [
            os.path.join(libraries, f) for f in os.listdir(libraries) if f.startswith(library)
        ]
    base = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    sites = {sysconfig.get_paths(vars=base)[key] for key in ("purelib", "platlib")}
    sites |= set(site.getsitepackages()) | {
        "/usr/lib/python3/dist-packages",
        f"/usr/lib/python{version}/site-packages",
        f"/usr/local/lib/python{version}/dist-packages",
        f"/usr/local/lib/python{version}/site-packages",
    }
    return binds, sorted(s for s in sites if os.path.isdir(s))


def _environment_pth(sites: list[str]) -> list[str]:
    """``.pth`` files of the interpreter's own site folders that no
    distribution installed: the environment's own set-up (e.g. a venv layered
    over another by ``site.addsitedir``), which the bot's interpreter needs
    to find what is bound for it.  They name folders; nothing in those is
    shown unless bound."""
    owned = _owners()
    return [
        os.path.join(folder, entry)
        for folder in sites
        if _under(folder, [sys.prefix])
        for entry in sorted(os.listdir(folder))
        if entry.endswith(".pth") and os.path.join(folder, entry) not in owned
    ]


def _with_bytecode(paths: list[str]) -> list[str]:
    """``paths`` with the compiled bytecode of their Python sources.

    A strict bot reads its code through a read-only view, so it can never
    cache what it compiles: every start compiled again whatever had no
    bytecode in the view -- the kit's modules and the engine contract, bound
    file by file without their ``__pycache__``, and the built-in bots, which
    the referee never imports (docs/performance.md has the cost).
    So it is compiled here, once per process and view, the way Python's own
    import would (fresh files are left alone, an unwritable folder is
    skipped), even where PYTHONDONTWRITEBYTECODE keeps the referee's imports
    from caching.  Only the arena's own packages are compiled (the kit, the
    engine contract, the engines and built-in bots): installed site folders
    were compiled by their installer, and a rival's source is never parsed in
    the referee's process (a file made to be slow to compile would stall it
    outside any bot's limits) -- such a bot compiles itself, in its sandbox."""
    installed = [sys.prefix, sys.base_prefix]
    own = [ARENA] + [p for top in BOT_PACKAGES for p in _arena_package(top)]
    found = []
    for path in paths:
        found.append(path)
        if _under(path, installed) or not _under(path, own):
            continue
        if path.endswith(".py") and os.path.isfile(path):
            compileall.compile_file(path, quiet=2)
            cached = importlib.util.cache_from_source(path)
            if os.path.isfile(cached):
                found.append(cached)
        elif os.path.isdir(path):
            compileall.compile_dir(path, quiet=2)
    return found


def _under(path: str, folders) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


#: what marks a results folder (arena.results.store.FILE_NAME: a run makes
#: its store before its key, so no folder holds a key without it)
RESULTS_MARK = "results.sqlite"


def results_folder(path: str) -> str | None:
    """The results folder ``path`` is or lies in (a folder holding a results
    store), or None: never a bot's to see."""
    folder = os.path.realpath(path)
    while True:
        if os.path.isfile(os.path.join(folder, RESULTS_MARK)):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def view_for(argv: list[str], files: tuple[str, ...] = ()) -> FileView:
    """The read-only view of a bot started as ``argv`` (its kit, its own
    distribution's closure or its command's files, and ``files``); worked
    out once per process and bot (reading every distribution's metadata
    costs tens of milliseconds, a bot start-up is about a hundred)."""
    return _view(tuple(argv), tuple(files))


def warm() -> None:
    """Read now what every bot's view needs of the installed distributions
    (their files and import names, a few hundred milliseconds): a process
    about to fork tournament workers does it once for all of them, which
    inherit it, instead of each worker on its first bot."""
    for dist in _distributions().values():
        _top_names(dist)
    _owners()


def forget_installed() -> None:
    """Forget what is installed: the next view looks again (for a process
    that installs or removes a distribution while it runs)."""
    for cached in (_view, _owners, _site_files, _top_names, _distributions):
        cached.cache_clear()


@functools.lru_cache(maxsize=256)
def _view(argv: tuple[str, ...], files: tuple[str, ...]) -> FileView:
    """:func:`view_for` itself.  Three shapes of command are known: the bot
    kit running a ``module:Class``, the plugin host loading a distribution's
    plugins, and any other command (a ``cmd:`` bot)."""
    interpreter, sites = _interpreter()
    kit = closure(list(KIT_REQUIREMENTS))
    allowed = kit | {DISTRIBUTION}
    readable = _arena_paths(with_bots=False) + _distribution_view(kit)
    if len(argv) == 4 and argv[:3] == (sys.executable, "-I", PLUGIN_HOST):
        # the plugin host: the plugin API, and the distribution whose plugins it loads
        mine = closure([argv[3], *HOST_REQUIREMENTS])
        allowed |= mine
        readable += [os.path.join(ARENA, module) for module in HOST_MODULES]
        readable += _distribution_view(mine)
    elif len(argv) == 4 and argv[:3] == (sys.executable, "-m", "arena.botkit"):
        top = argv[3].partition(":")[0].split(".")[0]
        provider = _provider(top)
        if provider is None:
            readable += _package_location(top)
        else:
            mine = closure([provider])
            allowed |= mine
            readable += _distribution_view(mine)
    else:
        readable += [arg for arg in argv if os.path.isabs(arg) and os.path.exists(arg)]
    readable = _with_bytecode(readable)
    readable += [os.path.abspath(f) for f in files]
    readable += _environment_pth(sites)
    binds = [
        p
        for p in dict.fromkeys(os.path.normpath(p) for p in interpreter + readable)
        if not _under(p, SYSTEM) or _under(p, sites)
    ]
    covered = [s for s in sites if _under(s, SYSTEM) or _under(s, binds)]
    foreign = [top for top, owners in _owners().items() if not owners & allowed]
    masks = [
        p
        for p in foreign
        if _under(p, binds) and p not in binds and not _under(p, covered) and not _under(p, files)
    ]
    return FileView(sites=tuple(covered), binds=tuple(binds), masks=tuple(masks))


def distribution_paths(names: set[str]) -> list[str]:
    """What the view of a sandboxed process shows of the installed
    distributions ``names`` (a :func:`closure`): to pass as its ``files``."""
    return _distribution_view(names)

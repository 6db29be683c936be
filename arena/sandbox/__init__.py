"""Running untrusted bot processes: levels, limits and the layers that
isolate a bot from the referee, the other bots, the network and the host."""

from arena.sandbox.limits import ResourceLimits
from arena.sandbox.process import LEVELS, BotProcess, SandboxError

__all__ = ["LEVELS", "BotProcess", "ResourceLimits", "SandboxError"]

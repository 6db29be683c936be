"""The built-in bots.  Each runs in its own sandboxed process through the bot
kit; the referee only ever sees the launch specs in :mod:`bots.plugin`."""

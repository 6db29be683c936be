"""``python -m arena.botkit package.module:BotClass``: serve one bot on stdin/stdout."""

from arena.botkit import main

main()

"""Secret keys and the seeds derived from them.

Every seed a bot's fortunes depend on -- the deal, each seat's own chance,
the fallback policy that plays out a faulted seat -- is derived from a
:class:`SecretKey` by HMAC-SHA256, so nothing a bot can see (the tournament file,
its ``hello`` or ``new_game`` seed, the deals it is dealt) lets it recompute
another seed: that would take inverting HMAC or searching a 256-bit key.
A public seed (``arena match --seed``) still works, as a key made from the
seed, but then the deals are predictable and the CLI says so.

Seeds are 64-bit (:data:`BITS`): too many to tabulate the deals offline.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

#: width of every derived seed
BITS = 64
#: bytes of a fresh key (256 bits; at least 16 are required of a given one)
KEY_BYTES = 32
MIN_KEY_BYTES = 16
#: the key's file in a results folder
KEY_FILE = "key"


class BadKey(ValueError):
    """A key that is malformed, missing, or not the one a results folder holds."""


@dataclass(frozen=True)
class SecretKey:
    """A secret of at least 128 bits from which seeds are derived."""

    secret: bytes
    public: bool = False  # made from a public seed: deals are predictable

    def __post_init__(self):
        if len(self.secret) < MIN_KEY_BYTES:
            raise BadKey(
                f"a key needs at least {MIN_KEY_BYTES * 8} bits, got {len(self.secret) * 8}"
            )

    @classmethod
    def fresh(cls) -> SecretKey:
        """A new key from the operating system's random source."""
        return cls(secrets.token_bytes(KEY_BYTES))

    @classmethod
    def from_hex(cls, text: str) -> SecretKey:
        try:
            return cls(bytes.fromhex(text.strip()))
        except ValueError:
            raise BadKey(
                f"a key is {KEY_BYTES * 2} hexadecimal digits, got {text.strip()[:12]!r}..."
            ) from None

    @classmethod
    def from_public_seed(cls, seed: int) -> SecretKey:
        """A key anyone who knows ``seed`` can rebuild (``arena match --seed``)."""
        return cls(hashlib.sha256(f"arena-public-seed:{seed}".encode()).digest(), public=True)

    @property
    def hex(self) -> str:
        return self.secret.hex()

    @property
    def fingerprint(self) -> str:
        """A short public name of the key (its hash), safe to store and show."""
        return hashlib.sha256(b"arena-key-fingerprint:" + self.secret).hexdigest()[:16]

    def derive(self, *parts: object) -> int:
        """A 64-bit seed for the purpose ``parts`` names."""
        return derive(self.secret, *parts)


def derive(secret: bytes, *parts: object) -> int:
    """HMAC-SHA256 of ``parts`` under ``secret``, cut to a 64-bit integer."""
    message = "\x1f".join(map(str, parts)).encode()
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest()[: BITS // 8], "big")


def child(seed: int, *parts: object) -> int:
    """A seed derived from another seed (itself secret): e.g. a seat's own
    chance from a game's chance seed."""
    return derive(seed.to_bytes(BITS // 8, "big"), *parts)


def load_or_create(folder: Path, given: SecretKey | None = None, *, has_results: bool) -> SecretKey:
    """The results folder's key: the stored one, else ``given``, else a fresh one.

    A stored key is never replaced: ``given`` must match it.  A folder that
    already has results but no key cannot be resumed (its deals came from a
    key that is gone), unless the key is given.  A new key is written
    readable by its owner only (bots never see the results folder; the file
    mode keeps out other users as well)."""
    path = folder / KEY_FILE
    if path.exists():
        try:
            stored = SecretKey.from_hex(path.read_text())
        except (OSError, BadKey) as error:
            raise BadKey(f"{path}: unreadable key ({error})") from None
        if given is not None and given.secret != stored.secret:
            raise BadKey(
                f"{path}: the results folder holds another key "
                f"(fingerprint {stored.fingerprint}, given {given.fingerprint})"
            )
        return stored
    if has_results and given is None:
        raise BadKey(
            f"{path}: missing, but {folder} already holds results; "
            f"give the tournament's key (--key) or use another results folder"
        )
    key = given or SecretKey.fresh()
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(key.hex + "\n")
    return key


def read(folder: Path) -> SecretKey:
    """The key stored in a results folder (to publish it or replay from it)."""
    path = folder / KEY_FILE
    try:
        return SecretKey.from_hex(path.read_text())
    except FileNotFoundError:
        raise BadKey(f"{path}: no key in this results folder") from None
    except (OSError, BadKey) as error:
        raise BadKey(f"{path}: unreadable key ({error})") from None

"""Sequential tests that stay valid when you look after every deal.

Looking at a fixed-sample test after every deal and stopping when it says
"significant" inflates its error rate many times over (the tests here show
it).  Both tools below are built for optional stopping:

* :class:`SPRT` -- Wald's sequential probability ratio test on paired
  duplicate deals, like fishtest's: each deal is played in every seating;
  bot A *wins the deal* when its mean place over the deal's games beats B's
  (a level deal is left out).  With ``p`` the chance that A wins a decided
  deal it tests H0 ``p = 1/2`` (A is not better) against H1
  ``p = 1/2 + delta`` (A is better by at least ``delta``).  Wald's bounds
  ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)`` keep the chance of
  accepting H1 when H0 holds near ``alpha`` and of accepting H0 when H1 holds
  near ``beta`` (at most ``alpha / (1 - beta)`` and ``beta / (1 - alpha)``), and
  smaller still for ``p`` further from the boundary.
* :func:`separated` -- a confidence sequence for the mean of per-deal
  differences in ``[-1, 1]`` (Robbins' normal mixture: the differences are
  1-sub-Gaussian, and Ville's inequality bounds the chance that the mean
  ever leaves the sequence by ``alpha``, however long one watches).  Two
  bots are separated when the sequence excludes 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: the normal mixture's precision: tightest for some tens to hundreds of deals
RHO = 10.0

H0 = "H0"
H1 = "H1"


@dataclass
class SPRT:
    delta: float = 0.1
    alpha: float = 0.05
    beta: float = 0.05
    wins: int = 0
    losses: int = 0
    ties: int = 0

    def __post_init__(self) -> None:
        if not 0 < self.delta < 0.5:
            raise ValueError(f"delta must be between 0 and 0.5, not {self.delta}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5, not {value}")
        p1 = 0.5 + self.delta
        self.win_step = math.log(p1 / 0.5)
        self.loss_step = math.log((1 - p1) / 0.5)
        self.lower = math.log(self.beta / (1 - self.alpha))
        self.upper = math.log((1 - self.beta) / self.alpha)

    def add(self, difference: float) -> str | None:
        """Record one deal (A's mean place minus B's); the decision, if any."""
        if difference > 0:
            self.wins += 1
        elif difference < 0:
            self.losses += 1
        else:
            self.ties += 1
        return self.decision()

    @property
    def llr(self) -> float:
        return self.wins * self.win_step + self.losses * self.loss_step

    def decision(self) -> str | None:
        """H1 (A is better by at least delta), H0 (it is not) or None (play on)."""
        llr = self.llr
        if llr >= self.upper:
            return H1
        if llr <= self.lower:
            return H0
        return None


def radius(deals: int, alpha: float, rho: float = RHO) -> float:
    """How far the sum of ``deals`` differences in [-1, 1] may stray from
    ``deals`` times their mean, at every ``deals`` at once, with chance
    ``1 - alpha``."""
    v = deals + rho
    return math.sqrt(v * math.log(v / (rho * alpha * alpha)))


def separated(total: float, deals: int, alpha: float) -> bool:
    """Whether the confidence sequence of the mean difference excludes 0."""
    return deals > 0 and abs(total) > radius(deals, alpha)

"""Scenario helpers for the variant tests: a small position adjudicated through the one-shot
contract, as a game master would set it up, and a lone unit walked along a route."""

from __future__ import annotations

from typing import Any

from polydip.oneshot import adjudicate_request


class Scenario:
    """Positions on one variant, in `phase` unless told otherwise; lone units belong to
    `power` unless told otherwise."""

    def __init__(self, variant: str, phase: str, power: str) -> None:
        self.variant, self.phase, self.power = variant, phase, power

    def adjudicate(self, units: dict[str, list[str]], orders: dict[str, list[str]],
                   phase: str | None = None, **extra: Any) -> dict:
        out = adjudicate_request({"variant": self.variant, "phase": phase or self.phase,
                                  "units": units, "orders": orders, **extra})
        assert "error" not in out, out
        assert out["errors"] == [], out["errors"]
        return out

    def move(self, unit: str, dest: str, power: str | None = None) -> str:
        """Where a lone `unit` ends after ordering it to `dest`."""
        power = power or self.power
        out = self.adjudicate({power: [unit]}, {power: [f"{unit} - {dest}"]})
        return out["units"][power][0]

    def path(self, unit: str, *steps: str, power: str | None = None) -> str:
        """Order a lone unit along `steps`, one move a phase; return where it ends."""
        for step in steps:
            kind = unit.split()[0]
            unit = self.move(unit, step, power)
            assert unit.split()[1].split("/")[0] == step.split("/")[0], (unit, step)
            unit = f"{kind} {unit.split()[1]}"
        return unit

    def sails_from_its_coast(self, prov: str, coasts: tuple[str, str],
                             seas: tuple[str, str]) -> None:
        """A fleet on coast i of `prov` reaches sea i and not the other; a fleet in sea i
        enters coast i."""
        (c1, c2), (s1, s2) = coasts, seas
        assert self.move(f"F {prov}/{c1}", s1) == f"F {s1}"
        assert self.move(f"F {prov}/{c1}", s2) == f"F {prov}/{c1}"
        assert self.move(f"F {prov}/{c2}", s2) == f"F {s2}"
        assert self.move(f"F {prov}/{c2}", s1) == f"F {prov}/{c2}"
        assert self.move(f"F {s1}", f"{prov}/{c1}") == f"F {prov}/{c1}"
        assert self.move(f"F {s2}", f"{prov}/{c2}") == f"F {prov}/{c2}"

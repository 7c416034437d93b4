"""Simulation at scale: many games played by a chosen player, written as shards of saved
games (docs/simulate.md). `polydip simulate` is the command; `simulate(Job(...), DIR)` the
same from Python."""

from polydip.simulate.players import PLAYERS, Player, load_player
from polydip.simulate.runner import simulate
from polydip.simulate.shards import Job

__all__ = ["PLAYERS", "Job", "Player", "load_player", "simulate"]

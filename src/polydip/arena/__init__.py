"""An arena for agents that read and write words (language models, scripted players) on any
variant: each power's agent gets the board in words, the legal orders, the messages it
may read and the reader's feedback on its last orders; it answers with orders as a player
would type them and messages to other powers (docs/arena.md).

`Arena(variant, agents).run()` from Python; `polydip arena` runs agents that are programs
speaking JSON Lines on their standard input and output (arena/jsonl.py)."""

from polydip.arena.agents import HoldAgent, RandomAgent
from polydip.arena.arena import Agent, Arena, ArenaResult
from polydip.arena.observe import observation, observation_text

__all__ = ["Agent", "Arena", "ArenaResult", "HoldAgent", "RandomAgent", "observation",
           "observation_text"]

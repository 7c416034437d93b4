"""polydip.env: a PettingZoo ParallelEnv for any variant (docs/env.md); needs the `rl` extra
(`pip install 'polydip[rl]'`: pettingzoo, gymnasium, numpy)."""

from polydip.errors import PolydipError

try:
    from polydip.env.parallel import DiplomacyEnv, end_scores, parallel_env, sample_actions
    from polydip.env.vector import VectorEnv
except ImportError as exc:  # pragma: no cover - depends on what is installed
    raise PolydipError(f"polydip.env needs the rl extra: pip install 'polydip[rl]' "
                       f"({exc})") from None

__all__ = ["DiplomacyEnv", "VectorEnv", "end_scores", "parallel_env", "sample_actions"]

"""`polydip simulate --ray`: the same shards as a local run, from a two-node Ray cluster on
loopback that the fixture starts (token authentication on) and stops.

Skipped where Ray is not installed (`pip install 'polydip[ray]'`) or cannot start a cluster
here; POLYDIP_RAY_TEST=0 skips it on purpose (it takes ~30-60 s to start two nodes).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from polydip.simulate import Job, simulate

START_TIMEOUT = 180  # seconds for each `ray start`; a slow machine takes ~20 s


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ray_bin() -> str:
    exe = Path(sys.executable).with_name("ray")
    return str(exe) if exe.exists() else (shutil.which("ray") or "ray")


def _stop(groups: list[int]) -> None:
    """End the cluster's processes: each `ray start` ran in a session of its own, so its
    daemons are its process group (no other Ray on the machine is touched)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for g in groups:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(g, sig)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(g) for g in groups):
            time.sleep(0.2)


def _nodes(address: str, env: dict) -> str:
    """`ray status` of the cluster (its active nodes are the lines naming "node_")."""
    return subprocess.run([_ray_bin(), "status", f"--address={address}"], env=env,
                          capture_output=True, text=True, timeout=120).stdout


def _wait_for_nodes(address: str, env: dict, count: int) -> None:
    """Wait until `count` nodes are active: `ray start` of the worker returns before the
    head has registered it (a job started at once may find one node)."""
    deadline = time.monotonic() + START_TIMEOUT
    while _nodes(address, env).count(" node_") < count and time.monotonic() < deadline:
        time.sleep(0.5)


def _alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture(scope="module")
def ray_cluster():
    """A head and a worker node on 127.0.0.1, one CPU each; yields (address, env)."""
    if os.environ.get("POLYDIP_RAY_TEST") == "0":
        pytest.skip("POLYDIP_RAY_TEST=0: the Ray cluster test is switched off")
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'polydip[ray]'")
    temp = tempfile.mkdtemp(prefix="pdray")  # short: Ray's socket paths have a length limit
    port = _free_port()
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32),
           "RAY_USAGE_STATS_ENABLED": "0"}
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=1", "--disable-usage-stats"]
    head = [_ray_bin(), "start", "--head", f"--port={port}", f"--temp-dir={temp}",
            "--include-dashboard=false", f"--ray-client-server-port={_free_port()}", *common]
    worker = [_ray_bin(), "start", f"--address=127.0.0.1:{port}", *common]
    groups: list[int] = []
    try:
        for cmd in (head, worker):
            p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 start_new_session=True, text=True)
            groups.append(p.pid)
            try:
                out, _ = p.communicate(timeout=START_TIMEOUT)
            except subprocess.TimeoutExpired:
                pytest.skip(f"`ray start` took over {START_TIMEOUT} s on this machine")
            if p.returncode != 0:
                pytest.skip(f"Ray cannot start a cluster here: {out.strip()[-400:]}")
        _wait_for_nodes(f"127.0.0.1:{port}", env, 2)
        yield f"127.0.0.1:{port}", env
    finally:
        _stop(groups)
        shutil.rmtree(temp, ignore_errors=True)


def test_ray_run_gives_the_local_run_bytes(ray_cluster, tmp_path):
    address, env = ray_cluster
    job = Job("standard", {}, seed=11, games=8, player="coherent", max_year=1905,
              shard_size=2)
    local = simulate(job, tmp_path / "local", workers=2)
    # the command as a user runs it, with the cluster's token in its environment
    status = subprocess.run(
        [sys.executable, "-m", "polydip.cli.main", "simulate", "--games", "8", "--seed", "11",
         "--player", "coherent", "--max-year", "1905", "--shard-size", "2",
         "--out", str(tmp_path / "ray"), "--ray", address, "--quiet"],
        env=env, capture_output=True, text=True, timeout=600)
    assert status.returncode == 0, status.stderr
    nodes = _nodes(address, env)
    assert nodes.count(" node_") == 2, nodes  # the job ran on a two-node cluster
    shards = sorted((tmp_path / "local").glob("games-*.jsonl.gz"))
    assert len(shards) == 4
    for f in shards:
        assert (tmp_path / "ray" / f.name).read_bytes() == f.read_bytes()
    import json

    ray_manifest = json.loads((tmp_path / "ray" / "manifest.json").read_text())
    assert ray_manifest["shards"] == local["shards"]


def test_ray_without_a_cluster_is_a_clear_error(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'polydip[ray]'")
    status = subprocess.run(
        [sys.executable, "-m", "polydip.cli.main", "simulate", "--games", "1",
         "--out", str(tmp_path / "o"), "--ray", f"127.0.0.1:{_free_port()}", "--quiet"],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": "x" * 32})
    assert status.returncode == 1
    assert "--ray 127.0.0.1:" in status.stderr and "cannot join the cluster" in status.stderr
    assert "Traceback" not in status.stderr

"""API fuzzing: schemathesis sends requests built from the OpenAPI schema — on a real game,
with real GM and player links in the paths as often as random ones — and no answer may be a
5xx."""

from __future__ import annotations

import zlib

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
schemathesis = pytest.importorskip("schemathesis", reason="API fuzzing needs schemathesis "
                                   "(pip install 'polydip[host-test]')")
pytestmark = pytest.mark.host

from hypothesis import HealthCheck, given, settings  # noqa: E402


@pytest.fixture
def fuzzed(db_url, tmp_path):
    """The app on SQLite and on PostgreSQL (which refuses NUL characters in text), with a
    game in it."""
    from polydip.host.app import create_app

    app = create_app(db_url, tmp_path, tick_seconds=3600)
    host = app.state.host
    _gid, gm = host.create_game("standard", name="fuzzed", movement_minutes=600)
    tokens = {"gm": gm, **host.links(gm)}
    return app, tokens


def test_no_request_gets_a_server_error(fuzzed):
    """Every operation of the schema, with examples hypothesis draws from it (schemathesis'
    strategies, used directly rather than through its pytest plugin)."""
    app, tokens = fuzzed
    powers = sorted(k for k in tokens if k != "gm")
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15  # every route of the API is fuzzed

    for op in operations:
        @settings(max_examples=25, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=op.as_strategy())
        def no_server_error(case):
            if case.path_parameters and "token" in case.path_parameters:
                pick = zlib.crc32(repr(case.body).encode())
                real = tokens["gm"] if "/gm/" in case.path else tokens[powers[pick % 7]]
                if pick % 4:  # mostly a real link (the GM's, or one of every power's)
                    case.path_parameters["token"] = real
            response = case.call()
            assert response.status_code < 500, (case.method, case.path, case.body,
                                                response.text[:500])

        no_server_error()


def test_no_sequence_of_requests_gets_a_server_error(tmp_path):
    """Stateful: schemathesis follows the schema's links — a created (or rotated) game's GM
    token into every GM operation — through short sequences of calls; no answer is a 5xx."""
    from polydip.host.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'polydip.db'}", tmp_path, tick_seconds=3600)
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", app)
    followed: list[tuple[str, int]] = []

    class NoServerError(schema.as_state_machine()):  # type: ignore[misc]
        def validate_response(self, response, case, **kwargs) -> None:
            followed.append((case.path, response.status_code))
            assert response.status_code < 500, (case.method, case.path, case.body,
                                                response.text[:500])

    NoServerError.run(settings=settings(max_examples=30, stateful_step_count=5,
                                        deadline=None, derandomize=True, database=None,
                                        suppress_health_check=list(HealthCheck)))
    # links were followed: some GM operation got a real game's token
    assert any(p.startswith("/api/gm/") and code < 400 for p, code in followed), followed[:20]

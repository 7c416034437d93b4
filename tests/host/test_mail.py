"""Notifications by e-mail (issue 31), received by a real SMTP server the test starts
(aiosmtpd): deadline warnings, results with the map, message digests, the GM's actions, the
unsubscribe link; addresses private; the SMTP password never shown."""

from __future__ import annotations

import email
import email.policy
import socket
from datetime import timedelta
from email.message import EmailMessage

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytest.importorskip("aiosmtpd", reason="the mail tests need aiosmtpd (the host-test extra)")
pytestmark = pytest.mark.host

from aiosmtpd.controller import Controller  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import select  # noqa: E402

from polydip.host import notify  # noqa: E402
from polydip.host.app import create_app  # noqa: E402
from polydip.host.notify_models import MailOutboxRow  # noqa: E402

PASSWORD = "S3cret-PW-42"


class Inbox:
    """The mails the local SMTP server received."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        self.mails.append(msg)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.mails if m["To"] == address]

    def take(self) -> list[EmailMessage]:
        out, self.mails = self.mails, []
        return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp_server():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        yield inbox, controller.port
    finally:
        controller.stop()


@pytest.fixture
def mail_client(db_url, tmp_path, smtp_server):
    inbox, port = smtp_server
    app = create_app(db_url, tmp_path / "data", tick_seconds=3600,
                     smtp=f"smtp://127.0.0.1:{port}", mail_from="host@polydip.test")
    with TestClient(app) as c:
        yield c, inbox


def tick(c: TestClient, later: timedelta = timedelta(0)) -> int:
    mailer = c.app.state.mailer
    return c.portal.call(mailer.tick, notify.now_utc() + later)


def body(m: EmailMessage) -> str:
    part = m.get_body(preferencelist=("plain",))
    assert part is not None
    return part.get_content()


class Game:
    def __init__(self, c: TestClient, **fields) -> None:
        r = c.post("/api/games", json={"variant": "standard", **fields})
        assert r.status_code == 201, r.text
        self.c, self.id, self.gm = c, r.json()["game"], r.json()["gm_token"]
        self.tokens = {k: v.rsplit("/", 1)[1] for k, v in r.json()["players"].items()}

    def pid(self) -> str:
        return self.c.get(f"/api/gm/{self.gm}").json()["phase_id"]

    def subscribe(self, power: str, address: str, kinds=notify.KINDS, hours="24, 1") -> None:
        where = f"/gm/{self.gm}" if power == "GM" else f"/play/{self.tokens[power]}"
        r = self.c.post(f"{where}/mail", data={"address": address, "kinds": list(kinds),
                                               "warn_hours": hours}, follow_redirects=False)
        assert r.status_code == 303, r.text


def test_a_deadline_warning_goes_once_to_a_power_that_must_order(mail_client):
    c, inbox = mail_client
    g = Game(c, movement_minutes=90)
    g.subscribe("France", "france@example.org")
    g.subscribe("England", "england@example.org", kinds=["result"])  # no warnings
    assert tick(c) == 0  # 90 minutes to go
    assert tick(c, timedelta(minutes=31)) == 1  # less than an hour
    [m] = inbox.take()
    assert m["To"] == "france@example.org" and "S1901M" in m["Subject"]
    text = body(m)
    assert f"/play/{g.tokens['France']}" in text  # its own link
    assert g.gm not in text and g.tokens["England"] not in text  # and no one else's
    assert "/mail/unsubscribe/" in text and m["List-Unsubscribe"]
    assert tick(c, timedelta(minutes=31)) == 0 and tick(c, timedelta(minutes=80)) == 0  # once
    # no 24 h warning of a 90 minute phase
    with c.app.state.ctx.db.read() as s:
        assert list(s.scalars(select(MailOutboxRow.state))) == ["sent"]


def test_warnings_crossed_together_make_one_mail(mail_client):
    c, inbox = mail_client
    g = Game(c, movement_minutes=48 * 60)
    g.subscribe("France", "france@example.org", hours="24, 12, 1")
    assert tick(c, timedelta(hours=36, minutes=1)) == 1  # 24 and 12 h passed: one mail
    assert tick(c, timedelta(hours=36, minutes=5)) == 0
    assert tick(c, timedelta(hours=47, minutes=1)) == 1
    assert "0 h 59 min left" in inbox.mails[-1]["Subject"]
    with c.app.state.ctx.db.read() as s:
        assert sorted(s.scalars(select(MailOutboxRow.state))) == ["sent", "sent", "skipped"]


def test_a_tick_sends_every_due_mail_batch_after_batch(mail_client):
    c, inbox = mail_client
    g = Game(c, movement_minutes=90)
    for power in g.tokens:
        g.subscribe(power, f"{power.lower()}@example.org")
    c.app.state.mailer.batch = 2
    assert tick(c, timedelta(minutes=31)) == 7
    assert sorted(m["To"] for m in inbox.mails) == sorted(
        f"{p.lower()}@example.org" for p in g.tokens)


def test_a_mail_that_cannot_be_made_does_not_hold_back_the_others(mail_client, monkeypatch):
    c, inbox = mail_client
    g = Game(c, movement_minutes=90)
    g.subscribe("France", "france@example.org")
    g.subscribe("Italy", "italy@example.org")
    mailer = c.app.state.mailer
    made = mailer._message

    def broken(letter, report, png):
        if letter.address.startswith("france"):
            raise RuntimeError("a bug")
        return made(letter, report, png)

    monkeypatch.setattr(mailer, "_message", broken)
    assert tick(c, timedelta(minutes=31)) == 1
    assert [m["To"] for m in inbox.mails] == ["italy@example.org"]
    with c.app.state.ctx.db.read() as s:
        assert sorted(s.scalars(select(MailOutboxRow.state))) == ["failed", "sent"]


def test_no_warning_to_a_power_that_is_ready(mail_client):
    c, inbox = mail_client
    g = Game(c, movement_minutes=90)
    g.subscribe("France", "france@example.org")
    r = c.post(f"/api/play/{g.tokens['France']}/ready", json={"ready": True, "phase": g.pid()})
    assert r.status_code == 200
    assert tick(c, timedelta(minutes=31)) == 0 and inbox.mails == []


def test_results_come_with_the_map_attached(mail_client):
    c, inbox = mail_client
    g = Game(c)
    g.subscribe("France", "france@example.org")
    g.subscribe("GM", "gm@example.org", kinds=["result"])
    r = c.post(f"/api/play/{g.tokens['France']}/orders",
               json={"text": "A PAR - BUR", "phase": g.pid()})
    assert r.status_code == 200
    assert c.post(f"/api/gm/{g.gm}/process", json={"phase": g.pid()}).status_code == 200
    assert tick(c) == 3  # France: results and the GM's action; the GM: results
    [result] = [m for m in inbox.to("france@example.org") if "results" in m["Subject"]]
    assert "F1901M" in result["Subject"]
    text = body(result)
    assert "Burgundy" in text or "BUR" in text  # the phase's report
    [png] = [p for p in result.iter_attachments() if p.get_content_type() == "image/png"]
    assert png.get_content()[:8] == b"\x89PNG\r\n\x1a\n"
    [gm_mail] = inbox.to("gm@example.org")
    assert f"/gm/{g.gm}" in body(gm_mail)  # the GM's link to the GM alone
    assert all(g.gm not in body(m) for m in inbox.to("france@example.org"))


def test_new_messages_come_as_a_digest(mail_client):
    c, inbox = mail_client
    g = Game(c)
    g.subscribe("France", "france@example.org")
    g.subscribe("England", "england@example.org")
    c.app.state.mailer.digest_delay = timedelta(minutes=10)
    with c.app.state.ctx.db.transaction() as s:  # what the press module calls
        assert notify.message_sent(s, g.id, "S1901M", "England", ["France", "Germany"]) == 1
        notify.message_sent(s, g.id, "S1901M", "Germany", ["France", "England"])
        notify.message_sent(s, g.id, "S1901M", "England", ["France"])
    assert tick(c) == 0  # not yet: messages are gathered
    assert tick(c, timedelta(minutes=11)) == 2
    [fr] = inbox.to("france@example.org")
    assert "3 new messages" in fr["Subject"]
    assert "2 from England" in body(fr) and "1 from Germany" in body(fr)
    [en] = inbox.to("england@example.org")  # its own messages are not news to England
    assert "1 new message" in en["Subject"] and "Germany" in body(en)
    assert tick(c, timedelta(minutes=30)) == 0


def test_press_sent_through_the_host_reaches_the_digest_of_its_readers_only(mail_client):
    c, inbox = mail_client
    g = Game(c)
    for power in ("France", "England", "Germany"):
        g.subscribe(power, f"{power.lower()}@example.org")
    c.app.state.mailer.digest_delay = timedelta(minutes=10)
    r = c.post(f"/api/play/{g.tokens['England']}/press",
               json={"to": "France", "text": "Channel stays empty?", "phase": g.pid()})
    assert r.status_code == 201, r.text
    assert tick(c, timedelta(minutes=11)) == 1
    [fr] = inbox.to("france@example.org")
    assert "1 new message" in fr["Subject"] and "England" in body(fr)
    assert "Channel" not in body(fr)  # (a digest says who wrote, never what)
    assert not inbox.to("germany@example.org") and not inbox.to("england@example.org")


def test_the_gms_actions_are_mailed_and_the_unsubscribe_link_stops_mail(mail_client):
    c, inbox = mail_client
    g = Game(c)
    g.subscribe("France", "france@example.org", kinds=["gm"])
    assert c.post(f"/api/gm/{g.gm}/pause", json={"paused": True, "phase": g.pid()}
                  ).status_code == 200
    assert c.post(f"/api/gm/{g.gm}/pause", json={"paused": True, "phase": g.pid()}
                  ).status_code == 200  # paused already: nothing happened, nothing to tell
    assert tick(c) == 1
    [m] = inbox.take()
    assert "paused the game" in m["Subject"]
    link = m["List-Unsubscribe"].strip("<>")
    path = link.split("://", 1)[1].split("/", 1)[1]
    token = path.rsplit("/", 1)[1]
    forged = token[:-1] + ("1" if token.endswith("0") else "0")  # (another last character)
    assert c.get("/mail/unsubscribe/" + forged).status_code == 404
    fresh = TestClient(c.app)  # no cookie, no login: one click
    r = fresh.get("/" + path)
    assert r.status_code == 200 and "Unsubscribed" in r.text
    assert c.post(f"/api/gm/{g.gm}/pause", json={"paused": False, "phase": g.pid()}
                  ).status_code == 200
    assert tick(c) == 0 and inbox.mails == []
    assert "unsubscribed" in c.get(f"/play/{g.tokens['France']}").text
    # RFC 8058: a mail program's one-click POST, without any Origin
    assert fresh.post("/" + path).status_code == 200


def test_replacing_a_player_forgets_its_address_and_tells_the_others(mail_client):
    c, inbox = mail_client
    g = Game(c)
    g.subscribe("France", "france@example.org")
    g.subscribe("Italy", "italy@example.org")
    r = c.post(f"/api/gm/{g.gm}/replace", json={"power": "France", "phase": g.pid()})
    assert r.status_code == 200, r.text
    assert tick(c) == 1
    [m] = inbox.to("italy@example.org")
    assert "gave France a new player" in m["Subject"]
    assert inbox.to("france@example.org") == []


def test_an_address_is_seen_by_its_holder_alone(mail_client, caplog):
    c, _ = mail_client
    caplog.set_level("INFO")
    g = Game(c, movement_minutes=90)
    g.subscribe("France", "secret.france@example.org")
    mine = c.get(f"/play/{g.tokens['France']}").text
    assert "secret.france@example.org" in mine
    seen = [c.get(f"/play/{g.tokens['England']}").text, c.get(f"/gm/{g.gm}").text,
            c.get("/").text, c.get(f"/api/play/{g.tokens['England']}").text,
            c.get(f"/api/play/{g.tokens['France']}").text, c.get(f"/api/gm/{g.gm}").text,
            c.get(f"/api/gm/{g.gm}/game.json").text, c.get(f"/api/gm/{g.gm}/diplomacy.json").text]
    assert tick(c, timedelta(minutes=31)) == 1
    assert not any("secret.france" in text for text in seen)
    ours = [r.getMessage() for r in caplog.records if r.name != "mail.log"]  # (aiosmtpd's)
    assert ours and not any("secret.france" in line for line in ours)


def test_bad_mail_settings_are_refused_with_a_message(mail_client):
    c, _ = mail_client
    g = Game(c)
    url = f"/play/{g.tokens['France']}/mail"
    for data, word in [({"address": "not an address"}, "e-mail address"),
                       ({"address": "a@b.org\r\nBcc: x@y.org"}, "e-mail address"),
                       ({"address": "a@b.org", "kinds": ["spam"]}, "spam"),
                       ({"address": "a@b.org", "warn_hours": "soon"}, "hours"),
                       ({"address": "a@b.org", "warn_hours": "-3"}, "more than 0")]:
        r = c.post(url, data=data)
        assert r.status_code == 400 and word in r.text, (data, r.text)
    r = c.post(f"/gm/{g.gm}/mail", data={"address": "a@b.org", "kinds": ["press"]})
    assert r.status_code == 400  # the GM reads no private press
    assert c.post("/play/nosuchtoken123/mail", data={"address": "a@b.org"}).status_code == 404


def test_a_failed_send_is_retried_later_and_the_password_never_shown(db_url, tmp_path,
                                                                   smtp_server, caplog):
    inbox, port = smtp_server
    closed = _free_port()
    app = create_app(db_url, tmp_path / "data", tick_seconds=3600,
                     smtp=f"smtp://user:{PASSWORD}@127.0.0.1:{closed}")
    caplog.set_level("INFO")
    with TestClient(app) as c:
        g = Game(c, movement_minutes=90)
        g.subscribe("France", "france@example.org")
        assert tick(c, timedelta(minutes=31)) == 0  # nobody listens there
        with c.app.state.ctx.db.read() as s:
            row = s.scalars(select(MailOutboxRow).where(MailOutboxRow.state == "queued")).one()
            assert row.attempts == 1 and row.error and PASSWORD not in row.error
        mailer = c.app.state.mailer
        mailer.smtp.port = port  # the server is back: but it offers no login
        assert tick(c, timedelta(minutes=31, seconds=50)) == 0  # backoff: not tried yet
        with c.app.state.ctx.db.read() as s:
            assert s.scalars(select(MailOutboxRow.attempts)).one() == 1
        assert tick(c, timedelta(minutes=33)) == 0  # tried: the login fails
        with c.app.state.ctx.db.read() as s:
            row = s.scalars(select(MailOutboxRow)).one()
            assert row.attempts == 2 and "AUTH" in (row.error or "")
            assert PASSWORD not in (row.error or "")
        mailer.smtp.user = mailer.smtp.password = None
        assert tick(c, timedelta(minutes=36)) == 1 and len(inbox.mails) == 1
        assert PASSWORD not in repr(mailer.smtp)
    assert "mail" in caplog.text and PASSWORD not in caplog.text


def test_a_bad_smtp_url_is_refused_without_its_password(capsys, tmp_path, monkeypatch):
    from polydip.cli.main import main
    from polydip.host.mail import SmtpError, parse_smtp

    for url in (f"smtp://u:{PASSWORD}@host:port", f"ftp://u:{PASSWORD}@host",
                f"smtp://u:{PASSWORD}@", f"smtp://u:{PASSWORD}@host/path"):
        with pytest.raises(SmtpError) as err:
            parse_smtp(url)
        assert PASSWORD not in str(err.value) and "--smtp" in str(err.value)
    assert parse_smtp("smtps://me:p%40ss@mail.example.org").port == 465
    assert parse_smtp("smtps://me:p%40ss@mail.example.org").password == "p@ss"
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--smtp", f"smtp://u:{PASSWORD}@host:port", "--port", "8999"]) == 1
    err = capsys.readouterr().err
    assert "--smtp" in err and PASSWORD not in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # refused before any database was made


def test_processing_undo_and_a_moved_deadline_are_mailed_as_gm_actions(mail_client):
    c, inbox = mail_client
    g = Game(c)
    g.subscribe("Italy", "italy@example.org", kinds=["gm"])
    assert c.post(f"/api/gm/{g.gm}/process", json={"phase": g.pid()}).status_code == 200
    assert c.post(f"/api/gm/{g.gm}/undo", json={"phase": g.pid()}).status_code == 200
    r = c.post(f"/api/gm/{g.gm}/deadline", json={"extend_minutes": 60, "phase": g.pid()})
    assert r.status_code == 200, r.text
    assert tick(c) == 3
    subjects = sorted(m["Subject"] for m in inbox.take())
    assert [s.split("the GM ", 1)[1].split(":")[0] for s in subjects] == [
        "moved the deadline", "processed the phase", "undid the last phase"]


def test_polydip_serve_mails_the_results_through_a_server_with_a_login(tmp_path):
    """The whole way: `polydip serve --smtp` with a login (from POLYDIP_SMTP), the GM's
    address given on the GM's page, the deadline passed: the results arrive by themselves,
    and neither the server's output nor its log shows the password."""
    import json
    import os
    import subprocess
    import sys
    import time
    import urllib.parse
    import urllib.request
    from pathlib import Path

    from aiosmtpd.smtp import AuthResult, LoginPassword

    logins: list[tuple[str, str]] = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        assert isinstance(auth_data, LoginPassword)
        logins.append((auth_data.login.decode(), auth_data.password.decode()))
        return AuthResult(success=auth_data.password.decode() == PASSWORD)

    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=_free_port(),
                      authenticator=authenticator, auth_require_tls=False)
    smtp.start()
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "POLYDIP_SMTP": f"smtp://gm:{PASSWORD}@127.0.0.1:{smtp.port}"}
    out = open(tmp_path / "serve.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "polydip.cli.main", "serve", "--port",
                             str(port), "--data", str(tmp_path), "--tick", "0.5",
                             "--mail-from", "host@polydip.test"],
                            stdout=out, stderr=subprocess.STDOUT, env=env)

    def call(path: str, body: dict | None = None, form: dict | None = None) -> dict:
        data = (json.dumps(body).encode() if body is not None else
                urllib.parse.urlencode(form or {}, doseq=True).encode() if form else None)
        kind = "application/json" if form is None else "application/x-www-form-urlencoded"
        req = urllib.request.Request(url + path, data=data, headers={"content-type": kind})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read()) if form is None else {}

    try:
        for _ in range(300):
            try:
                call("/api/variants")
                break
            except OSError:
                time.sleep(0.1)
        gm = call("/api/games", {"variant": "standard"})["gm_token"]
        call(f"/gm/{gm}/mail", form={"address": "gm@example.org", "kinds": ["result"]})
        state = call(f"/api/gm/{gm}")
        call(f"/api/gm/{gm}/deadline", {"minutes_from_now": 0, "phase": state["phase_id"]})
        for _ in range(150):
            if inbox.mails:
                break
            time.sleep(0.2)
        [m] = inbox.mails
        assert m["To"] == "gm@example.org" and "F1901M" in m["Subject"]
        assert any(p.get_content_type() == "image/png" for p in m.iter_attachments())
        assert logins == [("gm", PASSWORD)]
    finally:
        proc.terminate()
        proc.wait(30)
        out.close()
        smtp.stop()
    text = (tmp_path / "serve.log").read_text()
    assert f"mail through smtp://gm@127.0.0.1:{smtp.port}" in text
    assert PASSWORD not in text and "gm@example.org" not in text


def test_the_unsubscribe_token_is_masked_in_the_logs_like_a_link():
    from polydip.host.edge import mask_tokens

    line = '127.0.0.1 - "GET /mail/unsubscribe/12-0123456789abcdef HTTP/1.1" 200'
    assert mask_tokens(line) == '127.0.0.1 - "GET /mail/unsubscribe/*** HTTP/1.1" 200'

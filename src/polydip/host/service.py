"""What the host does with its games, one database transaction per call.

Everything about Diplomacy is the game layer's: orders are read by the message reader that
`polydip orders` uses, kept by Game.set_orders, adjudicated by Game.process; the powers that
missed their orders are the report's (polydip.report.missed_orders). This module keeps those
games in the database: a phase is processed in one transaction that either writes the next
phase whole or changes nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from polydip.errors import PolydipError
from polydip.game.combined import combined_phase
from polydip.game.files import game_from_json, game_to_json
from polydip.game.game import Game
from polydip.game.message import (
    LineProblem,
    Message,
    apply_message,
    order_examples,
    read_message,
)
from polydip.host import bots as bot_seats
from polydip.host import notify
from polydip.host.db import UNAVAILABLE, Database
from polydip.host.models import DrawVoteRow, GameRow, OrderRow, PhaseRow, PowerRow
from polydip.host.notify_clock import check_clock, clock_deadline, set_clock
from polydip.host.press_rows import exported_messages
from polydip.host.records import game_file_of, phase_record
from polydip.host.tokens import new_token, power_token, token_hash
from polydip.report import missed_orders, pending_lines

if TYPE_CHECKING:
    from polydip.geography.map import Map

log = logging.getLogger("polydip.host")

# deadlines in minutes when the GM gives none: a day to move, half a day otherwise
DEFAULT_MINUTES = {"M": 24 * 60.0, "R": 12 * 60.0, "A": 12 * 60.0}
MAX_MINUTES = 366 * 24 * 60.0
_SHORTENED_PAST = ("bringing the deadline {minutes:g} min closer would put it in the past "
                   "({left}); nothing was changed: to process the phase now, use Process now")
MAX_ORDER_TEXT = 20_000  # characters of one submission
MAX_ORDER_LINES = 400  # its lines (the largest power has a few dozen units)
MAX_VARIANT_TEXT = 2_000_000


class HostError(PolydipError):
    """A request the host refuses; `status` is the HTTP status it answers with."""

    status = 400


class NotFound(HostError):
    status = 404


class Conflict(HostError):
    status = 409


class Stale(Conflict):
    """A request made for a phase that is no longer the game's: nothing was changed."""


class Late(Stale):
    """A player's request after the phase's deadline: refused (the phase is processed)."""


class ProcessingFailed(Conflict):
    """Processing the game's phase failed; the game is marked for its GM (GameRow.failure)."""


def phase_id(g: GameRow) -> str:
    """What a request names the phase it was made for with: the phase's name, how many
    phases came before it, and a key drawn anew each time the game reaches a phase (so a
    phase processed, undone and processed again has a new id)."""
    return f"{g.phase}-{g.seq}-{g.phase_key}"


def new_phase_key() -> str:
    return uuid.uuid4().hex[:12]


def now_utc() -> datetime:
    """The time as stored: UTC without a zone (SQLite keeps no zone)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Host:
    """The games of one database; `data_dir` holds uploaded variant files."""

    def __init__(self, db: Database, data_dir: str | Path) -> None:
        self.db = db
        self.data_dir = Path(data_dir)
        self._cache: OrderedDict[str, Game] = OrderedDict()
        self._cache_lock = threading.Lock()

    # ---- creating --------------------------------------------------------------------------

    def create_game(self, variant: str = "standard", variant_text: str | None = None,
                    name: str = "", options: dict[str, Any] | None = None,
                    movement_minutes: float | None = None,
                    retreat_minutes: float | None = None,
                    adjustment_minutes: float | None = None,
                    nmr_limit: int = 0, paused: bool = False,
                    clock: dict[str, Any] | None = None,
                    bots: dict[str, str] | None = None) -> tuple[int, str]:
        """A new game; returns its id and the GM's token. `clock`: deadlines at a time of
        day (host/notify_clock.py). `bots`: power name -> bot player for the powers given to
        a bot from the start (host/bots.py)."""
        clock = check_clock(clock) if clock else None
        minutes = {"M": movement_minutes, "R": retreat_minutes, "A": adjustment_minutes}
        for k, given in minutes.items():
            if given is None:
                minutes[k] = DEFAULT_MINUTES[k]
            elif not 0 < given <= MAX_MINUTES:
                raise HostError(f"a deadline is more than 0 and at most {MAX_MINUTES:.0f} "
                                f"minutes (got {given})")
        if not 0 <= nmr_limit <= 100:
            raise HostError("nmr_limit: 0 (never) to 100 missed movement phases")
        from polydip.variants.untrusted import name_problem

        problem = name_problem(name, untrusted=False)
        if problem:  # (a NUL breaks PostgreSQL; a line break, the pages)
            raise HostError(f"the game's name: {problem}")
        if variant_text is not None:
            if len(variant_text) > MAX_VARIANT_TEXT:
                raise HostError("the variant file is larger than 2 MB")
            # read from the uploaded text alone, bounded, before it is kept or compiled: it
            # includes no file of the server's and its errors show nothing of the server
            from polydip.variants.loader import load_variant_text

            v = load_variant_text(variant_text, variant, untrusted=True)
            self._variant_file(variant_text, variant)  # (v.path names no server folder)
        else:  # a built-in variant by name, never a file of the server's
            from polydip.errors import did_you_mean
            from polydip.variants.loader import builtin_names, load_builtin

            name_ = variant.strip().lower()
            if name_ not in builtin_names():
                raise HostError(f"no built-in variant named {variant[:80]!r}"
                                + did_you_mean(variant[:80], builtin_names())
                                + f"; built-in variants: {', '.join(builtin_names())}; "
                                "or upload a variant file")
            v = load_builtin(name_)
        game = Game.new(v, options or {}, name=name[:200])
        if variant_text is not None:  # (after what the file's content may be refused for)
            _check_upload_name(v.name, variant_text)
        gm = new_token()
        now = now_utc()
        with self.db.transaction() as s:
            g = GameRow(name=name[:200] or game.variant.title[:200], variant=game.variant.name,
                        variant_text=variant_text, options=dict(options or {}),
                        gm_token_hash=token_hash(gm), status="active", seq=0,
                        phase=game.phase, paused=paused, paused_left=0.0,
                        movement_minutes=minutes["M"], retreat_minutes=minutes["R"],
                        adjustment_minutes=minutes["A"], nmr_limit=nmr_limit, created=now,
                        phase_key=new_phase_key())
            s.add(g)
            s.flush()
            for i, pname in enumerate(game.map.powers):
                if game.map.power_neutral[i]:
                    continue
                s.add(PowerRow(game_id=g.id, power=i, name=pname, generation=0, missed=0,
                               civil_disorder=False,
                               token_hash=token_hash(power_token(gm, g.id, i, 0))))
            s.add(self._phase_row(g.id, 0, game, []))
            if clock:
                set_clock(s, g.id, clock)
            self._start_clock(g, game, now)
            if bots:
                bot_seats.seat_at_creation(self, s, g, game, bots)
            return g.id, gm

    def _variant_file(self, text: str, name: str) -> Path:
        """An uploaded variant kept as a file (the game file names it by its path); every
        file of its folder is read in the loader's untrusted mode, when a game is loaded
        again too."""
        from polydip.variants.loader import untrusted_folder

        folder = self.data_dir / "variants"
        folder.mkdir(parents=True, exist_ok=True)
        untrusted_folder(folder)
        stem = hashlib.sha256(text.encode()).hexdigest()[:32]
        suffixes = (".toml", ".map", ".cfg")
        suffix = Path(name).suffix.lower()
        if suffix not in suffixes:  # a game file names an upload by no path: the file kept
            kept = [folder / (stem + s) for s in suffixes if (folder / (stem + s)).is_file()]
            if len(kept) == 1:
                return kept[0]
            # its file went missing (or the text was kept in two formats): the format from
            # the text (a .map or .cfg is no TOML)
            import tomllib

            try:
                tomllib.loads(text)
                suffix = ".toml"
            except (tomllib.TOMLDecodeError, RecursionError):
                suffix = ".cfg" if "\n[borders]" in "\n" + text.replace(" ", "") else ".map"
        path = folder / (stem + suffix)
        if not path.exists():
            path.write_text(text, encoding="utf-8")
        return path

    # ---- finding ---------------------------------------------------------------------------

    def gm_game(self, s: Session, token: str, lock: bool = False) -> GameRow:
        g = s.scalars(self._locked(select(GameRow).where(
            GameRow.gm_token_hash == token_hash(token)), lock)).first()
        if g is None:
            raise NotFound("no game has this GM link (check the link, or ask for a new one)")
        return g

    def player(self, s: Session, token: str, lock: bool = False) -> tuple[GameRow, PowerRow]:
        p = s.scalars(select(PowerRow).where(PowerRow.token_hash == token_hash(token))).first()
        if p is None:
            raise NotFound("no power has this link (check the link; if the GM gave your "
                           "power a new player, the old link no longer works)")
        g = s.scalars(self._locked(select(GameRow).where(GameRow.id == p.game_id), lock)).one()
        return g, p

    def _locked(self, stmt: Select[GameRow], lock: bool) -> Select[GameRow]:
        return stmt.with_for_update() if lock and self.db.locks_rows else stmt

    def powers(self, s: Session, g: GameRow) -> list[PowerRow]:
        return list(s.scalars(select(PowerRow).where(PowerRow.game_id == g.id)
                              .order_by(PowerRow.power)))

    def order_rows(self, s: Session, g: GameRow, seq: int | None = None) -> dict[int, OrderRow]:
        seq = g.seq if seq is None else seq
        rows = s.scalars(select(OrderRow).where(OrderRow.game_id == g.id, OrderRow.seq == seq))
        return {r.power: r for r in rows}

    def votes(self, s: Session, g: GameRow) -> dict[int, bool]:
        rows = s.scalars(select(DrawVoteRow).where(DrawVoteRow.game_id == g.id))
        return {r.power: r.vote for r in rows}

    def phase_row(self, s: Session, g: GameRow, seq: int | None = None) -> PhaseRow:
        seq = g.seq if seq is None else seq
        row = s.scalars(select(PhaseRow).where(PhaseRow.game_id == g.id,
                                               PhaseRow.seq == seq)).first()
        if row is None:
            raise NotFound(f"no phase {seq} in this game (0 to {g.seq})")
        return row

    def phase_uid(self, s: Session, g: GameRow, seq: int | None = None) -> str:
        """What names the version of phase `seq` (changed by a draw, new after an undo)."""
        seq = g.seq if seq is None else seq
        uid = s.scalar(select(PhaseRow.uid).where(PhaseRow.game_id == g.id,
                                                  PhaseRow.seq == seq))
        if uid is None:
            raise NotFound(f"no phase {seq} in this game (0 to {g.seq})")
        return uid

    def game(self, s: Session, g: GameRow, seq: int | None = None) -> Game:
        """The game as phase `seq` began (default: the current phase), without its pending
        orders. Shared and cached: read it, never change it (see `fresh_game`)."""
        seq = g.seq if seq is None else seq
        uid = self.phase_uid(s, g, seq)
        with self._cache_lock:
            game = self._cache.get(uid)
            if game is not None:
                self._cache.move_to_end(uid)
                return game
        game = self._load(s, g, seq)  # the phase rows only when not cached
        with self._cache_lock:
            self._cache[uid] = game
            while len(self._cache) > 256:
                self._cache.popitem(last=False)
        return game

    def fresh_game(self, s: Session, g: GameRow) -> Game:
        """The current phase's game as a new object, to change."""
        return self._load(s, g, g.seq)

    def _load(self, s: Session, g: GameRow, seq: int) -> Game:
        """The game as phase `seq` began, put back together from phase rows 0 to `seq`."""
        records = [json.loads(r) for r in s.scalars(
            select(PhaseRow.record).where(PhaseRow.game_id == g.id, PhaseRow.seq <= seq)
            .order_by(PhaseRow.seq))]
        if len(records) != seq + 1:
            raise NotFound(f"no phase {seq} in this game (0 to {g.seq})")
        data = game_file_of(records, f"game {g.id}")
        if g.variant_text is not None:  # the uploaded file, written again if it went missing
            data["variant"]["path"] = str(self._variant_file(g.variant_text,
                                                             data["variant"].get("path", "")))
        return Game.from_record(game_from_json(data, f"game {g.id}"))

    def pending(self, s: Session, g: GameRow, power: int, row: OrderRow | None = None
                ) -> Game:
        """A view of the current phase holding only `power`'s pending orders (what that
        power may see), to read or to give orders to. `row`: its order row, when read."""
        base = self.game(s, g)
        row = row or self.order_rows(s, g).get(power)
        orders = {power: list(row.lines)} if row is not None and row.lines else {}
        return Game(base.variant, base.map, base.position, base.options, orders,
                    base.history, base.status, base.winners, base.name)

    # ---- players ---------------------------------------------------------------------------

    def submit(self, token: str, text: str, mode: str = "replace", *, phase: str
               ) -> dict[str, Any]:
        """A power's orders from a text (as typed, one or more lines). `replace`: the text is
        the power's whole set of orders; `merge`: each order replaces only the earlier order
        of its unit. `phase`: the id of the phase they were given for (phase_id); another
        phase's are refused (Stale). Returns what was understood, line by line problems and
        notes."""
        if mode not in ("replace", "merge"):
            raise HostError("mode is 'replace' or 'merge'")
        if len(text) > MAX_ORDER_TEXT:
            raise HostError(f"orders longer than {MAX_ORDER_TEXT} characters")
        if len(text.splitlines()) > MAX_ORDER_LINES:
            raise HostError(f"orders of more than {MAX_ORDER_LINES} lines: send your units' "
                            "orders, one a line")
        # the text is read before the write transaction, in a read one: reading many lines
        # with misspelled names takes a while, and no other request should wait on it (a
        # SQLite file has one writer for every game)
        early = self._read_early(token, text, phase)
        with self._player_request(token, phase) as (s, g, p):
            row = self.order_rows(s, g).get(p.power)
            game = self.pending(s, g, p.power, row)
            m = game.map
            uid = self.phase_uid(s, g)
            msg = early[1] if early is not None and early[0] == (uid, p.power) else \
                read_message(m, game.position, text, default_power=p.power,
                             combined=game.combined)
            foreign = [o for o in msg.orders if o.power != p.power]
            msg.orders = [o for o in msg.orders if o.power == p.power]
            problems = list(msg.problems) + [
                LineProblem(o.line, o.text, f"you play {m.powers[p.power]}; orders for "
                            f"{m.powers[o.power]} are not taken") for o in foreign]
            lines_typed = text.splitlines()
            problems += [  # in a box meant for orders, no line passes unremarked
                LineProblem(n, lines_typed[n - 1].strip(), "not read as an order",
                            order_examples(game.position.phase.type, m))
                for n in msg.ignored if 0 < n <= len(lines_typed)]
            problems += [  # permissions are the passages form's (it checks who controls)
                LineProblem(pm.line, pm.text, "a passage permission is not an order",
                            "give it with the passages form of this page", p.power,
                            "permission_refused") for pm in msg.permissions]
            if mode == "replace":
                game.orders.pop(p.power, None)
            problems += apply_message(game, msg)
            lines = list(game.orders.get(p.power, []))
            if row is None:
                row = OrderRow(game_id=g.id, seq=g.seq, power=p.power, ready=False)
                s.add(row)
            row.lines = lines
            row.updated = now_utc()
            if p.civil_disorder and lines:  # the player is back: civil disorder ends
                p.civil_disorder, p.missed = False, 0
            return {
                "phase": g.phase,
                "phase_id": phase_id(g),
                "orders": lines,
                "understood": pending_lines(game, p.power, _names(m)),
                "problems": [_problem(pr) for pr in sorted(problems, key=lambda x: x.line)],
                "notes": list(msg.notes),
                "ignored_lines": list(msg.ignored),
            }

    def _read_early(self, token: str, text: str, phase: str
                    ) -> tuple[tuple[str, int], Message] | None:
        """`submit`'s reading of the text, done without the writer's lock: ((the phase's
        version, the power), the message read), or None when the request will be refused
        anyway (another phase, an unknown link: the write transaction says why)."""
        with self.db.read() as s:
            try:
                g, p = self.player(s, token)
            except NotFound:
                return None
            if g.status != "active" or phase_id(g) != phase:
                return None
            uid = self.phase_uid(s, g)
            game = self.game(s, g)
            return (uid, p.power), read_message(game.map, game.position, text,
                                                default_power=p.power, combined=game.combined)

    def set_ready(self, token: str, ready: bool, *, phase: str) -> bool:
        """Set a power's ready flag for phase `phase` (its id); returns True when that made
        every power ready and the phase was processed at once."""
        with self._player_request(token, phase) as (s, g, p):
            row = self.order_rows(s, g).get(p.power)
            if row is None:
                row = OrderRow(game_id=g.id, seq=g.seq, power=p.power, lines=[])
                s.add(row)
            row.ready = ready
            row.updated = now_utc()
            s.flush()
            if ready and self._all_ready(s, g):
                return self._process_guarded(s, g, now_utc()) is None
            return False

    def vote_draw(self, token: str, vote: bool, *, phase: str) -> bool:
        """A power's secret draw vote, cast in phase `phase` (its id); returns True when the
        draw passed (every surviving power not in civil disorder voted for it: a draw
        including all survivors)."""
        with self._player_request(token, phase) as (s, g, p):
            row = s.scalars(select(DrawVoteRow).where(DrawVoteRow.game_id == g.id,
                                                      DrawVoteRow.power == p.power)).first()
            if row is None:
                row = DrawVoteRow(game_id=g.id, power=p.power)
                s.add(row)
            row.vote = vote
            s.flush()
            return self._check_draw(s, g)

    @contextlib.contextmanager
    def _gm_or_player_request(self, token: str, gm: bool, phase: str
                              ) -> Iterator[tuple[Session, GameRow, PowerRow | None]]:
        """A GM's request (no power) or a player's (_player_request) on an active game."""
        if not gm:
            with self._player_request(token, phase) as found:
                yield found
            return
        with self.db.transaction() as s:
            g = self.gm_game(s, token, lock=True)
            self._active(g)
            self._expect(g, phase)
            yield s, g, None

    @contextlib.contextmanager
    def _player_request(self, token: str, phase: str
                        ) -> Iterator[tuple[Session, GameRow, PowerRow]]:
        """The transaction of a player's request made for phase `phase` (its id), under the
        game's lock. After the phase's deadline nothing a player sends is taken: the overdue
        phase is processed first, in this transaction (a server just restarted, or a tick
        still to come, changes nothing), then the request is refused (Late, 409)."""
        with self.db.transaction() as s:
            g, p = self.player(s, token, lock=True)
            self._active(g)
            late = self._process_overdue(s, g)
            if late is None:
                self._expect(g, phase)
                yield s, g, p
                return
        raise Late(late)  # after the commit: the phase processed stays processed

    def _process_overdue(self, s: Session, g: GameRow) -> str | None:
        """None when phase g is still open; else process it (unless its processing failed
        before) and say so."""
        now = now_utc()
        if g.paused or g.deadline is None or g.deadline > now:
            return None
        was, deadline = g.phase, _iso(g.deadline)
        if g.failure is None and self._process_guarded(s, g, now) is None:
            return (f"the deadline of {was} passed at {deadline}: nothing more is taken for "
                    f"it; it has been processed, the game is now at {g.phase} (phase id "
                    f"{phase_id(g)!r})")
        return (f"the deadline of {was} passed at {deadline}: nothing more is taken for it; "
                "its processing failed and the GM has been told")

    def _check_draw(self, s: Session, g: GameRow) -> bool:
        game = self.game(s, g)
        survivors = [p for p in range(len(game.map.powers))
                     if not game.map.power_neutral[p] and game.position.centers_of(p)]
        rows = {p.power: p for p in self.powers(s, g)}
        voters = [p for p in survivors if p in rows and not rows[p].civil_disorder]
        votes = self.votes(s, g)
        if not voters or not all(votes.get(p) for p in voters):
            return False
        fresh = self.fresh_game(s, g)
        sharing: list[int | str] = [*survivors]
        fresh.declare_draw(sharing)
        row = self.phase_row(s, g)
        row.record = json.dumps(phase_record(fresh, g.seq))
        row.uid = uuid.uuid4().hex
        g.status, g.deadline = fresh.status, None
        return True

    def permit(self, token: str, passage: str, powers: list[str], gm: bool = False,
               controller: str | None = None, *, phase: str) -> dict[str, list[str]]:
        """Record a passage permission (rule option passage_permissions): the power that
        controls `passage` now lets `powers` through (an empty list withdraws it). A player
        speaks for its own power, and only while it controls the passage; the GM for any
        `controller`. Takes effect from the phase being played; returns the passage's
        permissions."""
        if len(powers) > 100:
            raise HostError("too many powers")
        with self._gm_or_player_request(token, gm, phase) as (s, g, p):
            game = self.fresh_game(s, g)
            m = game.map
            controllers = m.rules.passage_controllers(m, game.position)
            try:
                passage = m.rules.passage(passage)
                who = (game.power(controller) if gm and controller else
                       controllers[passage] if p is None else p.power)  # (None: the GM)
            except PolydipError as exc:
                raise HostError(str(exc)) from exc
            if not gm and controllers[passage] != who:
                raise Conflict(f"{m.powers[who]} does not control {passage} now; only the "
                               "power that does may let others through")
            if who < 0:
                raise Conflict(f"nobody controls {passage} now")
            try:
                game.permit(passage, powers, m.powers[who], replace=True)
            except PolydipError as exc:
                raise HostError(str(exc)) from exc
            perms = game.options["passage_permissions"]
            row = self.phase_row(s, g)
            row.record = json.dumps(phase_record(game, g.seq))
            row.uid = uuid.uuid4().hex
            g.options = {**g.options, "passage_permissions": perms}
            return perms.get(passage, {})

    # ---- the GM ----------------------------------------------------------------------------

    def links(self, gm_token: str) -> dict[str, str]:
        """Each power's current token (derived from the GM's)."""
        with self.db.read() as s:
            g = self.gm_game(s, gm_token)
            return {p.name: power_token(gm_token, g.id, p.power, p.generation)
                    for p in self.powers(s, g)}

    def process_now(self, gm_token: str, *, phase: str) -> tuple[str, str]:
        """Process phase `phase` (its id) now; returns the new phase's name and id. Two
        requests for the same phase process it once: the second is Stale."""
        with self.db.transaction() as s:
            g = self.gm_game(s, gm_token, lock=True)
            self._active(g)
            self._expect(g, phase)
            failed = self._process_guarded(s, g, now_utc())
            answer = g.phase, phase_id(g)
            if not failed:
                notify.gm_action(s, g, f"processed the phase: the game is now at {g.phase}")
        if failed:  # the mark is committed; the GM is told why
            raise ProcessingFailed(f"processing failed: {failed} (the phase is as it was; "
                                   "undo, or fix the cause and process again)")
        return answer

    def undo(self, gm_token: str, *, phase: str) -> tuple[str, str]:
        """Step back from phase `phase` (its id) over the last processed phase (and over the
        phases processed at once because nobody had anything to order): their orders become
        pending again. Returns the phase's name and its new id."""
        with self.db.transaction() as s:
            g = self.gm_game(s, gm_token, lock=True)
            self._expect(g, phase)
            if g.seq == 0:
                raise Conflict("nothing to undo: no phase has been processed")
            pending = {p: list(r.lines) for p, r in self.order_rows(s, g).items() if r.lines}
            if pending:  # pending again when processing reaches this phase (Game.undone)
                g.undone = [*(g.undone or []), {"after": g.seq, "phase": g.phase,
                                                "orders": {str(p): lines for p, lines
                                                           in pending.items()}}]
            while True:
                row = self.phase_row(s, g)
                powers = self.powers(s, g)
                for p, before in zip(powers, row.powers_before, strict=False):
                    p.missed, p.civil_disorder = before[0], bool(before[1])
                for o in self.order_rows(s, g).values():
                    s.delete(o)
                s.delete(row)
                g.seq -= 1
                s.flush()
                game = self.game(s, g)
                if g.seq == 0 or (game.powers_to_order() and not _carried_into(game)):
                    break
            for o in self.order_rows(s, g).values():
                o.ready = False
            g.phase, g.status, g.phase_key = game.phase, "active", new_phase_key()
            g.failure = None
            self._start_clock(g, game, now_utc())
            notify.gm_action(s, g, f"undid the last phase: the game is back at {g.phase}")
            bot_seats.phase_opened(self, s, g, game)
            return g.phase, phase_id(g)

    def pause(self, gm_token: str, paused: bool, *, phase: str) -> None:
        """Pause the phase's clock (the time left is kept) or resume it. A pause asked after
        the deadline passed, before the deadline task came to it, finds no time left to
        keep: the phase is processed, as it would have been a moment later, and the request
        is refused (Late) naming the new phase, which the GM may pause."""
        late = None
        with self.db.transaction() as s:
            g = self.gm_game(s, gm_token, lock=True)
            self._active(g)
            self._expect(g, phase)
            now = now_utc()
            if paused and not g.paused:
                late = self._process_overdue(s, g)
                if late is None:
                    left = (g.deadline - now).total_seconds() if g.deadline else 0.0
                    g.paused, g.paused_left, g.deadline = True, max(left, 0.0), None
                    notify.gm_action(s, g, "paused the game")
            elif not paused and g.paused:
                g.paused = False
                if g.paused_left > 0:
                    g.deadline = now + timedelta(seconds=g.paused_left)
                else:
                    self._start_clock(g, self.game(s, g), now)
                notify.gm_action(s, g, "resumed the game")
            # (else paused already, or running already: nothing to tell)
        if late is not None:
            raise Late(late)  # after the commit: the phase processed stays processed

    def set_deadline(self, gm_token: str, extend_minutes: float | None = None,
                     minutes_from_now: float | None = None, at: str | None = None, *,
                     phase: str) -> datetime | None:
        """Extend the deadline of phase `phase` (its id) by some minutes, set it some minutes
        from now, or at a time of day (`at`, "HH:MM" in UTC: the next time the clock shows
        it)."""
        given = [n for n, v in (("extend_minutes", extend_minutes),
                                 ("minutes_from_now", minutes_from_now), ("at", at))
                 if v is not None]
        if len(given) != 1:
            raise HostError("give one of extend_minutes, minutes_from_now or at"
                            + (f", not {' and '.join(given)}" if given else ""))
        for v in (extend_minutes, minutes_from_now):
            if v is not None and not -MAX_MINUTES <= v <= MAX_MINUTES:
                raise HostError(f"minutes must be within ±{MAX_MINUTES:.0f}")
        if extend_minutes == 0:
            raise HostError("extend the deadline by some minutes (more than 0; fewer than 0 "
                            "brings it closer)")
        with self.db.transaction() as s:
            g = self.gm_game(s, gm_token, lock=True)
            self._active(g)
            self._expect(g, phase)
            g.failure = None  # a new deadline: processing is tried again when it comes
            now = now_utc()
            if at is not None:
                minutes_from_now = _minutes_until(at, now)
            if g.paused:
                if minutes_from_now is not None:
                    g.paused_left = max(minutes_from_now * 60, 0.0)
                if extend_minutes is not None:
                    if g.paused_left + extend_minutes * 60 <= 0:
                        raise HostError(_SHORTENED_PAST.format(
                            minutes=-extend_minutes, left=f"{g.paused_left / 60:.0f} min left"))
                    g.paused_left += extend_minutes * 60
                return None
            if minutes_from_now is not None:
                g.deadline = now + timedelta(minutes=minutes_from_now)
            if extend_minutes is not None:
                moved = (g.deadline or now) + timedelta(minutes=extend_minutes)
                if extend_minutes < 0 and moved <= now:
                    # (a sign slipped: "-120" for "120" would end the phase at once)
                    raise HostError(_SHORTENED_PAST.format(
                        minutes=-extend_minutes,
                        left=f"the deadline is {_iso(g.deadline) if g.deadline else 'not set'}"))
                g.deadline = moved
            notify.gm_action(s, g, "moved the deadline")
            return g.deadline

    def replace_player(self, gm_token: str, power: str, *, phase: str) -> tuple[str, str]:
        """A new link for a power (the old one stops working), asked for in phase `phase`
        (its id); returns the power's name (as the variant writes it: "italy" names Italy)
        and the new token."""
        with self.db.transaction() as s:
            g = self.gm_game(s, gm_token, lock=True)
            self._expect(g, phase)
            game = self.game(s, g)
            try:
                idx = game.power(power)
            except PolydipError as exc:
                raise HostError(str(exc)) from exc
            row = next((p for p in self.powers(s, g) if p.power == idx), None)
            if row is None:
                raise HostError(f"{game.map.powers[idx]} is neutral: it has no player")
            row.generation += 1
            row.missed, row.civil_disorder = 0, False
            token = power_token(gm_token, g.id, idx, row.generation)
            row.token_hash = token_hash(token)
            notify.player_replaced(s, g, idx, row.name)
            return game.map.powers[idx], token

    def game_file(self, gm_token: str) -> dict[str, Any]:
        """The polydip game file of the game now, pending orders included."""
        with self.db.read() as s:
            g = self.gm_game(s, gm_token)
            game = self._with_orders(s, g)
            return game_to_json(game)

    def diplomacy_json(self, gm_token: str) -> dict[str, Any]:
        from polydip.game.dipjson import game_to_diplomacy

        with self.db.read() as s:
            g = self.gm_game(s, gm_token)
            return game_to_diplomacy(self._with_orders(s, g))

    def _with_orders(self, s: Session, g: GameRow) -> Game:
        """The current phase's game with its pending orders, and those an undo kept."""
        game = self.fresh_game(s, g)
        game.orders = {p: list(r.lines) for p, r in self.order_rows(s, g).items() if r.lines}
        game.undone = _undone_of(g)
        game.messages = exported_messages(s, g.id, game.map.powers)  # press the GM reads
        return game

    # ---- processing ------------------------------------------------------------------------

    def process_due(self, now: datetime | None = None) -> list[int]:
        """Process every game whose deadline has passed (or whose powers are all ready);
        returns their ids. Each game is its own transaction, which claims the game's row
        first (SELECT ... FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite has one writer), then
        checks its deadline again: several server processes process each phase once."""
        now = now or now_utc()
        with self.db.transaction() as s:
            due = list(s.scalars(select(GameRow.id).where(
                GameRow.status == "active", GameRow.paused.is_(False),
                GameRow.failure.is_(None),  # marked for its GM: tried again when told
                GameRow.deadline.is_not(None), GameRow.deadline <= now)))
        done = []
        for gid in due:
            with self.db.transaction() as s:
                # the claim: on PostgreSQL a game another process (a `--workers` sibling, a
                # request) holds is skipped, not waited for; it does or did process it
                stmt = select(GameRow).where(GameRow.id == gid)
                g = s.scalars(stmt.with_for_update(skip_locked=True) if self.db.locks_rows
                              else stmt).first()
                if (g is None or g.status != "active" or g.paused or g.deadline is None
                        or g.deadline > now or g.failure is not None):
                    continue  # held or processed meanwhile by a request or another server
                if self._process_guarded(s, g, now) is None:
                    done.append(gid)
                    log.info("game %s: processed at the deadline, now %s", gid, g.phase)
        return done

    def _process_guarded(self, s: Session, g: GameRow, now: datetime) -> str | None:
        """`_process` inside a savepoint: None when the phase was processed; otherwise the
        reason it failed — the savepoint rolled back (the phase as it was, its orders kept),
        the game marked for its GM (GameRow.failure, so the deadline task leaves it alone
        until the GM acts) and one line logged with the game's id. Whatever the failure (a
        bug, a variant file gone, a value the database refuses), it stays this game's; only
        the database being unavailable is raised (every game waits for it alike)."""
        try:
            with s.begin_nested():
                self._process(s, g, now)
        except UNAVAILABLE:
            raise
        except Exception as exc:  # any failure is this game's alone
            reason = _failure_text(exc)
            log.error("game %s: processing %s failed: %s", g.id, g.phase, reason)
            g.failure = reason
            return reason
        g.failure = None
        return None

    def _all_ready(self, s: Session, g: GameRow) -> bool:
        game = self.game(s, g)
        cd = {p.power for p in self.powers(s, g) if p.civil_disorder}
        need = [p for p in game.powers_to_order() if p not in cd]
        rows = self.order_rows(s, g)
        return bool(need) and all(p in rows and rows[p].ready for p in need)

    def _process(self, s: Session, g: GameRow, now: datetime) -> None:
        """Adjudicate the current phase with the orders given, and the phases after it in
        which nobody has anything to order; all inside the caller's transaction."""
        game = self.fresh_game(s, g)
        game.orders = {p: list(r.lines) for p, r in self.order_rows(s, g).items() if r.lines}
        game.undone = _undone_of(g)
        powers = self.powers(s, g)
        first = g.seq
        while True:
            before = [[p.missed, p.civil_disorder] for p in powers]
            game.process()  # (a combined season's adjustments: the next turn of the loop)
            rec = game.history[-1]
            if rec.position.phase.type == "M":
                missed = set(missed_orders(game, rec))
                for p in powers:
                    if p.power in missed:
                        p.missed += 1
                        if g.nmr_limit and p.missed >= g.nmr_limit:
                            p.civil_disorder = True
                    elif p.power in rec.orders:
                        p.missed = 0
            g.seq += 1
            s.add(self._phase_row(g.id, g.seq, game, before))
            if game.is_over or (game.powers_to_order() and not game.carried):
                break
        # orders an undo kept for the phase reached, checked anew (Game._restore_undone)
        for power, lines in game.orders.items():
            if lines and not game.is_over:
                s.add(OrderRow(game_id=g.id, seq=g.seq, power=power, lines=list(lines),
                               ready=False, updated=now))
        g.undone = [{"after": n, "phase": name, "orders": {str(p): lines for p, lines
                                                            in orders.items()}}
                    for n, name, orders in game.undone]
        g.phase, g.status, g.phase_key = game.phase, game.status, new_phase_key()
        self._start_clock(g, game, now)
        notify.phase_processed(s, g, first)
        s.flush()
        bot_seats.phase_opened(self, s, g, game)

    def _start_clock(self, g: GameRow, game: Game, now: datetime) -> None:
        if game.is_over:
            g.deadline = None
            return
        minutes = {"M": g.movement_minutes, "R": g.retreat_minutes,
                   "A": g.adjustment_minutes}[game.position.phase.type]
        if g.paused:
            g.deadline, g.paused_left = None, minutes * 60
        else:
            g.deadline = (clock_deadline(g, game.position.phase.type, now)
                          or now + timedelta(minutes=minutes))

    def _phase_row(self, game_id: int, seq: int, game: Game, before: list[list[int]]
                   ) -> PhaseRow:
        # `before`: per power, [missed, civil_disorder] before the phase (bool is an int)
        return PhaseRow(game_id=game_id, seq=seq, name=game.phase, uid=uuid.uuid4().hex,
                        record=json.dumps(phase_record(game, seq)), powers_before=before,
                        created=now_utc())

    @staticmethod
    def _active(g: GameRow) -> None:
        if g.status != "active":
            raise Conflict(f"the game is over ({g.status})")

    # ---- links that leaked -----------------------------------------------------------------

    def rotate_links(self, gm_token: str) -> str:
        """A new GM link and, derived from it, a new link for every power; every old link
        stops working (404). Players keep their powers, orders and standing. Returns the
        new GM token."""
        with self.db.transaction() as s:
            g = self.gm_game(s, gm_token, lock=True)
            gm = new_token()
            g.gm_token_hash = token_hash(gm)
            bots = bot_seats.seats(s, g)  # a seat a bot plays keeps no working link
            for p in self.powers(s, g):
                p.token_hash = token_hash(new_token() if p.power in bots else
                                          power_token(gm, g.id, p.power, p.generation))
            notify.links_rotated(s, g)
            return gm

    @staticmethod
    def _expect(g: GameRow, phase: str) -> None:
        """Refuse a request made for another phase than the game's (a page left open across
        a deadline, an undo, or a second click on "process now")."""
        now = phase_id(g)
        if phase != now:
            raise Stale(f"this request was made for phase {phase[:60]!r}, but the game is "
                        f"now at {g.phase} (phase id {now!r}); nothing was changed: look at "
                        "the game again before sending it")


def _carried_into(game: Game) -> bool:
    """Whether the game's phase is the adjustment phase of a combined season, processed at
    once after its retreats (game/combined.py): undo steps back over it to the retreats,
    whose orders held the builds."""
    if game.position.phase.type != "A" or not game.history:
        return False
    before = game.history[-1].position.phase
    return (combined_phase(game.map, before, game.options)
            and (before.year, before.season) == (game.position.phase.year,
                                                 game.position.phase.season))


def _check_upload_name(name: str, text: str) -> None:
    """An uploaded variant's own name ([variant] name) is what its game files name it by,
    and `polydip` finds a variant by that name: a path would make the downloaded game read
    another file, and a built-in variant's name (on a file that is not that variant's own)
    would make it open the built-in variant, with its rules, in place of the upload."""
    from polydip.variants.loader import builtin_names, builtin_text

    if any(c in name for c in "/\\:") or ".." in name or name.startswith(".") or not name.strip():
        raise HostError(f"the uploaded variant's name {name[:80]!r} is not a plain name (no "
                        "'/', '\\', ':', '..' or leading '.'): rename it ([variant] name in its "
                        "file)")
    builtin = name.strip().lower()
    if builtin in builtin_names() and builtin_text(builtin) != text:
        raise HostError(f"the uploaded variant is named {name!r}, as a built-in variant is, "
                        "but it is not that variant's file: give it a name of its own "
                        "([variant] name), so that its game file opens it and not the "
                        "built-in one")


def _iso(d: datetime) -> str:
    return d.isoformat(timespec="seconds") + "Z"


def _failure_text(exc: BaseException) -> str:
    """One line saying why processing failed, for the GM and the log."""
    first = (str(exc).strip().splitlines() or [""])[0][:300]
    if isinstance(exc, PolydipError):
        return first or type(exc).__name__
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def _minutes_until(at: str, now: datetime) -> float:
    """Minutes from `now` to the next time the clock shows `at` ("HH:MM", UTC)."""
    try:
        hh, mm = (int(x) for x in at.strip().split(":"))
        if not (0 <= hh < 24 and 0 <= mm < 60):
            raise ValueError
    except ValueError:
        raise HostError(f"a time of day is HH:MM, 00:00 to 23:59 (got {at[:20]!r})") from None
    when = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
    if when <= now:
        when += timedelta(days=1)
    return (when - now).total_seconds() / 60


def _names(m: Map) -> str:
    from polydip.orders.describe import default_names

    return default_names(m)


def _problem(pr: LineProblem) -> dict[str, Any]:
    return {"line": pr.line, "text": pr.text, "reason": pr.reason,
            "suggestion": pr.suggestion, "code": pr.code}


def _undone_of(g: GameRow) -> list[tuple[int, str, dict[int, list[str]]]]:
    """The pending orders an undo kept (GameRow.undone), as Game.undone holds them."""
    return [(int(u["after"]), str(u["phase"]), {int(p): list(lines) for p, lines
                                                in u["orders"].items()})
            for u in g.undone or []]

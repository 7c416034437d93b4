"""The API's request and answer bodies (their fields' limits and descriptions are the
OpenAPI schema clients read)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from polydip.host.press import PressRule

# every state-changing request names the phase it was made for: a stale one changes nothing
PhaseId = Annotated[str, Field(max_length=60, description="the id of the phase this request "
                               "is made for (`phase_id` in the game's state); made for "
                               "another phase, it is refused with 409 and changes nothing")]


class Clock(BaseModel):
    at: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="HH:MM, local")
    zone: str = Field("UTC", max_length=64, description="an IANA time zone: Europe/Paris")
    min_hours: float = Field(12, ge=0, le=336, description="the deadline is the first such "
                             "time at least this many hours after the phase begins")
    phases: Literal["M", "MRA"] = Field("M", description="M: movement phases; MRA: all")


class CreateGame(BaseModel):
    variant: str = Field("standard", max_length=200,
                         description="a built-in variant's name (GET /api/variants), or the "
                         "uploaded file's name when variant_text is given")
    variant_text: str | None = Field(None, max_length=2_000_000,
                                     description="a variant file's text (TOML)")
    name: str = Field("", max_length=200)
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="rule options (docs/options.md)")
    movement_minutes: float | None = Field(None, gt=0, le=527040)
    retreat_minutes: float | None = Field(None, gt=0, le=527040)
    adjustment_minutes: float | None = Field(None, gt=0, le=527040)
    nmr_limit: int = Field(0, ge=0, le=100, description="civil disorder after this many "
                           "movement phases missed in a row (0: never)")
    paused: bool = False
    press: PressRule = Field(
        "full", description="the press rule: full, public (public messages only), none "
        "(gunboat), rulebook (none in retreat and adjustment phases)")
    anonymous: bool = Field(False, description="players known by their powers only")
    gm_reads_press: bool = Field(False, description="the GM reads private messages too")
    clock: Clock | None = Field(None, description="deadlines at a time of day in a time zone "
                                "(instead of the minutes, for the phases it names)")
    bots: dict[str, str] = Field(default_factory=dict, description="powers given to a bot "
                                 "from the start: power name -> bot player (bot, random, "
                                 "coherent, hold)")


class CreatedGame(BaseModel):
    game: int
    gm_token: str
    gm_url: str
    players: dict[str, str]


class OrdersIn(BaseModel):
    text: str = Field(max_length=20_000, description="orders, one a line, as players type")
    mode: Literal["replace", "merge"] = "replace"
    phase: PhaseId


class Problem(BaseModel):
    line: int
    text: str
    reason: str
    suggestion: str
    code: str = Field("", description="what is wrong, for programs (the message reader's "
                      "problem codes: docs/gm-guide.md)")


class OrdersOut(BaseModel):
    phase: str
    phase_id: str
    orders: list[str]
    understood: list[str]
    problems: list[Problem]
    notes: list[str]
    ignored_lines: list[int]


class ReadyIn(BaseModel):
    ready: bool
    phase: PhaseId


class DrawIn(BaseModel):
    vote: bool
    phase: PhaseId


class PauseIn(BaseModel):
    paused: bool
    phase: PhaseId


class PhaseIn(BaseModel):
    phase: PhaseId


class DeadlineIn(BaseModel):
    extend_minutes: float | None = Field(None, ge=-527040, le=527040)
    minutes_from_now: float | None = Field(None, ge=0, le=527040)
    at: str | None = Field(None, max_length=5, pattern=r"^\d{1,2}:\d{2}$",
                           description="a time of day, HH:MM in UTC: the next time it comes")
    phase: PhaseId


class ReplaceIn(BaseModel):
    power: str = Field(max_length=100)
    phase: PhaseId


class PassageIn(BaseModel):
    passage: str = Field(max_length=100)
    powers: list[str] = Field(max_length=100, description="the powers let through "
                              "(replaces the earlier list; [] withdraws the permission)")
    controller: str | None = Field(None, max_length=100, description="GM only: the "
                                   "controlling power the permission is recorded for")
    phase: PhaseId


class Message(BaseModel):
    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {400: {"model": Message}, 404: {"model": Message},
                                           409: {"model": Message}}

"""`dmtool play` as a plain function: options in, text through `emit`, an exit code out.

Exit codes: 0 every game ran to its end (a failed wanderer stage or a concluded finale);
1 the content has errors (printed, as `dmtool check` gives them; nothing is played), the
campaign state file has problems (its diagnostics are printed), or a game stalled or met
content the engine cannot run; 2 unusable options (raised as UsageError).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dmtool import __version__
from dmtool.engine.dawn_of_madness.campaign import (
    CampaignState,
    from_game,
    read_campaign,
    render,
    write_campaign,
)
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.constants import SCORE_GOALS
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import GameResult, play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.engine.dawn_of_madness.play.policies import policy_error, policy_names
from dmtool.errors import UsageError
from dmtool.model.content_index import default_content_dir
from dmtool.model.describe.events import describe_event
from dmtool.packaged import checkout_content
from dmtool.reporters import render as render_report
from dmtool.validation.gate import content_errors
from dmtool.writing import WriteFailed, check_writable, exclusive

GOALS = {goal: variant for variant, goal in SCORE_GOALS.items()}  # 30 -> short, ...


@dataclass(frozen=True)
class PlayOptions:
    """What `dmtool play` was asked to do."""

    wanderer: str = "hollis-brandt"
    seed: int = 0
    policy: str = "random"
    players: int = 1
    variant: str = "standard"
    score_goal: int | None = None
    devour: bool = False
    campaign: Path | None = None
    games: int = 1
    log: bool = True
    abomination: str | None = None
    content: Path | None = None


def _variant(options: PlayOptions) -> str:
    if options.score_goal is None:
        if options.variant not in SCORE_GOALS:
            raise UsageError(f"--variant must be one of {', '.join(SCORE_GOALS)}.")
        return options.variant
    if options.score_goal not in GOALS:
        raise UsageError(f"--score-goal must be one of {', '.join(map(str, sorted(GOALS)))}.")
    return GOALS[options.score_goal]


def _check(options: PlayOptions) -> None:
    if policy_error(options.policy) is not None:
        raise UsageError(f"--policy must be one of {', '.join(policy_names())} (or one "
                         "followed by ~EPSILON, a chance of a random move: greedy~0.3).")
    if not 1 <= options.players <= 4:
        raise UsageError("--players must be 1 to 4 (one player plays two wanderers).")
    if options.games < 1:
        raise UsageError("--games must be at least 1.")
    if options.seed < 0:
        raise UsageError("--seed must be zero or more.")


def refusal(root: Path) -> str | None:
    """What `play` and `balance` print instead of playing content that fails `dmtool check`
    (the errors as check gives them, then why nothing was played); None when it passes."""
    errors = content_errors([root])
    if not errors.diagnostics:
        return None
    # The engine would play broken content wrongly, or stop half-way: say what is wrong.
    return (render_report(errors, fmt="text", color=False, tool_version=__version__)
            + f"dmtool: the content under {root} has errors, so no game was played; fix them "
            f"first ('dmtool check {root}' shows every finding).\n")


def run_play(options: PlayOptions, *, emit: Callable[[str], None] = lambda _: None) -> int:
    """Play `options.games` games in a row; with a campaign file, each game starts from the
    file and the file is rewritten (atomically) when the game ends."""
    _check(options)
    variant = _variant(options)
    root = checkout_content(options.content) if options.content else default_content_dir()
    refused = refusal(root)
    if refused is not None:
        emit(refused)
        return 1
    try:
        base = load_catalog(root, options.wanderer)
    except EngineFault as fault:
        raise UsageError(f"{fault}; choose a wanderer authored under {root}.") from None
    keep = set(base.wanderers)
    if options.campaign is not None:
        check_writable(options.campaign)  # before any game is played, not after
    for number in range(options.games):
        game = NewGame(options.wanderer, options.seed + number, options.players, variant,
                       options.devour, options.abomination)
        if options.campaign is None:
            code = _play_one(options, base, game, None, emit)
        else:
            # Read, play and write under one lock, so concurrent runs add up.
            with exclusive(options.campaign):
                code = _play_one(options, base, game, keep, emit)
        if code:
            return code
    return 0


def _play_one(options: PlayOptions, base: Catalog, game: NewGame, keep: set[str] | None,
              emit: Callable[[str], None]) -> int:
    """One game, from and back to the campaign file when there is one (`keep` is then set)."""
    campaign: CampaignState | None = None
    before: bytes | None = None
    if options.campaign is not None:
        before = _current(options.campaign)
        campaign, problems = read_campaign(options.campaign, catalog=base)
        for d in problems:
            emit(f"{d.location}: {d.severity.value} {d.code} {d.message}\n")
        if campaign is None:
            emit(f"dmtool: {options.campaign} cannot be used; it was left unchanged.\n")
            return 1
    emit(f"=== game {game.seed - options.seed + 1} of {options.games}: {options.wanderer}, "
         f"seed {game.seed}, {game.seats} wanderers, score goal {SCORE_GOALS[game.variant]}"
         f"{', devour rule' if options.devour else ''}, {options.policy} policy\n")
    try:
        result = play(base, game, policy=options.policy, campaign=campaign,
                      on_event=(lambda e: emit(event_line(e) + "\n")) if options.log else None)
    except EngineFault as fault:
        emit(f"dmtool: the engine cannot run this content: {fault}\n")
        return 1
    emit(summary(result) + "\n")
    if result.stalled:
        return 1
    if options.campaign is not None and campaign is not None and keep is not None:
        updated = from_game(campaign, result.state, base, keep=keep, seed=game.seed)
        try:
            write_campaign(options.campaign, updated, replacing=before)
        except WriteFailed:
            # Nothing is lost: the state that could not be saved is shown for saving by hand.
            emit(f"dmtool: the campaign state below could not be saved to {options.campaign}:\n"
                 f"{render(updated, options.campaign)}")
            raise
        emit(f"campaign state saved to {options.campaign} "
             f"({updated.games_played} game(s) played)\n")
    return 0


def _current(path: Path) -> bytes | None:
    """The state file's bytes as read (None when there is none yet)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def summary(result: GameResult) -> str:
    state = result.state
    scores = " ".join(f"{e} {n}" for e, n in state.scores.items())
    if result.stalled:
        return f"result: stalled after {result.steps} steps (round {state.round})"
    if state.stage == "finale":
        return (f"result: ending {state.ending}, concluded in entry "
                f"{(state.conclusion or {}).get('entry')} (finale round {state.round}); "
                f"finale legacy card: {state.reason}; scores {scores}")
    return (f"result: failed in round {state.round} ({state.reason}); scores {scores}; "
            f"abomination {'killed' if state.abomination_killed else 'alive'}")


def event_line(event: dict[str, Any]) -> str:
    """The step number, then the event as a sentence from the shared describer."""
    return f"{event.get('step', '-'):>5}  {describe_event(event)}"

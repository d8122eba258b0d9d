"""What annotate keeps for a run's games (annotate.Kept, held by each Options): made as it is made for
each game, bounded, and never seen by another run."""
import dataclasses
import pickle

import pytest
from click.testing import CliRunner

from pdn_tools import read_text
from pdn_tools.cli import cli
from pdn_tools.commands.annotate import KEEP, Kept, Options as Annotations, annotate_game
from pdn_tools.play.check import check
from pdn_tools.rules.core import engine_from_environment
from pdn_tools.rules.draws import DrawTracker
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import RULE_SETS, VARIANTS

from test_fast_plies import COMPILED  # noqa: E402

ENGLISH = VARIANTS["english"]
OPENING = '[Result "*"]\n\n1. 11-15 23-19 *\n'
KINGS = '[GameType "21"]\n[FEN "W:WK32:BK1"]\n\n1. 32-27 1-6 2. 27-32 6-1 *\n'     # a quiet count from ply 1


@pytest.mark.parametrize("rules", ["seeds", "wcdf"])
def test_the_counters_kept_for_a_start_are_a_fresh_tracker_s(rules):
    """fresh_counts gives what a fresh DrawTracker of the start and rules holds (its quiet count's name,
    seen, since, quiet and core limits), the second time from what it kept; None from a start where an
    ending's count begins (the core cannot count it)."""
    kept = Kept()
    for variant in VARIANTS.values():
        start = Position.initial(variant, COMPILED)
        draw_rules = RULE_SETS[rules].draws_of(variant)
        tracker = DrawTracker(start, draw_rules)
        quiet = tracker.rules.quiet
        fresh = (None if quiet is None else quiet.name, tracker.seen, tracker.since, tracker.quiet,
                 tracker.core_limits())
        assert kept.fresh_counts(start, draw_rules) == fresh
        assert kept.fresh_counts(start, draw_rules) is kept.counts[start, draw_rules][0]      # kept
    assert len(kept.counts) == len(VARIANTS)
    ending = Position.from_fen(VARIANTS["international"], "W:WK46,K47,K48:BK1", COMPILED)
    assert DrawTracker(ending).core_limits() is None and kept.fresh_counts(ending, None) is None


def test_what_is_kept_is_bounded():
    """At most KEEP of each kind: a run that meets more starts drops what it kept and keeps on."""
    kept = Kept()
    international = VARIANTS["international"]
    starts = [Position.from_fen(international, f"W:W{white}:B{black}", COMPILED)
              for white in range(6, 46) for black in range(6, 16) if black != white][:KEEP + 44]
    for start in starts:
        kept.fresh_counts(start, None)
        assert 0 < len(kept.counts) <= KEEP
    assert len(kept.counts) == 44 and all(kept.counts[start, None] for start in starts[-44:])
    variants = [dataclasses.replace(ENGLISH, name=f"english {n}") for n in range(KEEP + 1)]
    for variant in variants:
        kept.gametype(variant, False)
    assert len(kept.gametypes) == 1


def test_each_options_keeps_its_own_and_a_look_alike_variant_gets_its_own_gametype():
    """Two runs in one process (an Options each, with the same choices): each keeps only what its own
    games met (the draw counts only where the core writes the game); a variant of the same name as one
    kept (another object, another GameType) is not taken for it, in either run."""
    look_alike = dataclasses.replace(ENGLISH, gametype=99)
    game = read_text(OPENING)[0]
    first, second = Annotations(gametype=True, draws=True), Annotations(gametype=True, draws=True)
    met = []

    def added(variant, options):
        checked = check(game, variant)
        met.append((checked.replay.start, checked.replay.draw_rules))
        return [note for _, note, _ in annotate_game(checked, options)[1]]
    assert added(ENGLISH, first) == ["GameType 21,B,8,8,N1,0 added (english)"]
    assert added(look_alike, second) == ["GameType 99,B,8,8,N1,0 added (english)"]
    assert [kept[0] for kept in first.kept.gametypes.values()] == [ENGLISH]
    assert [kept[0] for kept in second.kept.gametypes.values()] == [look_alike]
    core = engine_from_environment().compiled           # the core writes the game: the counts asked of it
    assert (list(first.kept.counts), list(second.kept.counts)) == (([met[0]], [met[1]]) if core else ([], []))
    assert added(look_alike, first) == ["GameType 99,B,8,8,N1,0 added (english)"]
    assert added(ENGLISH, first) == ["GameType 21,B,8,8,N1,0 added (english)"]


def test_options_own_their_kept_a_copy_or_a_worker_s_starts_empty():
    """Options equal in every choice are equal, each with its own Kept; one replaced or pickled (sent
    to a --jobs or --dask worker) starts with nothing kept."""
    options = Annotations(gametype=True)
    annotate_game(check(read_text(OPENING)[0]), options)
    assert options.kept.gametypes and options == Annotations(gametype=True) and "kept" not in repr(options)
    for copy in (pickle.loads(pickle.dumps(options)), dataclasses.replace(options, fen=True)):
        assert copy.kept is not options.kept and not copy.kept.gametypes and not copy.kept.counts


def test_two_runs_in_one_process_with_other_draw_rules_write_their_own():
    """`pdn annotate --draws` run twice in one process, by each rule set in turn: each run writes what
    it writes alone (its own quiet count's name)."""
    def run(rules):
        result = CliRunner().invoke(cli, ["annotate", "--draws", "--gametype", "--rules", rules, "-"], input=KINGS)
        assert result.exit_code == 0, result.output
        return result.stdout
    seeds, wcdf = run("seeds"), run("wcdf")
    assert "32-27 {[%draw start 25-move rule]}" in seeds and "32-27 {[%draw start 40-move rule]}" in wcdf
    assert (run("wcdf"), run("seeds")) == (wcdf, seeds)

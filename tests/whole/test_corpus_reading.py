"""Reading the whole shared corpus of real files: nothing lost, nothing raised."""
import pytest

from corpus import corpus_files, manifest, needs_corpus, standard_tests
from pdn_tools import Game, ReadError, read_games, read_text
from pdn_tools.running.batch import Inputs
from pdn_tools.text.writer import terminator, write_game

ENTRIES = manifest()


def count(path) -> int:
    return sum(1 for p in Inputs((str(path),)).files() for _ in read_games(p))


@pytest.mark.slow          # corpus-wide: every file of the manifest read
@needs_corpus
@pytest.mark.parametrize("entry", [e for e in ENTRIES if e.exact], ids=lambda e: e.path.name)
def test_game_counts_match_the_manifest(entry):
    assert count(entry.path) == entry.games


@pytest.mark.slow
@needs_corpus
def test_every_file_reads_without_exception_and_every_game_is_reported():
    total = 0
    for path in corpus_files():
        games = list(read_games(path))
        assert [g.index for g in games] == list(range(1, len(games) + 1))
        total += len(games)
    # OCA alone has 22,621 games; the 1,521 single-game files one each.
    assert total > 22_621 + 1_521


@needs_corpus
@pytest.mark.parametrize("path", standard_tests("succeed"), ids=lambda p: p.name)
def test_standard_succeed_files_read_in_strict_mode(path):
    errors = [g for g in read_games(path, strict=True) if isinstance(g, ReadError)]
    assert errors == []


@needs_corpus
@pytest.mark.parametrize("name, line, column, words", [
    # What the standard's reading grammar (wiegerw/pdn grammars/pdn_reading_antlr.g4) rejects:
    ("wiegerw-fail-mrdrcd07.pdn", 198, 1, "without a move"),          # `1. 0-2`
    ("wiegerw-fail-mrdrcd08.pdn", 499, 1, "without a move"),          # `1. 1-0`
    ("wiegerw-fail-40Camp.DamaInternazionaleAssoluto.pdn", 228, 1, "not ended"),
    ("bruno-legacyenc-fail-40Camp.DamaInternazionaleAssoluto.pdn", 228, 1, "not ended"),
    ("wiegerw-fail-Cat.A1.pdn", 405, 36, "'.'"),                      # a lone dot
    ("wiegerw-fail-Cat.C1.pdn", 579, 75, "without a move"),           # `6.` then the next game
    ("wiegerw-fail-delfts.pdn", 28, 1, "not ended"),                  # `4-6` is a move, not a result
    ("wiegerw-fail-abatsiev.pdn", 595, 4, "unknown move"),            # `1. - -`
    ("bruno-legacyenc-fail-abatsiev.pdn", 595, 4, "unknown move"),
    ("wiegerw-fail-nested_comment.pdn", 1, 46, "'}'"),
])
def test_standard_fail_files_rejected_when_reading_strictly(name, line, column, words):
    """Every fail file of the PDN standard is rejected, at the place its grammar rejects it."""
    [path] = [p for p in corpus_files() if p.name == name]
    errors = [g for g in read_games(path, strict=True) if isinstance(g, ReadError)]
    assert errors, f"{name} was accepted"
    assert (errors[0].line, errors[0].column) == (line, column)
    assert words in errors[0].message


@needs_corpus
def test_every_standard_fail_file_is_covered():
    covered = {name for name, *_ in test_standard_fail_files_rejected_when_reading_strictly.pytestmark[0].args[1]}
    assert {p.name for p in corpus_files() if "-fail-" in p.name} == covered


@pytest.mark.slow          # corpus-wide: out of the fast subset; CI runs it
@needs_corpus
@pytest.mark.parametrize("path", [p for p in corpus_files() if p.name != "OCA_2.0.pdn"
                                  and "game-records" not in str(p)], ids=lambda p: p.name)
def test_read_write_read_gives_an_equal_model(path):
    for game in read_games(path):
        if isinstance(game, ReadError):
            continue
        game.result = terminator(game)       # the writer always ends a game
        again = read_text(write_game(game))
        assert len(again) == 1 and isinstance(again[0], Game), write_game(game)
        assert again[0] == game

"""The `pdn` command: validate and perft, exit codes, formats, stdin, folders, jobs."""
import gzip
import json
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from corpus import CORPUS, DATA, needs_corpus
from pdn_tools.rules.variants import VARIANTS
from pdn_tools.rules.core import engine_from_environment
from pdn_tools.cli import cli
from pdn_tools.running import batch, pool

GOOD = '[GameType "20"]\n[Result "*"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'
BAD = '[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n'


def invoke(args, input=None):
    return CliRunner().invoke(cli, args, input=input)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.pdn").write_text(GOOD + BAD)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.PDN").write_text(GOOD)
    (tmp_path / "notes.txt").write_text("not a pdn file")
    return tmp_path


def test_valid_games_exit_0_and_print_nothing():
    result = invoke(["validate", "-"], input=GOOD)
    assert result.exit_code == 0 and result.output == ""


def test_invalid_game_exits_1_with_a_located_line():
    result = invoke(["validate", "-"], input=GOOD + BAD)
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "<stdin>:5:19: game 2, ply 3 (move 2. 28x51): '51' is not a square of the international board "
        "[bad-square]"]


def test_unreadable_input_exits_2_and_the_batch_goes_on(files):
    result = invoke(["validate", str(files / "missing.pdn"), str(files / "sub")])
    assert result.exit_code == 2
    assert "cannot read" in result.output            # CliRunner mixes stderr in


def test_folders_are_searched_for_pdn_files(files):
    result = invoke(["validate", "--format", "jsonl", str(files)])
    records = [json.loads(line) for line in result.output.splitlines()]
    assert [(r["file"].split("/")[-1], r["game"], r["ok"]) for r in records] == [
        ("a.pdn", 1, True), ("a.pdn", 2, False), ("b.PDN", 1, True)]


def test_jsonl_record_has_the_documented_keys_and_types():
    [line] = invoke(["validate", "--format", "jsonl", "-"], input=BAD).output.splitlines()
    record = json.loads(line)
    assert record == {
        "file": "<stdin>", "game": 1, "name": "", "line": 1, "variant": "international", "ok": False, "plies": 3,
        "result": "*", "warnings": [],
        "errors": [{"code": "bad-square", "message": "'51' is not a square of the international board",
                    "line": 2, "column": 19, "ply": 3, "move": "2. 28x51"}]}


def test_unreadable_game_is_reported_as_a_syntax_error():
    [line] = invoke(["validate", "--format", "jsonl", "-"], input="1. 32-28 ) *").output.splitlines()
    record = json.loads(line)
    assert record["ok"] is False and record["errors"][0]["code"] == "syntax"
    assert record["variant"] == "unknown"


def test_quiet_leaves_out_warnings_and_summary_counts():
    text = "1. 32-28 19-23 *\n" + BAD
    loud = invoke(["validate", "-"], input=text).output
    assert "warning: no GameType" in loud
    result = invoke(["validate", "--quiet", "--summary", "-"], input=text)
    assert "warning" not in result.output.split("2 games")[0]
    assert "2 games, 1 valid, 1 invalid" in result.output
    assert "bad-square error 1" in " ".join(result.output.split())


def test_strict_and_variant_options():
    assert invoke(["validate", "--strict", "-"], input="[Round 17]\n1. 32-28 *").exit_code == 1
    result = invoke(["validate", "--variant", "english", "-"], input="1. 11-15 23-19 *")
    assert result.exit_code == 0 and "inferred" not in result.output
    assert invoke(["validate", "--variant", "nonsense", "-"], input="").exit_code == 2


@needs_corpus
def test_jobs_keep_the_input_order():
    path = CORPUS / "international" / "horizon-bd-oud-wk2003.pdn"
    one = invoke(["validate", "--format", "jsonl", str(path)]).output
    two = invoke(["validate", "--format", "jsonl", "--jobs", "2", str(path)]).output
    assert one == two and len(one.splitlines()) == 190


def test_perft_prints_one_line_per_depth():
    result = invoke(["perft", "--variant", "international", "--depth", "3"])
    assert result.output.splitlines() == ["depth 1 9", "depth 2 81", "depth 3 658"]
    result = invoke(["perft", "--variant", "english", "--depth", "2", "--fen", "B:W18:B14"])
    assert result.output.splitlines() == ["depth 1 1", "depth 2 0"]
    assert invoke(["perft", "--variant", "english", "--depth", "1", "--fen", "B:W99:B1"]).exit_code == 2


@pytest.mark.parametrize("divide", [[], ["--divide"]])
def test_perft_needs_a_depth_of_one_ply_or_more(divide):
    """--depth 0 printed nothing, and with --divide the counts of depth 1."""
    result = invoke(["perft", "--variant", "english", "--depth", "0", *divide])
    assert result.exit_code == 2 and result.stdout == ""
    assert "Invalid value for '--depth': 0 is not in the range 1<=x<=63." in result.stderr


def test_perft_divide_writes_each_first_move_s_count_as_it_is_counted(monkeypatch):
    """--divide counted below every first move before writing a line: at a deep --depth, minutes
    without a sign of progress.  Each move's line is written (flushed) once it is counted: a run cut
    while counting the second move has written the first's."""
    from pdn_tools.rules import movegen

    class Cut(Exception):
        """The run cut short."""

    counted = []
    real = movegen.perft

    def cut_at_the_second(*args):
        if counted:
            raise Cut
        counted.append(real(*args))
        return counted[-1]

    monkeypatch.setattr(movegen, "perft", cut_at_the_second)
    result = invoke(["perft", "--variant", "english", "--depth", "3", "--divide"])
    assert isinstance(result.exception, Cut) and re.fullmatch(rf"\d+-\d+ {counted[0]}\n", result.stdout)


@pytest.mark.parametrize("depth", ["64", "99999999999999999999999"])
def test_perft_refuses_a_depth_past_the_deepest_before_counting(depth):
    """--depth 64 and over counted each depth to 63, then ended in a traceback ('perft depth must
    be below 64'): a usage error now, naming the bound, before anything is written."""
    result = invoke(["perft", "--variant", "english", "--depth", depth, "--fen", "W:W:B"])
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.stderr
    assert f"Invalid value for '--depth': {depth} is not in the range 1<=x<=63." in result.stderr


@pytest.mark.slow          # a pdn process reading a corpus file
@needs_corpus
def test_closed_pipe_ends_quietly():
    command = [sys.executable, "-c", "from pdn_tools.cli import main; main()", "validate", "--format",
               "jsonl", str(CORPUS / "english" / "wiegerw-succeed-bridges.pdn")]
    producer = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    producer.stdout.readline()
    producer.stdout.close()
    _, err = producer.communicate(timeout=60)
    assert b"Traceback" not in err


def test_the_projects_own_fixtures_cover_every_variant_and_every_fault():
    result = invoke(["validate", "--format", "jsonl", str(DATA)])
    records = [json.loads(line) for line in result.output.splitlines()]
    variants = {r["variant"] for r in records if r["file"].endswith(".pdn") and "/variants/" in r["file"]}
    assert variants == set(VARIANTS)
    assert all(r["ok"] for r in records if "/variants/" in r["file"])
    faults = [(e["line"], e["code"]) for r in records if r["file"].endswith("faults.pdn") for e in r["errors"]]
    assert faults == [(3, "syntax"), (7, "bad-square"), (11, "illegal-move"), (17, "ambiguous-capture"),
                      (21, "capture-required"), (27, "capture-law"), (31, "wrong-result"), (39, "bad-fen"),
                      (43, "bad-gametype")]
    quirks = {w["code"] for r in records if r["file"].endswith("quirks.pdn") for w in r["warnings"]}
    assert quirks >= {"loose-tag", "tag-name", "placeholder", "prose", "literal-escape", "forced-mark",
                      "dangling-number", "zero-padded", "unterminated", "glued-result", "inferred-variant", "blank-in-tags"}


# ---- --variant means the same in every command; one exit-code policy ------------------------------

ENGLISH_GAME = "1. 11-15 23-19 2. 8-11 22-17 *\n"       # no GameType: inferred as English anyway
RULES_COMMANDS = [["validate"], ["convert", "--to", "jsonl"], ["annotate", "--fen"], ["filter"], ["dedupe"], ["stats"],
                  ["split", "-o", "{tmp}"], ["diagram"]]


@pytest.mark.parametrize("command", RULES_COMMANDS, ids=lambda c: c[0])
def test_variant_selects_the_rules_in_every_command(command, tmp_path):
    """English moves replayed with the international rules: 11-15 is a backward move for
    White there, so every command reports the game invalid (exit 1); with English rules, 0."""
    def run(variant):
        args = [arg.format(tmp=tmp_path / variant) for arg in command]
        return invoke([*args, "--variant", variant, "-"], input=ENGLISH_GAME)

    english, international = run("english"), run("20")
    assert english.exit_code == 0, english.output
    assert international.exit_code == 1, international.output
    unknown = run("nonsense")
    assert unknown.exit_code == 2 and "Invalid value for '--variant': unknown variant 'nonsense'" in unknown.output


def test_filter_keeps_games_replayed_as_a_variant():
    text = ENGLISH_GAME + '\n[GameType "20"]\n1. 32-28 *\n'
    kept = invoke(["filter", "--replayed-as", "english", "-"], input=text)
    assert kept.exit_code == 0 and kept.output.count("11-15") == 1 and "32-28" not in kept.output
    assert "32-28" in invoke(["filter", "--replayed-as", "international", "-"], input=text).output


@pytest.mark.parametrize("unreadable, failed, code", [(0, 0, 0), (0, 3, 1), (1, 0, 2), (1, 3, 2)])
def test_one_exit_code_policy(unreadable, failed, code):
    from pdn_tools.running import batch, pool
    assert batch.exit_code(unreadable, failed) == code


@pytest.mark.parametrize("size, jobs", [(2 << 18, 2), ((2 << 18) + 1, 2), (11_529_943, 2), (11_529_943, 8),
                                        (50 << 20, 3)])
def test_ranges_for_jobs_shrink_to_small_last_ones(size, jobs):
    """The ranges of a file cover it once, in order; each is a (2 * jobs)-th of what is left when it
    starts, from _LEAST_RANGE to _MOST_RANGE (the last takes the rest under twice that minimum), so
    the last ones are small and no worker waits long at the end, and none holds more than 1 MB."""
    cuts = pool.shrinking_cuts(size, jobs)
    assert cuts[0][0] == 0 and cuts[-1][1] == size
    assert all(end == start for (_, end), (start, _) in zip(cuts, cuts[1:]))
    lengths = [end - start for start, end in cuts]
    assert all(pool._LEAST_RANGE <= length <= pool._MOST_RANGE for length in lengths)
    assert lengths[-1] < 2 * pool._LEAST_RANGE
    for (start, end), length in zip(cuts[:-1], lengths):
        assert length == min(pool._MOST_RANGE, max(pool._LEAST_RANGE, (size - start) // (2 * jobs)))


@pytest.mark.parametrize("size, jobs, after", [(11_529_943, 2, 0), (1 << 20, 2, 50 << 20), (1 << 20, 4, 1 << 20)])
def test_ranges_of_a_file_before_others_are_shares_of_all_that_is_left(size, jobs, after):
    """A file followed by `after` bytes of other files is cut as that much more would be: each range a
    (2 * jobs)-th of all the bytes left, within the least and most (one range when that is the file)."""
    def share(left):
        return min(pool._MOST_RANGE, max(pool._LEAST_RANGE, left // (2 * jobs)))

    cuts = pool.shrinking_cuts(size, jobs, after)
    assert cuts[0][0] == 0 and cuts[-1][1] == size
    for (start, end) in cuts[:-1]:
        assert end - start == share(size - start + after)
    assert (len(cuts) == 1) == (size < share(size + after) + pool._LEAST_RANGE)


def test_jobs_tasks_take_shrinking_shares_of_every_file_in_order(tmp_path):
    """--jobs hands out the files of a folder in order, each once: small ones several to a task, a
    large one in ranges; the first task takes about a (2 * jobs)-th of all the bytes, the last ones
    little, so no worker waits long at the end."""
    game = '[Event "x"]\n[Result "*"]\n\n1. 32-28 19-23 *\n\n'
    names = [f"a{i:03}.pdn" for i in range(300)] + ["b.pdn"] + [f"c{i:03}.pdn" for i in range(300)]
    for name in names:
        (tmp_path / name).write_text(game * (30000 if name == "b.pdn" else 60))
    tasks = list(pool._tasks(batch.Inputs((str(tmp_path),)), 2, engine_from_environment()))
    handed = [(path, size) for task in tasks for path, size in task.files]
    whole = [(str(tmp_path / name), (tmp_path / name).stat().st_size) for name in names]
    merged = []
    for path, size in handed:               # the ranges of b.pdn follow each other
        if merged and merged[-1][0] == path:
            merged[-1] = (path, merged[-1][1] + size)
        else:
            merged.append((path, size))
    assert merged == whole
    assert sum(1 for task in tasks if task.task.part is not None) > 1
    sizes = [sum(size for _, size in task.files) for task in tasks]
    assert sizes[0] >= sum(size for _, size in whole) // 4 and sizes[-1] < 2 * pool._LEAST_RANGE


@pytest.mark.slow
def test_jobs_split_a_file_without_sync_points_here_and_hold_only_batches(tmp_path, monkeypatch):
    """A large file with no blank line before its tags has no sync point: a worker reading it by ranges would
    hold all its games at once (the first range reads on to the next sync point), so the main process splits
    it and sends batches of games (under _WHOLE_FILE a worker reads it whole); the output is that of one job."""
    path = tmp_path / "tight.pdn"
    path.write_text('[Event "x"]\n[GameType "21"]\n1. 11-15 23-19 *\n' * 40000)
    assert pool._ranges_of(str(path), path.stat().st_size, None, 2) == []          # 1.8 MB
    monkeypatch.setattr(pool, "_WHOLE_FILE", 1 << 20)
    assert pool._ranges_of(str(path), path.stat().st_size, None, 2) is None
    one = invoke(["validate", "--format", "jsonl", str(path)])
    two = invoke(["validate", "--format", "jsonl", "--jobs", "2", str(path)])
    assert (one.exit_code, one.stdout, one.stderr) == (two.exit_code, two.stdout, two.stderr)
    assert len(two.stdout.splitlines()) == 40000


@pytest.mark.slow
def test_jobs_read_byte_ranges_of_a_large_file_as_one_job_does(tmp_path):
    """--jobs 2 on a file large enough to be cut into byte ranges (each read by a worker, its
    games numbered after those of the ranges before it): the same records, in the same order,
    as one job; so too for the same games gzip-compressed and in Latin-1 (not cut: each read whole
    by a worker), and for a folder of small files (several files a worker task, one of them binary).
    The workers fold each part's output (JSON lines, the text report, stats, converted games):
    the same output, notes and exit code as one job, which writes game by game."""
    games = []
    for number in range(1, 7001):
        moves = "1. 11-15 23-19 2. 8-11 22-17" if number % 7 else "1. 11-15 23-18 {café} 2. 8-11 17-13"
        comment = "{a note\n\n[Event \"not a tag\"]}\n" if number % 500 == 0 else ""
        games.append(f'[Event "game {number}"]\n[GameType "21"]\n[Result "*"]\n\n{comment}{moves} *\n\n')
    text = "".join(games)
    big = tmp_path / "big.pdn"
    big.write_text(text, encoding="utf-8")
    assert len(pool._ranges_of(str(big), big.stat().st_size, None, 2)) > 1         # read by ranges
    latin = tmp_path / "latin.pdn"
    latin.write_bytes(text.replace("{café}", "{caf\u00e9 \u00e0}").encode("latin-1"))
    packed = tmp_path / "packed.pdn.gz"
    packed.write_bytes(gzip.compress(text.encode("utf-8")))
    folder = tmp_path / "small"
    folder.mkdir()
    for part in range(5):
        (folder / f"part{part}.pdn").write_text("".join(games[part * 40:(part + 1) * 40]), encoding="utf-8")
    (folder / "part2b.pdn").write_bytes(bytes(range(256)) * 20)         # binary: cannot be read
    for source in (big, latin, packed, folder):
        for command in (["validate", "--format", "jsonl"], ["validate", "--summary"], ["stats"],
                        ["convert", "--to", "jsonl"]):
            one = invoke([*command, str(source)])
            two = invoke([*command, "--jobs", "2", str(source)])
            assert (one.exit_code, one.stdout, one.stderr) == (two.exit_code, two.stdout, two.stderr), command
    one = invoke(["validate", "--format", "jsonl", str(folder)])
    assert one.exit_code == 2 and "part2b.pdn: not a PDN file (binary data)" in one.stderr
    records = [json.loads(line) for line in one.stdout.splitlines()]
    assert [record["game"] for record in records] == [n for _ in range(5) for n in range(1, 41)]


def test_an_ambiguous_single_jump_exits_1_with_its_place():
    """Seed 002 line 27 ("Las casillas de llegada se añaden solo cuando dos capturas legales
    comparten inicio y final pero toman piezas distintas"): pool's 19x28 also names a loop."""
    text = '[GameType "23"]\n[FEN "W:W19,21,25,29,30,32:B1,2,4,5,6,7,8,14,15,16,20,K24"]\n1. 19x28 *\n'
    for _ in range(2):
        result = invoke(["validate", "-"], input=text)
        assert result.exit_code == 1
        assert result.output.startswith("<stdin>:3:4: game 1, ply 1 (move 1... 19x28): 19x28 matches 2 captures")
        assert result.output.rstrip().endswith("[ambiguous-capture]")


# English kings shuffling for 25 king moves, then Black (first player) wins the Result: drawn by
# seed 001 line 52 ("Se han realizado 25 movimientos sin avanzar una ficha o realizar una
# captura"), a claim at most under the WCDF tournament rules (reference §4.3: 40 moves each).
def _english_walk(plies: int) -> str:
    from boards import pdn, setup, wander
    start = setup("english", "W", "Ka1 Kc1", "Kf8 Kh8")
    return pdn(start, wander(start, plies), "1-0") + "\n"


def test_rules_wcdf_accepts_what_the_seed_rules_draw():
    text = _english_walk(25)
    seeds = invoke(["validate", "-"], input=text)
    assert seeds.exit_code == 1 and "drawn on the board by the 25-move rule after ply 25 [wrong-result]" in seeds.output
    assert invoke(["validate", "--rules", "seeds", "-"], input=text).output == seeds.output
    wcdf = invoke(["validate", "--rules", "wcdf", "--format", "jsonl", "-"], input=text)
    assert wcdf.exit_code == 0 and json.loads(wcdf.output)["ok"] is True
    assert invoke(["validate", "--rules", "wcdf", "-"], input=_english_walk(24)).exit_code == 0


def test_rules_reach_the_workers():
    text = _english_walk(25)
    assert invoke(["validate", "--jobs", "2", "-"], input=text).exit_code == 1
    assert invoke(["validate", "--jobs", "2", "--rules", "wcdf", "-"], input=text).exit_code == 0


def test_an_unknown_rule_set_is_a_usage_error_naming_the_known_ones():
    result = invoke(["validate", "--rules", "fmjd", "-"], input=GOOD)
    assert result.exit_code == 2
    assert "Invalid value for '--rules': 'fmjd' is not one of 'seeds', 'wcdf'." in result.output


def test_validate_help_lists_the_rule_sets():
    output = " ".join(invoke(["validate", "--help"]).output.split())
    assert "--rules [seeds|wcdf]" in output
    assert "wcdf: English tournament play (EDA/WCDF, reference §4.3)" in output


def test_annotate_and_stats_take_the_rule_set_too():
    """The other commands that check results: the game seed 001 draws is invalid for stats
    and left unannotated by default, valid and annotated under --rules wcdf."""
    text = _english_walk(25)
    seeds = invoke(["stats", "--format", "json", "-"], input=text)
    assert seeds.exit_code == 1 and json.loads(seeds.output.splitlines()[-1])["valid"] == 0
    wcdf = invoke(["stats", "--rules", "wcdf", "--format", "json", "-"], input=text)
    assert wcdf.exit_code == 0 and json.loads(wcdf.output)["valid"] == 1
    assert "PlyCount" not in invoke(["annotate", "--ply-count", "-"], input=text).output
    annotated = invoke(["annotate", "--ply-count", "--rules", "wcdf", "-"], input=text)
    assert annotated.exit_code == 0 and '[PlyCount "25"]' in annotated.output
    assert invoke(["annotate", "--ply-count", "--rules", "nope", "-"], input=text).exit_code == 2


def test_convert_fix_results_follows_the_rule_set():
    """--fix-results writes the draw seed 001 line 52 imposes; under --rules wcdf (a claim) the
    written Result stands.  Both ways of fixing: the bytes alone, and a rewrite (--captures)."""
    text = _english_walk(25)
    for extra in ([], ["--captures", "full"]):
        seeds = invoke(["convert", "--fix-results", *extra, "-"], input=text)
        assert '[Result "1/2-1/2"]' in seeds.output and '[Result "1-0"]' not in seeds.output
        wcdf = invoke(["convert", "--fix-results", "--rules", "wcdf", *extra, "-"], input=text)
        assert wcdf.exit_code == 0 and '[Result "1-0"]' in wcdf.output

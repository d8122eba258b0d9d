"""`pdn validate --show-board`: under each move error, the board before the move and the legal moves."""
from click.testing import CliRunner

from pdn_tools.cli import cli


def validate(*args, input=None):
    return CliRunner().invoke(cli, ["validate", *args], input=input)


def board_rows(lines: list[str]) -> list[str]:
    """The rows of the first text board in `lines` (between its borders), indentation removed."""
    rows = [line.strip() for line in lines]
    top = rows.index(next(r for r in rows if r.startswith("+")))
    bottom = rows.index(next(r for r in rows[top + 1:] if r.startswith("+")), top + 1)
    return rows[top + 1:bottom]


def cell(rows: list[str], row: int, col: int) -> str:
    return rows[row][1 + 3 * col:4 + 3 * col]


def test_a_bad_square_shows_the_board_before_the_move_and_the_one_legal_capture():
    text = '[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n'
    result = validate("--show-board", "-", input=text)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == ("<stdin>:2:19: game 1, ply 3 (move 2. 28x51): '51' is not a square of the "
                        "international board [bad-square]")
    assert lines[1] == "    board before 2. 28x51:"
    rows = board_rows(lines)
    assert len(rows) == 10
    # 28 is on row 6 from the top (26-30 start on file a), column 4: the mover's square, marked.
    assert cell(rows, 5, 4) == "<w>" and cell(rows, 4, 5) == " b "          # 23: Black's man
    assert lines[-2].strip().startswith("White to move  W:W28,31,")
    # International rules: capture is compulsory, and 28x19 (taking 23) is the only capture.
    assert lines[-1] == "    legal moves (1): 28x19"


FIRST_MOVES = "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30"


def test_legal_moves_of_the_start_position_are_the_published_nine():
    # International perft depth 1 = 9 (reference §6); 31-25 is not a diagonal step.
    result = validate("--show-board", "-", input='[GameType "20"]\n1. 31-25 *\n')
    assert result.stdout.splitlines()[-1] == f"    legal moves (9): {FIRST_MOVES}"
    rows = board_rows(result.stdout.splitlines())
    assert cell(rows, 6, 1) == "<w>"                        # 31: the piece the move names


def test_algebraic_games_get_their_legal_moves_in_algebraic_notation():
    text = '[GameType "25"]\n1. c3-d4 f6-e5 2. a3-b4 *\n'
    result = validate("--show-board", "-", input=text)
    lines = result.stdout.splitlines()
    assert lines[0].endswith("a3-b4: a capture is compulsory here (d4xf6) [capture-required]")
    assert lines[-1] == "    legal moves (1): d4xf6"
    rows = board_rows(lines)
    assert cell(rows, 5, 0) == "<w>" and cell(rows, 4, 1) == "<.>"       # a3 and b4
    assert "b6    d6    f6    h6" in lines[5]                            # squares named as the game names them


def test_only_move_errors_get_a_board():
    text = ('[GameType "20"]\n1. 32-28 ) *\n\n'                                  # cannot be read
            '[GameType "20"]\n[Result "2-0"]\n[FEN "W:W28:B23"]\n1. 28x19 0-2\n\n'   # wrong result
            '[GameType "20"]\n1. 32-28 19-23 *\n')                               # valid
    result = validate("--show-board", "-", input=text)
    assert result.exit_code == 1
    assert "board before" not in result.stdout
    assert len(result.stdout.splitlines()) == 2


def test_a_variation_move_gets_the_board_of_its_own_line():
    # The variation (1. 31-25) replaces 1. 32-28: the start position; (1... 18-23 2. 28x19) replaces
    # 1... 19-23: after 1. 32-28 18-23 the square 19 still holds Black's man, so 28x19 cannot be.
    text = '[GameType "20"]\n1. 32-28 (1. 31-25) 19-23 (1... 18-23 2. 28x19) 2. 28x19 *\n'
    result = validate("--show-board", "-", input=text)
    lines = result.stdout.splitlines()
    first = lines.index("    board before 31-25 (in a variation):")
    assert lines[first - 1].startswith("<stdin>:2:14: game 1")
    assert lines[first + 14] == f"    legal moves (9): {FIRST_MOVES}"
    second = lines.index("    board before 28x19 (in a variation):")
    rows = board_rows(lines[second:])
    assert cell(rows, 3, 6) == "<b>" and cell(rows, 4, 5) == " b " and cell(rows, 3, 4) == " . "   # 19, 23, 18
    assert cell(rows, 5, 4) == "<w>"                                                          # 28
    assert lines[second + 14].startswith("    legal moves (9): 28-22 31-26")


def test_boards_come_back_from_worker_processes_in_input_order(tmp_path):
    games = "".join(f'[GameType "20"]\n1. 32-28 19-23 2. 28x{40 + n} *\n\n' for n in range(12))
    path = tmp_path / "games.pdn"
    path.write_text(games)
    one = validate("--show-board", str(path))
    two = validate("--show-board", "--jobs", "2", str(path))
    assert one.stdout == two.stdout and one.stdout.count("board before 2. 28x") == 12


def test_show_board_is_for_the_text_report():
    result = validate("--show-board", "--format", "jsonl", "-", input="*\n")
    assert result.exit_code == 2 and "--show-board goes with --format text" in result.output

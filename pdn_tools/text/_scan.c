/* The compiled scanner of pdn_tools.text.scanner: where a run of moves ends (pdn_tools.rules.core's
 * compiled Engine hands it to the reader); whether a run may be kept as text and the common game
 * read at once are in _fast.c, the movetext writers in _wrap.c and _lines.c: one extension. */
#include "_scan.h"

/* ---- the scanner's MOVES terminal ----------------------------------------------------------
 * moves_end(text, pos, endpos) -> the end of the MOVES token (grammars/pdn.lark) that Python's
 * re matches at `pos` in text[:endpos] (lookbehinds may read before `pos`), or -1 when none
 * does.  The regular expression tries each alternative in order and keeps the first that
 * matches; nothing after an item can fail, so no choice is ever taken back, and these
 * functions make the same first choices.  tests/text/test_scan_core.py compares the two.
 * twin: pdn_tools.text.scanner.Scanner.tokens (its MOVES alternative, with no moves_end) */
static inline int is_file(Py_UCS4 c) { return (c >= 'a' && c <= 'l') || (c >= 'A' && c <= 'L'); }

/* [0-9]{1,2}|[a-lA-L](?:1[0-2]|[1-9]) */
static Py_ssize_t square_end(const Text *t, Py_ssize_t i) {
    Py_UCS4 c = char_at(t, i);
    if (is_digit(c))
        return is_digit(char_at(t, i + 1)) ? i + 2 : i + 1;
    if (!is_file(c))
        return -1;
    Py_UCS4 d = char_at(t, i + 1), e = char_at(t, i + 2);
    if (d == '1' && e >= '0' && e <= '2')
        return i + 3;
    return d >= '1' && d <= '9' ? i + 2 : -1;
}

/* (?:[-xX:] ?|(?<=[0-9])(?=[a-lA-L])) then a square */
static Py_ssize_t step_end(const Text *t, Py_ssize_t i) {
    Py_UCS4 c = char_at(t, i);
    if (c == '-' || c == 'x' || c == 'X' || c == ':') {
        if (char_at(t, i + 1) == ' ') {
            Py_ssize_t end = square_end(t, i + 2);
            if (end >= 0)
                return end;
        }
        return square_end(t, i + 1);
    }
    return is_digit(char_at(t, i - 1)) && is_file(c) ? square_end(t, i) : -1;
}

/* (?!(?:2-0|0-2|1-1|0-0|1-0|0-1|1:0|0:1)(?:(?![0-9])|(?=[0-9]+\.))) */
static int result_ahead(const Text *t, Py_ssize_t i) {
    static const char *const RESULTS[8] = {"2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1:0", "0:1"};
    Py_UCS4 a = char_at(t, i), b = char_at(t, i + 1), c = char_at(t, i + 2);
    int found = 0;
    for (int r = 0; r < 8 && !found; r++)
        found = a == (Py_UCS4)RESULTS[r][0] && b == (Py_UCS4)RESULTS[r][1] && c == (Py_UCS4)RESULTS[r][2];
    if (!found)
        return 0;
    Py_ssize_t j = i + 3;
    if (!is_digit(char_at(t, j)))
        return 1;
    while (is_digit(char_at(t, j)))
        j++;
    return char_at(t, j) == '.';
}

/* MOVE: a square and steps, else Russian short algebraic [a-l][a-l](?:1[0-2]|[1-9])(?![0-9]) */
static Py_ssize_t move_end(const Text *t, Py_ssize_t i) {
    if (result_ahead(t, i))
        return -1;
    Py_ssize_t end = square_end(t, i), last = -1;
    while (end >= 0) {
        end = step_end(t, end);
        if (end >= 0)
            last = end;
    }
    if (last >= 0)
        return last;
    Py_UCS4 a = char_at(t, i), b = char_at(t, i + 1), c = char_at(t, i + 2), d = char_at(t, i + 3);
    if (!(a >= 'a' && a <= 'l' && b >= 'a' && b <= 'l'))
        return -1;
    if (c == '1' && d >= '0' && d <= '2' && !is_digit(char_at(t, i + 4)))
        return i + 4;
    return c >= '1' && c <= '9' && !is_digit(d) ? i + 3 : -1;
}

/* One item: MOVE | MOVENUMBER | NAG | STRENGTH | PLACEHOLDER | ELLIPSIS, in the terminal's order. */
Py_ssize_t scan_item_end(const Text *t, Py_ssize_t i) {
    Py_ssize_t end = move_end(t, i);
    if (end >= 0)
        return end;
    Py_UCS4 c = char_at(t, i);
    Py_ssize_t j = i;
    while (is_digit(char_at(t, j)))                       /* [0-9]+\.(?:\.\.)? */
        j++;
    if (j > i && char_at(t, j) == '.')
        return char_at(t, j + 1) == '.' && char_at(t, j + 2) == '.' ? j + 3 : j + 1;
    if (c == '$' && is_digit(char_at(t, i + 1))) {       /* \$[0-9]+ */
        for (j = i + 1; is_digit(char_at(t, j)); j++)
            ;
        return j;
    }
    if (c == '(') {                                       /* \([!?]+\) */
        for (j = i + 1; char_at(t, j) == '!' || char_at(t, j) == '?'; j++)
            ;
        if (j > i + 1 && char_at(t, j) == ')')
            return j + 1;
    }
    if (c == '!' || c == '?') {                           /* [!?]+ */
        for (j = i; char_at(t, j) == '!' || char_at(t, j) == '?'; j++)
            ;
        return j;
    }
    if (c == '*' && is_digit(char_at(t, i - 1)))         /* (?<=[0-9])\* */
        return i + 1;
    if (c == '-') {                                       /* -(?:[ \t]*-)?(?![0-9]) */
        for (j = i + 1; char_at(t, j) == ' ' || char_at(t, j) == '\t'; j++)
            ;
        if (char_at(t, j) == '-' && !is_digit(char_at(t, j + 1)))
            return j + 1;
        return is_digit(char_at(t, i + 1)) ? -1 : i + 1;
    }
    if (c == '.' && char_at(t, i + 1) == '.' && char_at(t, i + 2) == '.')
        return i + 3;
    return -1;
}

/* (?:[ \t\f\n]|\\[rn])* */
Py_ssize_t scan_gap_end(const Text *t, Py_ssize_t i) {
    for (;;) {
        Py_UCS4 c = char_at(t, i);
        if (c == ' ' || c == '\t' || c == '\f' || c == '\n')
            i++;
        else if (c == '\\' && (char_at(t, i + 1) == 'r' || char_at(t, i + 1) == 'n'))
            i += 2;
        else
            return i;
    }
}

static PyObject *moves_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 3 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "moves_end(text: str, pos: int, endpos: int)");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]), endpos = PyLong_AsSsize_t(args[2]);
    if ((pos == -1 || endpos == -1) && PyErr_Occurred())
        return NULL;
    Py_ssize_t len = PyUnicode_GET_LENGTH(args[0]);
    if (pos < 0 || endpos > len || pos > endpos) {
        PyErr_SetString(PyExc_ValueError, "moves_end: positions out of the text");
        return NULL;
    }
    Text t = {PyUnicode_KIND(args[0]), PyUnicode_DATA(args[0]), endpos};
    Py_ssize_t end = scan_item_end(&t, pos);
    for (Py_ssize_t next = end; next >= 0; next = scan_item_end(&t, scan_gap_end(&t, end)))
        end = next;
    return PyLong_FromSsize_t(end);
}

static PyMethodDef scan_functions[] = {
    {"fast_game", (PyCFunction)(void (*)(void))scan_fast_game, METH_FASTCALL,
     "fast_game(text, pos, endpos, last): the scanner's tokens of the common game at pos, or None"},
    {"moves_end", (PyCFunction)(void (*)(void))moves_end, METH_FASTCALL,
     "moves_end(text, pos, endpos): the end of the scanner's MOVES token at pos, or -1"},
    {"plain_run", (PyCFunction)scan_plain_run, METH_O,
     "plain_run(text): whether a MOVES token may be kept as text (builder._PLAIN_RUN matches it all)"},
    {"numbered_text", (PyCFunction)(void (*)(void))scan_numbered_text, METH_FASTCALL,
     "numbered_text(pieces, ply, tail, width): the movetext's moves numbered from ply, wrapped (writer.numbered_text)"},
    {"movetext_lines", (PyCFunction)(void (*)(void))scan_movetext_lines, METH_FASTCALL,
     "movetext_lines(pieces, tail, width): a movetext holding runs kept as text, written and wrapped"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef scan_module = {
    PyModuleDef_HEAD_INIT, "_scan", "Compiled scanner of pdn_tools.text.scanner, and movetext writers of pdn_tools.text.writer.", -1, scan_functions,
};

PyMODINIT_FUNC PyInit__scan(void) {
    return PyModule_Create(&scan_module);
}

/* The compiled reading of plain runs and of the common game (in the scanner's extension, _scan.c):
 * whether a run of moves may be kept as text, and the common game's tokens read at once. */
#include "_scan.h"

/* ---- a run of plain moves -------------------------------------------------------------------- */

/* [1-9][0-9]?(?:- ?[1-9][0-9]?|(?:x ?[1-9][0-9]?){1,24}): the end of a plain run's move, or -1 */
static Py_ssize_t run_move_end(const Text *t, Py_ssize_t i) {
    Py_UCS4 c = char_at(t, i);
    if (!(c >= '1' && c <= '9'))
        return -1;
    i += is_digit(char_at(t, i + 1)) ? 2 : 1;
    Py_UCS4 separator = char_at(t, i);
    if (separator != '-' && separator != 'x')
        return -1;
    for (int steps = 0; steps < (separator == '-' ? 1 : 24) && char_at(t, i) == separator; steps++) {
        Py_ssize_t square = char_at(t, i + 1) == ' ' ? i + 2 : i + 1;
        c = char_at(t, square);
        if (!(c >= '1' && c <= '9'))
            return steps ? i : -1;
        i = square + (is_digit(char_at(t, square + 1)) ? 2 : 1);
    }
    return i;
}

/* (?>[1-9][0-9]{0,5}\.(?:\.\.)?|\.\.\.)(?:MOVE)?|MOVE): the end of a plain run's item, or -1 */
static Py_ssize_t run_item_end(const Text *t, Py_ssize_t i) {
    Py_ssize_t j = i;
    if (char_at(t, i) >= '1' && char_at(t, i) <= '9')
        for (j = i + 1; j < i + 6 && is_digit(char_at(t, j)); j++)
            ;
    if (char_at(t, j) == '.' && (j > i || (char_at(t, j + 1) == '.' && char_at(t, j + 2) == '.'))) {
        j += char_at(t, j + 1) == '.' && char_at(t, j + 2) == '.' ? 3 : 1;
        Py_ssize_t move = run_move_end(t, j);
        return move >= 0 ? move : j;
    }
    return run_move_end(t, i);
}

/* plain_run(text) -> whether builder._PLAIN_RUN matches the whole text (twin:
 * pdn_tools.text.builder._plain_by_regex): items one white space
 * or more (' ', '\t', '\n') apart, nothing before or after. */
PyObject *scan_plain_run(PyObject *module, PyObject *text) {
    (void)module;
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "plain_run(text: str)");
        return NULL;
    }
    Text t = {PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text)};
    Py_ssize_t i = 0;
    for (;;) {
        i = run_item_end(&t, i);
        if (i < 0)
            Py_RETURN_FALSE;
        if (i == t.end)
            Py_RETURN_TRUE;
        Py_ssize_t gap = i;
        while (run_space(char_at(&t, i)))
            i++;
        if (i == gap)
            Py_RETURN_FALSE;
    }
}

/* ---- the common game, read at once --------------------------------------------------------
 * fast_game(text, pos, endpos, last) -> the tokens the scanner (scanner.Scanner.tokens) makes of
 * the common game starting at `pos` (a '['), or None when the game there is not one:
 *   plain tag pairs, one a line (`[Name "value"]`, as builder._PLAIN_TAGS reads them); runs of plain
 *   moves (builder._PLAIN_RUN, each ending with a move) and block comments (with no blank line in
 *   them), white space between; a result or '*', then spaces or tabs and a line end before `endpos`,
 *   or `endpos` itself when `last` (no more text follows it).
 * Returns (pairs, tags_end, spans): each run, comment and the terminator as (start, end, kind: 0 MOVES,
 * 1 COMMENT, 2 RESULT, 3 STAR, line ends since the start of the span before (of TAGS' end for the
 * first), the offset after the last of them (-1: none), whether a blank line comes just before it);
 * every other text is left to the scanner, whose tokens for it these are (tests/text/test_fast_read.py
 * compares the two readings; twin of the locating: pdn_tools.text.scanner._fast_tokens). */

/* [A-Z][A-Za-z0-9_]* */
static Py_ssize_t tag_name_end(const Text *t, Py_ssize_t i) {
    Py_UCS4 c = char_at(t, i);
    if (!(c >= 'A' && c <= 'Z'))
        return -1;
    for (i++;; i++) {
        c = char_at(t, i);
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_'))
            return i;
    }
}

/* The result (the grammar's RESULT) ending at white space or a line end, else -1. */
static Py_ssize_t result_end(const Text *t, Py_ssize_t i) {
    static const char *const RESULTS[] = {"2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "\xbd-\xbd",
                                          "0.5-0.5", "1:0", "0:1", "1/2:1/2", NULL};
    for (int r = 0; RESULTS[r] != NULL; r++) {
        const unsigned char *s = (const unsigned char *)RESULTS[r];
        Py_ssize_t j = i;
        while (*s && char_at(t, j) == (Py_UCS4)*s) {
            s++;
            j++;
        }
        if (*s == 0) {
            Py_UCS4 after = char_at(t, j);
            return after == ' ' || after == '\t' || after == '\n' || j == t->end ? j : -1;
        }
    }
    return -1;
}

/* [ \t\f\n]* */
static Py_ssize_t blank_end(const Text *t, Py_ssize_t i) {
    for (Py_UCS4 c = char_at(t, i); c == ' ' || c == '\t' || c == '\f' || c == '\n'; c = char_at(t, ++i))
        ;
    return i;
}

/* Whether text[start:end] is a plain run (builder._PLAIN_RUN) whose last item is a move. */
static int plain_moves(const Text *t, Py_ssize_t start, Py_ssize_t end) {
    Text run = {t->kind, t->data, end};
    Py_ssize_t i = start;
    for (;;) {
        i = run_item_end(&run, i);
        if (i < 0)
            return 0;
        if (i == end)
            return char_at(t, end - 1) != '.';
        Py_ssize_t gap = i;
        while (run_space(char_at(&run, i)))
            i++;
        if (i == gap)
            return 0;
    }
}

/* The end of the comment (the grammar's COMMENT) at `i`, a '{', when it closes with no blank line in it
 * (one followed by a tag pair would not be a comment), else -1. */
static Py_ssize_t comment_end(const Text *t, Py_ssize_t i) {
    for (Py_ssize_t j = i + 1;; j++) {
        Py_UCS4 c = char_at(t, j);
        if (c == '}')
            return j + 1;
        if (c == 0)
            return -1;
        if (c == '\n') {
            Py_ssize_t k = j + 1;
            while (char_at(t, k) == ' ' || char_at(t, k) == '\t' || char_at(t, k) == '\f')
                k++;
            if (char_at(t, k) == '\n')
                return -1;
        }
    }
}

/* The end of the run of plain moves (the scanner's MOVES, accepted by plain_moves) at `i`, else -1. */
static Py_ssize_t plain_moves_end(const Text *t, Py_ssize_t i) {
    Py_ssize_t end = scan_item_end(t, i);
    for (Py_ssize_t next = end; next >= 0; next = scan_item_end(t, scan_gap_end(t, end)))
        end = next;
    return end >= 0 && plain_moves(t, i, end) ? end : -1;
}

#define MOST_PIECES 64

PyObject *scan_fast_game(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 4 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "fast_game(text: str, pos: int, endpos: int, last: bool)");
        return NULL;
    }
    int last = PyObject_IsTrue(args[3]);
    if (last < 0)
        return NULL;
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]), endpos = PyLong_AsSsize_t(args[2]);
    if ((pos == -1 || endpos == -1) && PyErr_Occurred())
        return NULL;
    if (pos < 0 || endpos > PyUnicode_GET_LENGTH(args[0]) || pos > endpos) {
        PyErr_SetString(PyExc_ValueError, "fast_game: positions out of the text");
        return NULL;
    }
    Text t = {PyUnicode_KIND(args[0]), PyUnicode_DATA(args[0]), endpos};
    Py_ssize_t i = pos, bounds[32][4];          /* name start, end, value start, end */
    int count = 0;
    for (;;) {                                  /* `[Name "value"]` lines */
        if (count == 32 || char_at(&t, i) != '[')
            return Py_NewRef(Py_None);
        Py_ssize_t name = i + 1, name_end = tag_name_end(&t, name);
        if (name_end < 0 || char_at(&t, name_end) != ' ' || char_at(&t, name_end + 1) != '"')
            return Py_NewRef(Py_None);
        Py_ssize_t value = name_end + 2, j = value;
        for (Py_UCS4 c = char_at(&t, j); c != '"'; c = char_at(&t, ++j))
            if (c == '\\' || c == '\n' || c == 0)
                return Py_NewRef(Py_None);
        if (char_at(&t, j + 1) != ']')
            return Py_NewRef(Py_None);
        bounds[count][0] = name, bounds[count][1] = name_end, bounds[count][2] = value, bounds[count][3] = j;
        count++;
        i = j + 2;
        if (!(char_at(&t, i) == '\n' && char_at(&t, i + 1) == '['))
            break;
        i++;
    }
    Py_ssize_t tags_end = i, gap = i;           /* no tag may follow after TAGS' gap */
    while (char_at(&t, gap) == ' ' || char_at(&t, gap) == '\t' || char_at(&t, gap) == '\f')
        gap++;
    if (char_at(&t, gap) == '\n')
        gap++;
    while (char_at(&t, gap) == ' ' || char_at(&t, gap) == '\t' || char_at(&t, gap) == '\f')
        gap++;
    if (char_at(&t, gap) == '[' || char_at(&t, gap) == '\\')
        return Py_NewRef(Py_None);
    Py_ssize_t pieces[MOST_PIECES + 1][2], term = blank_end(&t, tags_end), term_end;
    int found = 0;
    for (;;) {                                  /* runs and comments up to the result */
        if (char_at(&t, term) == '*') {
            term_end = term + 1;
            break;
        }
        if ((term_end = result_end(&t, term)) >= 0)
            break;
        Py_ssize_t end = char_at(&t, term) == '{' ? comment_end(&t, term) : plain_moves_end(&t, term);
        if (end < 0 || found == MOST_PIECES)
            return Py_NewRef(Py_None);
        pieces[found][0] = term, pieces[found][1] = end;
        found++;
        term = blank_end(&t, end);
    }
    Py_ssize_t line_end = term_end;              /* spaces or tabs, then a line end */
    while (char_at(&t, line_end) == ' ' || char_at(&t, line_end) == '\t')
        line_end++;
    if (char_at(&t, line_end) != '\n' && !(last && line_end == endpos))
        return Py_NewRef(Py_None);
    PyObject *pairs = PyList_New(count);
    if (pairs == NULL)
        return NULL;
    for (int k = 0; k < count; k++) {
        PyObject *pair = Py_BuildValue("(NN)", PyUnicode_Substring(args[0], bounds[k][0], bounds[k][1]),
                                       PyUnicode_Substring(args[0], bounds[k][2], bounds[k][3]));
        if (pair == NULL) {
            Py_DECREF(pairs);
            return NULL;
        }
        PyList_SET_ITEM(pairs, k, pair);
    }
    pieces[found][0] = term, pieces[found][1] = term_end;     /* the terminator, the last span */
    PyObject *spans = PyTuple_New(found + 1);
    if (spans == NULL) {
        Py_DECREF(pairs);
        return NULL;
    }
    Py_ssize_t counted = tags_end, previous_end = tags_end;  /* line ends counted up to `counted` */
    for (int k = 0; k <= found; k++) {
        Py_ssize_t begin = pieces[k][0], newlines = 0, line_start = -1, between = 0;
        for (Py_ssize_t j = counted; j < begin; j++)
            if (char_at(&t, j) == '\n') {
                newlines++;
                line_start = j + 1;
                between += j >= previous_end;
            }
        Py_UCS4 first = char_at(&t, begin);
        int kind = k == found ? (first == '*' ? 3 : 2) : first == '{' ? 1 : 0;
        PyObject *span = Py_BuildValue("(nninnN)", begin, pieces[k][1], kind, newlines, line_start,
                                       PyBool_FromLong(between > 1));
        if (span == NULL) {
            Py_DECREF(pairs);
            Py_DECREF(spans);
            return NULL;
        }
        PyTuple_SET_ITEM(spans, k, span);
        counted = begin, previous_end = pieces[k][1];
    }
    return Py_BuildValue("(NnN)", pairs, tags_end, spans);
}

/* The compiled reading of a run of plain moves (in the scanner's extension, _scan.c): whether a run of
 * moves may be kept as text (plain_run), and its items, which _fast.c's reading of the common game reads too. */
#include "_scan.h"

/* ---- a run of plain moves -------------------------------------------------------------------- */

/* A run's square: [1-9][0-9]? in a plain run, (?:0[1-9]|[1-9][0-9]?) in a padded one; its end, or -1. */
static Py_ssize_t run_square_end(const Text *t, Py_ssize_t i, int padded) {
    Py_UCS4 c = char_at(t, i);
    if (padded && c == '0')
        return char_at(t, i + 1) >= '1' && char_at(t, i + 1) <= '9' ? i + 2 : -1;
    if (!(c >= '1' && c <= '9'))
        return -1;
    return is_digit(char_at(t, i + 1)) ? i + 2 : i + 1;
}

/* SQUARE(?:- ?SQUARE|(?:x ?SQUARE){1,24}): the end of a run's move, or -1 */
static Py_ssize_t run_move_end(const Text *t, Py_ssize_t i, int padded) {
    i = run_square_end(t, i, padded);
    if (i < 0)
        return -1;
    Py_UCS4 separator = char_at(t, i);
    if (separator != '-' && separator != 'x')
        return -1;
    for (int steps = 0; steps < (separator == '-' ? 1 : 24) && char_at(t, i) == separator; steps++) {
        Py_ssize_t square = char_at(t, i + 1) == ' ' ? i + 2 : i + 1, end = run_square_end(t, square, padded);
        if (end < 0)
            return steps ? i : -1;
        i = end;
    }
    return i;
}

/* (?>(?:NUMBER\.(?:\.\.)?|\.\.\.)(?:MOVE)?|MOVE), NUMBER being [1-9][0-9]{0,5} in a plain run,
 * (?:0[1-9]|[1-9][0-9]{0,5}) in a padded one: the end of a run's item, or -1 */
Py_ssize_t scan_run_item_end(const Text *t, Py_ssize_t i, int padded) {
    Py_ssize_t j = i;
    Py_UCS4 c = char_at(t, i);
    if (c >= '1' && c <= '9')
        for (j = i + 1; j < i + 6 && is_digit(char_at(t, j)); j++)
            ;
    else if (padded && c == '0' && char_at(t, i + 1) >= '1' && char_at(t, i + 1) <= '9')
        j = i + 2;
    if (char_at(t, j) == '.' && (j > i || (char_at(t, j + 1) == '.' && char_at(t, j + 2) == '.'))) {
        j += char_at(t, j + 1) == '.' && char_at(t, j + 2) == '.' ? 3 : 1;
        Py_ssize_t move = run_move_end(t, j, padded);
        return move >= 0 ? move : j;
    }
    return run_move_end(t, i, padded);
}

/* Whether text[start:end] is a run of items one white space or more (' ', '\t', '\n') apart, nothing
 * before or after: builder._PLAIN_RUN (or, `padded`, builder._PADDED_RUN) matches all of it. */
int scan_is_run(const Text *t, Py_ssize_t start, Py_ssize_t end, int padded) {
    Text run = {t->kind, t->data, end};
    Py_ssize_t i = start;
    for (;;) {
        i = scan_run_item_end(&run, i, padded);
        if (i < 0)
            return 0;
        if (i == end)
            return 1;
        Py_ssize_t gap = i;
        while (run_space(char_at(&run, i)))
            i++;
        if (i == gap)
            return 0;
    }
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
    return PyBool_FromLong(scan_is_run(&t, 0, t.end, 0));
}

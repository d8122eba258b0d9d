/* Shared by the compiled scanner (_scan.c, _runs.c, _fast.c, _wrap.c) and the compiled run replay
 * (rules/_replay.c): what separates the items of a run of plain moves; the text the scanner reads; the
 * scanner's module's functions of _runs.c, _fast.c, _wrap.c and _lines.c. */
#ifndef PDN_TOOLS_SCAN_H
#define PDN_TOOLS_SCAN_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* White space between a run's items (builder._PLAIN_RUN). */
static inline int run_space(Py_UCS4 ch) {
    return ch == ' ' || ch == '\n' || ch == '\t';
}

/* A str read up to `end` (its characters after it read as none). */
typedef struct {
    int kind;
    const void *data;
    Py_ssize_t end;
} Text;

static inline Py_UCS4 char_at(const Text *t, Py_ssize_t i) {
    return i >= 0 && i < t->end ? PyUnicode_READ(t->kind, t->data, i) : 0;    /* 0 matches nothing */
}

static inline int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }

/* The end of one item of the MOVES terminal at `i`, or -1; the end of the white space at `i` (_scan.c). */
Py_ssize_t scan_item_end(const Text *t, Py_ssize_t i);
Py_ssize_t scan_gap_end(const Text *t, Py_ssize_t i);

/* A run of plain moves (_runs.c): the end of its item at `i` (`padded`: of a zero-padded run), or -1;
 * whether text[start:end] is a run; plain_run(text). */
Py_ssize_t scan_run_item_end(const Text *t, Py_ssize_t i, int padded);
int scan_is_run(const Text *t, Py_ssize_t start, Py_ssize_t end, int padded);
PyObject *scan_plain_run(PyObject *module, PyObject *text);

/* fast_game(text, pos, endpos, last) (_fast.c). */
PyObject *scan_fast_game(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* numbered_text(pieces, ply, tail, width): the canonical movetext, numbered and wrapped (_wrap.c). */
PyObject *scan_numbered_text(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* movetext_lines(pieces, tail, width): a movetext holding runs kept as text, written and wrapped (_lines.c). */
PyObject *scan_movetext_lines(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif

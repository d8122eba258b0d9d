/* Shared by the compiled scanner (_scan.c, _wrap.c) and the compiled run replay (rules/_replay.c):
 * what separates the items of a run of plain moves; the scanner's module's functions of _wrap.c and _lines.c. */
#ifndef PDN_TOOLS_SCAN_H
#define PDN_TOOLS_SCAN_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* White space between a run's items (builder._PLAIN_RUN). */
static inline int run_space(Py_UCS4 ch) {
    return ch == ' ' || ch == '\n' || ch == '\t';
}

/* numbered_text(pieces, ply, tail, width): the canonical movetext, numbered and wrapped (_wrap.c). */
PyObject *scan_numbered_text(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* movetext_lines(pieces, tail, width): a movetext holding runs kept as text, written and wrapped (_lines.c). */
PyObject *scan_movetext_lines(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif

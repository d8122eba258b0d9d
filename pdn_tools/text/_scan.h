/* Shared by the compiled scanner (_scan.c) and the compiled run replay (rules/_replay.c): what
 * separates the items of a run of plain moves. */
#ifndef PDN_TOOLS_SCAN_H
#define PDN_TOOLS_SCAN_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* White space between a run's items (builder._PLAIN_RUN). */
static inline int run_space(Py_UCS4 ch) {
    return ch == ' ' || ch == '\n' || ch == '\t';
}

#endif

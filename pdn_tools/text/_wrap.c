/* The canonical movetext written at once (part of the compiled scanner's module, _scan.c): the
 * moves numbered again from a ply and every piece wrapped into lines, with no Python string made
 * per move.
 *
 * numbered_text(pieces, ply, tail, width) -> str, `pieces` a list of (kind, text):
 *   kind 0 (writer.RUN): a run of moves kept as text; its words as MoveRun.texts cuts them, its
 *     move numbers left out, each move numbered as below;
 *   kind 1 (writer.MOVE): one move, numbered as below;
 *   kind 2 (writer.OTHER): a piece written as it is (a comment, a NAG); the next move is numbered.
 * A move at an even ply is written `N. move`, at an odd ply after a piece other than a move
 * `N... move`, else alone (N = ply // 2 + 1, the ply counted from `ply` on).  The pieces and
 * `tail` are then joined as writer.wrap joins them into lines of at most `width` characters.
 * tests/text/test_wrap_core.py compares the two.
 * twin: pdn_tools.text.writer.numbered_text */
#include "_scan.h"
#include "_lines.h"

/* text[start:end] after the buffer's end. */
static int put_text(Buffer *b, PyObject *text, Py_ssize_t start, Py_ssize_t end) {
    if (room(b, end - start) < 0)
        return -1;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    for (Py_ssize_t i = start; i < end; i++)
        b->chars[b->len++] = PyUnicode_READ(kind, data, i);
    return 0;
}

static int put_ascii(Buffer *b, const char *text) {
    Py_ssize_t n = (Py_ssize_t)strlen(text);
    if (room(b, n) < 0)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++)
        b->chars[b->len++] = (Py_UCS4)(unsigned char)text[i];
    return 0;
}

/* ---- the moves numbered ------------------------------------------------------------------------ */
typedef struct {
    Lines *lines;
    Buffer piece;           /* the piece being made: a move with its number */
    long long ply;
    int moved;              /* the last piece is a move: an odd ply gets no number */
} Numbering;

/* A move (text[start:end], or `held` then a space then it when `held` is given). */
static int add_move(Numbering *m, const Buffer *held, PyObject *text, Py_ssize_t start, Py_ssize_t end) {
    m->piece.len = 0;
    if (m->ply % 2 == 0 || !m->moved) {
        char number[32];
        snprintf(number, sizeof number, m->ply % 2 == 0 ? "%lld. " : "%lld... ", m->ply / 2 + 1);
        if (put_ascii(&m->piece, number) < 0)
            return -1;
    }
    if (held != NULL && (put(&m->piece, held->chars, held->len) < 0 ||
                         put_char(&m->piece, ' ') < 0))
        return -1;
    if (put_text(&m->piece, text, start, end) < 0)
        return -1;
    m->moved = 1;
    m->ply++;
    return wrap_atom(m->lines, m->piece.chars, m->piece.len);
}

/* The moves of a run's text: its words (str.split), a number glued to its move cut after its dots,
 * a move ending with its separator joined to the next word (MoveRun.texts); numbers left out. */
static int add_run(Numbering *m, PyObject *text, Buffer *held) {
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0;
    int holding = 0;
    while (i < n) {
        while (i < n && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
            i++;
        if (i == n)
            break;
        Py_ssize_t start = i, dots = -1;
        for (; i < n && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)); i++)
            if (PyUnicode_READ(kind, data, i) == '.')
                dots = i + 1;
        Py_UCS4 last = PyUnicode_READ(kind, data, i - 1);
        int joined = holding;
        if (!holding && dots > 0 && last != '.')
            start = dots;                           /* the number before it: not written */
        holding = 0;
        if (last == '-' || last == 'x') {           /* the move goes on in the next word */
            if (!joined)
                held->len = 0;
            if ((joined && put_char(held, ' ') < 0) || put_text(held, text, start, i) < 0)
                return -1;
            holding = 1;
        } else if (last != '.' && add_move(m, joined ? held : NULL, text, start, i) < 0) {
            return -1;
        }
    }
    return 0;
}

PyObject *scan_numbered_text(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 4 || !PyList_Check(args[0]) || !PyLong_Check(args[1]) || !PyUnicode_Check(args[2]) ||
        !PyLong_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "numbered_text(pieces: list[tuple[int, str]], ply: int, tail: str, width: int)");
        return NULL;
    }
    long long ply = PyLong_AsLongLong(args[1]);
    Py_ssize_t width = PyLong_AsSsize_t(args[3]);
    if ((ply == -1 || width == -1) && PyErr_Occurred())
        return NULL;
    if (ply < 0) {
        PyErr_SetString(PyExc_ValueError, "numbered_text: a ply below 0");
        return NULL;
    }
    Lines lines = {{NULL, 0, 0}, {NULL, 0, 0}, 0, width};
    Numbering numbering = {&lines, {NULL, 0, 0}, ply, 0};
    Buffer held = {NULL, 0, 0};
    PyObject *result = NULL;
    PyObject *pieces = args[0];
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(pieces); k++) {
        PyObject *item = PyList_GET_ITEM(pieces, k);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2 || !PyLong_Check(PyTuple_GET_ITEM(item, 0)) ||
            !PyUnicode_Check(PyTuple_GET_ITEM(item, 1))) {
            PyErr_SetString(PyExc_TypeError, "numbered_text: a piece is a (kind, text) pair");
            goto done;
        }
        long kind = PyLong_AsLong(PyTuple_GET_ITEM(item, 0));
        PyObject *text = PyTuple_GET_ITEM(item, 1);
        int failed;
        if (kind == 0) {
            failed = add_run(&numbering, text, &held);
        } else if (kind == 1) {
            failed = add_move(&numbering, NULL, text, 0, PyUnicode_GET_LENGTH(text));
        } else if (kind == 2) {
            numbering.piece.len = 0;
            numbering.moved = 0;
            failed = put_text(&numbering.piece, text, 0, PyUnicode_GET_LENGTH(text)) < 0 ||
                wrap_atom(&lines, numbering.piece.chars, numbering.piece.len) < 0;
        } else {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "numbered_text: a piece's kind is 0, 1 or 2");
            goto done;
        }
        if (failed)
            goto done;
    }
    numbering.piece.len = 0;
    if (put_text(&numbering.piece, args[2], 0, PyUnicode_GET_LENGTH(args[2])) < 0 ||
        wrap_atom(&lines, numbering.piece.chars, numbering.piece.len) < 0 ||
        (lines.line.len && end_line(&lines) < 0))
        goto done;
    result = lines.done.len ? PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, lines.done.chars, lines.done.len)
                           : PyUnicode_FromStringAndSize("", 0);
done:
    PyMem_Free(lines.done.chars);
    PyMem_Free(lines.line.chars);
    PyMem_Free(numbering.piece.chars);
    PyMem_Free(held.chars);
    return result;
}


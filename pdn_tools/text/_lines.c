/* A game's movetext written at once, as writer.write_game writes it, when it holds runs of moves
 * kept as text: no Python string made per move (pdn filter, dedupe, split pass games on so).
 *
 * movetext_lines(pieces, tail, width) -> str or None, `pieces` a list of (text, kind):
 *   kind 0: a run of moves kept as text (MoveRun.text), its items the words MoveRun.texts cuts,
 *     each move number written as writer._run_number writes it;
 *   kind 1, 2, 3: a move number, a move, any other piece, written as it is.
 * A move number and the move right after it make one unbreakable piece (writer._atoms); the
 * pieces and `tail` are joined into lines of at most `width` characters as writer.wrap joins
 * them.  None when a run holds a number that is not digits and dots (the writer then decides).
 * twin: pdn_tools.text.writer._atoms, pdn_tools.text.writer.wrap, pdn_tools.text.model.MoveRun.texts */
#include "_lines.h"
#include "_scan.h"

enum { RUN, NUMBER, MOVE, OTHER };

/* writer._atoms' state: a move number waiting for the move it is glued to. */
typedef struct {
    Lines lines;
    Buffer number, atom;
} Atoms;

/* One piece of movetext (writer._atoms): a number waits for its move. */
static int piece(Atoms *a, const Py_UCS4 *text, Py_ssize_t n, int kind) {
    if (a->number.len && kind == MOVE) {
        a->atom.len = 0;
        if (put(&a->atom, a->number.chars, a->number.len) < 0 || put_char(&a->atom, ' ') < 0
            || put(&a->atom, text, n) < 0)
            return -1;
        a->number.len = 0;
        return wrap_atom(&a->lines, a->atom.chars, a->atom.len);
    }
    if (a->number.len) {
        if (wrap_atom(&a->lines, a->number.chars, a->number.len) < 0)
            return -1;
        a->number.len = 0;
    }
    if (kind == NUMBER && n > 0)
        return put(&a->number, text, n);
    return wrap_atom(&a->lines, text, n);
}

/* A run's move number as writer._run_number writes it ('01.' as '1.', '...' as '...'); 0 when
 * its digits are not all 0-9 (-1 on an error). */
static int run_number(Atoms *a, const Py_UCS4 *text, Py_ssize_t n) {
    Py_ssize_t digits = n;
    while (digits > 0 && text[digits - 1] == '.')
        digits--;
    int black = n - digits >= 3;
    Py_ssize_t first = 0;
    for (Py_ssize_t i = 0; i < digits; i++)
        if (text[i] < '0' || text[i] > '9')
            return 0;
    while (first < digits && text[first] == '0')
        first++;
    static const Py_UCS4 zero = '0', dots[3] = {'.', '.', '.'};
    Buffer *b = &a->atom;
    b->len = 0;
    if (first == digits && black)
        return put(b, dots, 3) < 0 ? -1 : 1;
    if ((first == digits ? put(b, &zero, 1) : put(b, text + first, digits - first)) < 0
        || put(b, dots, black ? 3 : 1) < 0)
        return -1;
    return 1;
}

/* One item of a run (MoveRun.texts): a move number or a move. */
static int run_item(Atoms *a, Buffer *item) {
    const Py_UCS4 *text = item->chars;
    Py_ssize_t n = item->len;
    if (text[n - 1] != '.')
        return piece(a, text, n, MOVE) < 0 ? -1 : 1;
    int done = run_number(a, text, n);       /* written in a->atom, which piece() keeps for moves */
    return done == 1 ? (piece(a, a->atom.chars, a->atom.len, NUMBER) < 0 ? -1 : 1) : done;
}

/* The items of a run's text as MoveRun.texts cuts them, each written (1; 0 when a number is not
 * digits and dots; -1 on an error). */
static int run_items(Atoms *a, PyObject *text, Buffer *word, Buffer *held) {
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t len = PyUnicode_GET_LENGTH(text), i = 0;
    held->len = 0;
    while (i < len) {
        while (i < len && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
            i++;
        if (i == len)
            break;
        word->len = 0;
        if (held->len) {                 /* a move cut by its separator's space */
            if (put(word, held->chars, held->len) < 0 || put_char(word, ' ') < 0)
                return -1;
        }
        Py_ssize_t start = word->len, dot = -1;
        for (; i < len && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)); i++) {
            Py_UCS4 ch = PyUnicode_READ(kind, data, i);
            if (ch == '.')
                dot = word->len;
            if (put_char(word, ch) < 0)
                return -1;
        }
        if (!held->len && dot >= 0 && word->chars[word->len - 1] != '.') {   /* '12.11-15': the number first */
            Buffer number = {word->chars, dot + 1 - start, 0};
            int done = run_item(a, &number);
            if (done <= 0)
                return done;
            memmove(word->chars, word->chars + dot + 1, (size_t)(word->len - dot - 1) * sizeof(Py_UCS4));
            word->len -= dot + 1;
        }
        held->len = 0;
        Py_UCS4 last = word->chars[word->len - 1];
        if (last == '-' || last == 'x') {
            if (put(held, word->chars, word->len) < 0)
                return -1;
            continue;
        }
        int done = run_item(a, word);
        if (done <= 0)
            return done;
    }
    return 1;
}

PyObject *scan_movetext_lines(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 3 || !PyList_Check(args[0]) || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "movetext_lines(pieces: list, tail: str, width: int)");
        return NULL;
    }
    Atoms a;
    memset(&a, 0, sizeof a);
    a.lines.width = PyLong_AsSsize_t(args[2]);
    Buffer word = {NULL, 0, 0}, held = {NULL, 0, 0}, chars = {NULL, 0, 0};
    PyObject *result = NULL;
    int done = a.lines.width == -1 && PyErr_Occurred() ? -1 : 1;
    for (Py_ssize_t k = 0; done == 1 && k <= PyList_GET_SIZE(args[0]); k++) {
        PyObject *text = args[1];
        long kind = OTHER;
        if (k < PyList_GET_SIZE(args[0])) {
            PyObject *pair = PyList_GET_ITEM(args[0], k);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 || !PyUnicode_Check(PyTuple_GET_ITEM(pair, 0))
                || !PyLong_Check(PyTuple_GET_ITEM(pair, 1))) {    /* an int: no __index__ drops `pair` */
                PyErr_SetString(PyExc_TypeError, "movetext_lines: each piece a (text, kind)");
                done = -1;
                break;
            }
            text = PyTuple_GET_ITEM(pair, 0);
            kind = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
            if (kind == -1 && PyErr_Occurred()) {
                done = -1;
                break;
            }
        }
        if (kind == RUN) {
            done = run_items(&a, text, &word, &held);
            continue;
        }
        Py_ssize_t n = PyUnicode_GET_LENGTH(text);
        chars.len = 0;
        if (room(&chars, n + 1) < 0 || PyUnicode_AsUCS4(text, chars.chars, n + 1, 1) == NULL)
            done = -1;
        else
            done = piece(&a, chars.chars, n, (int)kind) < 0 ? -1 : 1;
    }
    if (done == 1 && (a.number.len == 0 || wrap_atom(&a.lines, a.number.chars, a.number.len) == 0)
        && (a.lines.line.len == 0 || end_line(&a.lines) == 0))
        result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, a.lines.done.chars, a.lines.done.len);
    else if (done == 0)
        result = Py_NewRef(Py_None);
    PyMem_Free(word.chars);
    PyMem_Free(held.chars);
    PyMem_Free(chars.chars);
    PyMem_Free(a.number.chars);
    PyMem_Free(a.atom.chars);
    PyMem_Free(a.lines.done.chars);
    PyMem_Free(a.lines.line.chars);
    return result;
}

/* Position and Move objects read and made by the compiled run replay, only through the
 * functions movegen hands the Rules when it makes them (Rules_init's makers): the core knows
 * no attribute of either class (twin: pdn_tools.rules.movegen._position_like,
 * pdn_tools.rules.movegen._position_pieces, pdn_tools.rules.move.Move). */
#include "_replay.h"

/* "W" or "B": the side to move as Position.turn holds it. */
static PyObject *turn_name(int turn) {
    static PyObject *names[2] = {NULL, NULL};
    if (names[turn] == NULL)
        names[turn] = PyUnicode_InternFromString(turn ? "B" : "W");
    return names[turn];
}

int read_position(const Rules *r, PyObject *position, Seen *out) {
    PyObject *pieces = PyObject_CallOneArg(r->position_pieces, position);
    if (pieces == NULL)
        return -1;
    if (!PyTuple_Check(pieces) || PyTuple_GET_SIZE(pieces) != 4) {
        Py_DECREF(pieces);
        PyErr_SetString(PyExc_TypeError, "position_pieces must give (turn, white, black, kings)");
        return -1;
    }
    PyObject *turn = PyTuple_GET_ITEM(pieces, 0);
    out->turn = PyUnicode_Check(turn) && PyUnicode_CompareWithASCIIString(turn, "B") == 0;
    out->count = 0;
    int failed = to_set(r, PyTuple_GET_ITEM(pieces, 1), &out->white) < 0
                 || to_set(r, PyTuple_GET_ITEM(pieces, 2), &out->black) < 0
                 || to_set(r, PyTuple_GET_ITEM(pieces, 3), &out->kings) < 0;
    Py_DECREF(pieces);
    return failed ? -1 : 0;
}

PyObject *make_position(const Rules *r, PyObject *like, const Seen *s) {
    PyObject *turn = turn_name(s->turn);
    PyObject *white = from_set(r, s->white), *black = from_set(r, s->black), *kings = from_set(r, s->kings);
    PyObject *position = NULL;
    if (turn != NULL && white != NULL && black != NULL && kings != NULL) {
        PyObject *args[5] = {like, turn, white, black, kings};
        position = PyObject_Vectorcall(r->position_like, args, 5, NULL);
    }
    Py_XDECREF(white);
    Py_XDECREF(black);
    Py_XDECREF(kings);
    return position;
}

static PyObject *numbers_tuple(const Rules *r, const int8_t *squares, int len) {
    PyObject *tuple = PyTuple_New(len);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < len; i++)
        PyTuple_SET_ITEM(tuple, i, PyLong_FromLong(r->number[(int)squares[i]]));
    return tuple;
}

PyObject *make_move(const Rules *r, const Record *rec) {
    PyObject *start = PyLong_FromLong(r->number[(int)rec->start]);
    PyObject *path = numbers_tuple(r, rec->path, rec->len), *captured = numbers_tuple(r, rec->caps, rec->len);
    PyObject *move = NULL;
    if (start != NULL && path != NULL && captured != NULL) {
        PyObject *args[4] = {start, path, captured, rec->promotes ? Py_True : Py_False};
        move = PyObject_Vectorcall(r->move_type, args, 4, NULL);
    }
    Py_XDECREF(start);
    Py_XDECREF(path);
    Py_XDECREF(captured);
    return move;
}

/* fen(white, black, kings, black_to_move) -> the position's canonical FEN in square numbers
 * (twin: pdn_tools.rules.fen.write_fen with numeric squares): the side to move, then each
 * side's squares in increasing order, a king's after `K`. */
PyObject *Rules_fen(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "fen takes 4 arguments");
        return NULL;
    }
    Seen s;
    Names numbers = {0};
    s.turn = PyObject_IsTrue(args[3]);
    if (s.turn < 0 || to_set(self, args[0], &s.white) < 0 || to_set(self, args[1], &s.black) < 0
        || to_set(self, args[2], &s.kings) < 0)
        return NULL;
    char out[FEN_SIZE];
    char *at = write_fen(self, &s, &numbers, out);
    return PyUnicode_FromStringAndSize(out, at - out);
}

/* squares_of(set) -> the frozenset of the square numbers in `set` (a Position's bitboard; twin:
 * pdn_tools.rules.movegen.Position._squares). */
PyObject *Rules_squares_of(Rules *self, PyObject *value) {
    u128 set;
    if (to_set(self, value, &set) < 0)
        return NULL;
    PyObject *out = PyFrozenSet_New(NULL);
    while (out != NULL && set) {
        int sq = lowest(set);
        set &= set - 1;
        PyObject *number = PyLong_FromLong(self->number[sq]);
        if (number == NULL || PySet_Add(out, number) < 0)
            Py_CLEAR(out);
        Py_XDECREF(number);
    }
    return out;
}

/* names_in(names, out): the names of the squares `names` gives (None: their numbers; else a tuple
 * whose item k is the text of square number k, at most four ASCII characters). */
int names_in(const Rules *r, PyObject *names, Names *out) {
    out->on = names != Py_None;
    if (!out->on)
        return 0;
    if (!PyTuple_Check(names) || PyTuple_GET_SIZE(names) <= r->n) {
        PyErr_SetString(PyExc_TypeError, "names: a tuple naming every square number");
        return -1;
    }
    for (int number = 1; number <= r->n; number++) {
        PyObject *name = PyTuple_GET_ITEM(names, number);
        if (!PyUnicode_Check(name) || !PyUnicode_IS_ASCII(name) || PyUnicode_GET_LENGTH(name) > 4) {
            PyErr_SetString(PyExc_ValueError, "names: a square's name is at most four ASCII characters");
            return -1;
        }
        out->text[number] = (const char *)PyUnicode_DATA(name);
        out->len[number] = PyUnicode_GET_LENGTH(name);
    }
    return 0;
}

/* Writes `value` (0 or more) in decimal at `at`; returns the end. */
char *write_number(long value, char *at) {
    char digits[24];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (count)
        *at++ = digits[--count];
    return at;
}

/* Writes square `sq` at `at` as its number or its name (`quoted` between double quotes, as JSON
 * writes a string); returns the end. */
char *write_square(const Rules *r, const Names *names, int sq, int quoted, char *at) {
    int number = r->number[sq];
    if (!names->on)
        return write_number(number, at);
    if (quoted)
        *at++ = '"';
    memcpy(at, names->text[number], (size_t)names->len[number]);
    at += names->len[number];
    if (quoted)
        *at++ = '"';
    return at;
}

/* Writes the canonical FEN of `s` at `at` (at most FEN_SIZE characters; twin:
 * pdn_tools.rules.fen.write_fen): the side to move, then each side's squares in increasing
 * order of their numbers, a king's after `K`; returns the end. */
char *write_fen(const Rules *r, const Seen *s, const Names *names, char *at) {
    u128 sides[2] = {s->white, s->black};
    *at++ = s->turn ? 'B' : 'W';
    for (int side = 0; side < 2; side++) {
        *at++ = ':';
        *at++ = side ? 'B' : 'W';
        int first = 1;
        for (int number = 1; number <= r->n; number++) {
            int sq = r->index_of[number];
            if (!HAS(sides[side], sq))
                continue;
            if (!first)
                *at++ = ',';
            first = 0;
            if (HAS(s->kings, sq))
                *at++ = 'K';
            at = write_square(r, names, sq, 0, at);
        }
    }
    return at;
}

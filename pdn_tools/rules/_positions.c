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
    u128 sides[2], kings;
    int black = PyObject_IsTrue(args[3]);
    if (black < 0 || to_set(self, args[0], &sides[0]) < 0 || to_set(self, args[1], &sides[1]) < 0
        || to_set(self, args[2], &kings) < 0)
        return NULL;
    char out[8 + MAX_SQ * 6], *at = out;       /* "K" + up to 3 digits + "," a square */
    *at++ = black ? 'B' : 'W';
    for (int side = 0; side < 2; side++) {
        *at++ = ':';
        *at++ = side ? 'B' : 'W';
        int first = 1;
        for (int number = 1; number <= self->n; number++) {
            int sq = self->index_of[number];
            if (!HAS(sides[side], sq))
                continue;
            if (!first)
                *at++ = ',';
            first = 0;
            if (HAS(kings, sq))
                *at++ = 'K';
            at += sprintf(at, "%d", number);
        }
    }
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

/* Position and Move objects read and made by the compiled run replay, only through the
 * makers movegen hands the Rules when it makes them (Rules_init's makers: two slot makers and a
 * function; movegen._POSITION_MAKER makes what _position_like makes, movegen._MOVE_MAKER what
 * Move() makes): the core knows no attribute of either class (twin:
 * pdn_tools.rules.movegen._position_like, pdn_tools.rules.movegen._position_pieces,
 * pdn_tools.rules.move.Move). */
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

/* The position of `like`'s variant, tables and counters (the maker's first three slots, read
 * from `like`) with the side to move and pieces of `s` (the last four). */
PyObject *make_position(const Rules *r, PyObject *like, const Seen *s) {
    PyObject *descriptors = PyTuple_GET_ITEM(r->position_like, 1);
    PyObject *values[7] = {NULL, NULL, NULL, turn_name(s->turn), NULL, NULL, NULL};
    int ready = values[3] != NULL;
    for (int i = 0; ready && i < 3; i++) {
        PyObject *descriptor = PyTuple_GET_ITEM(descriptors, i);
        values[i] = Py_TYPE(descriptor)->tp_descr_get(descriptor, like, (PyObject *)Py_TYPE(like));
        ready = values[i] != NULL;
    }
    ready = ready && (values[4] = from_set(r, s->white)) != NULL && (values[5] = from_set(r, s->black)) != NULL
            && (values[6] = from_set(r, s->kings)) != NULL;
    PyObject *position = ready ? make_slotted(r->position_like, values) : NULL;
    for (int i = 0; i < 7; i++)
        if (i != 3)
            Py_XDECREF(values[i]);
    return position;
}

int slot_maker_in(PyObject *maker, Py_ssize_t slots) {
    if (!PyTuple_Check(maker) || PyTuple_GET_SIZE(maker) != 2 || !PyType_Check(PyTuple_GET_ITEM(maker, 0))
        || !PyTuple_Check(PyTuple_GET_ITEM(maker, 1)) || PyTuple_GET_SIZE(PyTuple_GET_ITEM(maker, 1)) != slots) {
        PyErr_Format(PyExc_TypeError, "a slot maker is (class, its %zd slots' descriptors)", slots);
        return -1;
    }
    PyObject *descriptors = PyTuple_GET_ITEM(maker, 1);
    for (Py_ssize_t i = 0; i < slots; i++) {
        PyTypeObject *kind = Py_TYPE(PyTuple_GET_ITEM(descriptors, i));
        if (kind->tp_descr_get == NULL || kind->tp_descr_set == NULL) {
            PyErr_SetString(PyExc_TypeError, "a slot maker's descriptors must be read and set");
            return -1;
        }
    }
    return 0;
}

PyObject *make_slotted(PyObject *maker, PyObject *const *values) {
    static PyObject *no_args = NULL;
    if (no_args == NULL && (no_args = PyTuple_New(0)) == NULL)
        return NULL;
    PyObject *descriptors = PyTuple_GET_ITEM(maker, 1);
    PyObject *made = PyBaseObject_Type.tp_new((PyTypeObject *)PyTuple_GET_ITEM(maker, 0), no_args, NULL);
    for (Py_ssize_t i = 0; made != NULL && i < PyTuple_GET_SIZE(descriptors); i++) {
        PyObject *descriptor = PyTuple_GET_ITEM(descriptors, i);
        if (Py_TYPE(descriptor)->tp_descr_set(descriptor, made, values[i]) < 0)
            Py_CLEAR(made);
    }
    return made;
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
        move = make_slotted(r->move_type, args);
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

static PyObject *no_squares = NULL;     /* the empty set: the kings of a side without */

/* The answer (its squares, no kings) for a side without kings whose bitboard is `set` (its
 * Python int `key`), kept in `known` (bitboard -> answer), which is emptied when it holds `most`
 * answers: along a game the side that did not move keeps its answer (twin:
 * pdn_tools.rules.movegen.Position._squares). */
static PyObject *known_squares(const Rules *r, PyObject *known, Py_ssize_t most, PyObject *key, u128 set) {
    PyObject *found = PyDict_GetItemWithError(known, key);
    if (found != NULL || PyErr_Occurred())
        return Py_XNewRef(found);
    PyObject *squares = PyFrozenSet_New(NULL);
    while (squares != NULL && set) {
        int sq = lowest(set);
        set &= set - 1;
        PyObject *number = PyLong_FromLong(r->number[sq]);
        if (number == NULL || PySet_Add(squares, number) < 0)
            Py_CLEAR(squares);
        Py_XDECREF(number);
    }
    PyObject *out = squares == NULL ? NULL : PyTuple_Pack(2, squares, no_squares);
    Py_XDECREF(squares);
    if (out == NULL)
        return NULL;
    if (PyDict_GET_SIZE(known) >= most)
        PyDict_Clear(known);
    if (PyDict_SetItem(known, key, out) < 0)
        Py_CLEAR(out);
    return out;
}

/* The squares of `set`, its Python int made first (the key of `known`): a new reference. */
static PyObject *made_squares(const Rules *r, PyObject *known, Py_ssize_t most, u128 set) {
    PyObject *key = from_set(r, set);
    PyObject *answer = key == NULL ? NULL : known_squares(r, known, most, key, set);
    PyObject *out = answer == NULL ? NULL : Py_NewRef(PyTuple_GET_ITEM(answer, 0));
    Py_XDECREF(key);
    Py_XDECREF(answer);
    return out;
}

/* pieces(side, kings, known, most) -> (men, kings) of a side as frozensets of square numbers:
 * `side` its bitboard, `kings` the position's, `known` the answers remembered (a dict of at most
 * `most`: a side's bitboard -> its answer without kings, (side, kings) -> its answer with them;
 * twin: pdn_tools.rules.movegen.Position.pieces). */
PyObject *Rules_pieces(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyDict_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "pieces takes a side's bitboard, the kings', a dict and its size");
        return NULL;
    }
    Py_ssize_t most = PyLong_AsSsize_t(args[3]);
    if (most == -1 && PyErr_Occurred())
        return NULL;
    if (no_squares == NULL && (no_squares = PyFrozenSet_New(NULL)) == NULL)
        return NULL;
    u128 side, kings = 0;
    int crowned = PyObject_IsTrue(args[1]);
    if (crowned < 0)
        return NULL;
    if (!crowned) {                     /* the common case: the answer by the side's bitboard */
        PyObject *found = PyDict_GetItemWithError(args[2], args[0]);
        if (found != NULL || PyErr_Occurred())
            return Py_XNewRef(found);
        return to_set(self, args[0], &side) < 0 ? NULL : known_squares(self, args[2], most, args[0], side);
    }
    PyObject *key = PyTuple_Pack(2, args[0], args[1]);     /* with kings: the answer by (side, kings) */
    PyObject *out = key == NULL ? NULL : PyDict_GetItemWithError(args[2], key);
    if (out != NULL || key == NULL || PyErr_Occurred()) {
        Py_XDECREF(key);
        return Py_XNewRef(out);
    }
    PyObject *men = NULL, *crown = NULL;
    if (to_set(self, args[0], &side) == 0 && to_set(self, args[1], &kings) == 0) {
        kings &= side;
        men = made_squares(self, args[2], most, side & ~kings);
        crown = men == NULL ? NULL : kings ? made_squares(self, args[2], most, kings) : Py_NewRef(no_squares);
    }
    out = crown == NULL ? NULL : PyTuple_Pack(2, men, crown);
    if (out != NULL && PyDict_GET_SIZE(args[2]) >= most)
        PyDict_Clear(args[2]);
    if (out != NULL && PyDict_SetItem(args[2], key, out) < 0)
        Py_CLEAR(out);
    Py_XDECREF(men);
    Py_XDECREF(crown);
    Py_DECREF(key);
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

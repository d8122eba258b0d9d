/* Position and Move objects read and made by the compiled run replay, only through the
 * makers movegen hands the Rules when it makes them (Rules_init's makers: two slot makers and a
 * function; movegen._POSITION_MAKER makes what _position_like makes, movegen._MOVE_MAKER what
 * Move() makes): the core knows no attribute of either class (twin:
 * pdn_tools.rules.movegen._position_like, pdn_tools.rules.movegen._position_pieces,
 * pdn_tools.rules.move.Move). */
#include "_replay.h"
#if PY_VERSION_HEX < 0x030C0000
#include <structmember.h>               /* T_OBJECT_EX, READONLY (3.12: Py_T_OBJECT_EX, Py_READONLY) */
#define Py_T_OBJECT_EX T_OBJECT_EX
#define Py_READONLY READONLY
#endif

/* Bitboards at the Python boundary (to_set, from_set): an int's digits
 * are read or written at once where the int's layout is known (CPython 3.11, 30-bit digits) and a
 * bitboard of padded bits (bulk) fits 128 bits; else through the byte arrays below. */
#if PY_VERSION_HEX < 0x030C0000 && PYLONG_BITS_IN_DIGIT == 30
#define DIGITS_KNOWN 1
#else
#define DIGITS_KNOWN 0
#endif

int to_set(const Rules *r, PyObject *value, u128 *out) {
    unsigned char buf[MAX_BITS / 8];
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "a bitboard must be an int");
        return -1;
    }
#if DIGITS_KNOWN
    Py_ssize_t size = Py_SIZE(value);
    if (r->bulk && size >= 0 && size <= 4) {        /* at most 120 bits: any other goes the long way */
        u128 set = 0;
        for (Py_ssize_t i = size - 1; i >= 0; i--)
            set = set << PyLong_SHIFT | ((PyLongObject *)value)->ob_digit[i];
        if ((set & ~r->valid) == 0) {              /* else the long way, which raises as before */
            *out = set;
            return 0;
        }
    }
#endif
#if PY_VERSION_HEX >= 0x030D0000
    if (_PyLong_AsByteArray((PyLongObject *)value, buf, (size_t)r->nbytes, 1, 0, 1) < 0)
        return -1;
#else
    if (_PyLong_AsByteArray((PyLongObject *)value, buf, (size_t)r->nbytes, 1, 0) < 0)
        return -1;
#endif
    u128 set = 0;
    if (r->bulk) {                      /* indices are the padded bits */
        for (int i = r->nbytes - 1; i >= 0; i--)
            set = set << 8 | buf[i];
        if (set & ~r->valid) {
            PyErr_SetString(PyExc_ValueError, "a bitboard holds a bit that is not a square");
            return -1;
        }
        *out = set;
        return 0;
    }
    for (int i = 0; i < r->nbytes; i++) {
        unsigned b = buf[i];
        while (b) {
            int bit = i * 8 + __builtin_ctz(b);
            b &= b - 1;
            int sq = r->sq_of_bit[bit];
            if (sq < 0) {
                PyErr_SetString(PyExc_ValueError, "a bitboard holds a bit that is not a square");
                return -1;
            }
            set |= BIT(sq);
        }
    }
    *out = set;
    return 0;
}

PyObject *from_set(const Rules *r, u128 set) {
    if (r->bulk && (set >> 64) == 0)
        return PyLong_FromUnsignedLongLong((unsigned long long)set);
#if DIGITS_KNOWN
    if (r->bulk) {
        int count = 0;
        for (u128 rest = set; rest; rest >>= PyLong_SHIFT)
            count++;
        PyLongObject *made = _PyLong_New(count);
        for (int i = 0; made != NULL && i < count; i++, set >>= PyLong_SHIFT)
            made->ob_digit[i] = (digit)(set & PyLong_MASK);
        return (PyObject *)made;
    }
#endif
    unsigned char buf[MAX_BITS / 8];
    memset(buf, 0, sizeof buf);
    if (r->bulk)                        /* indices are the padded bits */
        for (int i = 0; i < r->nbytes; i++)
            buf[i] = (unsigned char)(set >> (8 * i));
    while (!r->bulk && set) {
        int sq = lowest(set);
        set &= set - 1;
        int bit = r->bit_of[sq];
        buf[bit >> 3] |= (unsigned char)(1u << (bit & 7));
    }
    return _PyLong_FromByteArray(buf, (size_t)r->nbytes, 1, 0);
}

/* Where the slot `descriptor` stands for is in `object`, when it is a plain object slot of the
 * object's own class (what __slots__ makes): read and written there at once, as the descriptor
 * would, without its checks; else NULL (the descriptor is asked). */
static PyObject **slot_in(PyObject *descriptor, PyObject *object) {
    if (!Py_IS_TYPE(descriptor, &PyMemberDescr_Type))
        return NULL;
    PyMemberDescrObject *member = (PyMemberDescrObject *)descriptor;
    if (member->d_common.d_type != Py_TYPE(object) || member->d_member->type != Py_T_OBJECT_EX
        || (member->d_member->flags & Py_READONLY))
        return NULL;
    return (PyObject **)((char *)object + member->d_member->offset);
}

/* The value of the slot `descriptor` of `object` (a new reference; NULL and an error when unset). */
static PyObject *slot_value(PyObject *descriptor, PyObject *object) {
    PyObject **slot = slot_in(descriptor, object);
    if (slot != NULL && *slot != NULL)
        return Py_NewRef(*slot);
    return Py_TYPE(descriptor)->tp_descr_get(descriptor, object, (PyObject *)Py_TYPE(object));
}

/* "W" or "B": the side to move as Position.turn holds it. */
static PyObject *turn_name(int turn) {
    static PyObject *names[2] = {NULL, NULL};
    if (names[turn] == NULL)
        names[turn] = PyUnicode_InternFromString(turn ? "B" : "W");
    return names[turn];
}

/* The side to move and pieces of `position` read from its slots at once (no Python code runs: the
 * slots hold what they hold while they are read), when it is of the class the position maker makes
 * and the maker's descriptors of turn, _white, _black and _kings are plain slots of it: 1; else 0
 * (read_position asks the reader), and -1 with an error when a slot holds no bitboard. */
static int read_slots(const Rules *r, PyObject *position, Seen *out) {
    PyObject *maker = r->position_like;
    if (Py_TYPE(position) != (PyTypeObject *)PyTuple_GET_ITEM(maker, 0))
        return 0;
    PyObject *descriptors = PyTuple_GET_ITEM(maker, 1);
    PyObject *held[4];
    for (int i = 0; i < 4; i++) {
        PyObject **slot = slot_in(PyTuple_GET_ITEM(descriptors, 3 + i), position);
        if (slot == NULL || *slot == NULL)
            return 0;
        held[i] = *slot;
    }
    out->turn = PyUnicode_Check(held[0]) && PyUnicode_CompareWithASCIIString(held[0], "B") == 0;
    out->count = 0;
    return to_set(r, held[1], &out->white) < 0 || to_set(r, held[2], &out->black) < 0
           || to_set(r, held[3], &out->kings) < 0 ? -1 : 1;
}

int read_position(const Rules *r, PyObject *position, Seen *out) {
    int read = read_slots(r, position, out);
    if (read != 0)
        return read < 0 ? -1 : 0;
    PyObject *reader = Py_NewRef(r->position_pieces);   /* owned across the call, which runs Python code */
    PyObject *pieces = PyObject_CallOneArg(reader, position);
    Py_DECREF(reader);
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
    return make_position_after(r, like, NULL, s);
}

/* make_position, the pieces' ints of `like` taken again where its pieces (`was`, when not NULL)
 * are those of `s`: along a game the side that did not move keeps them. */
PyObject *make_position_after(const Rules *r, PyObject *like, const Seen *was, const Seen *s) {
    PyObject *maker = Py_NewRef(r->position_like);    /* owned across the descriptors' Python code */
    PyObject *descriptors = PyTuple_GET_ITEM(maker, 1);
    PyObject *values[7] = {NULL, NULL, NULL, turn_name(s->turn), NULL, NULL, NULL};
    const u128 sets[3] = {s->white, s->black, s->kings};
    const u128 had[3] = {was ? was->white : 0, was ? was->black : 0, was ? was->kings : 0};
    int ready = values[3] != NULL;
    for (int i = 0; ready && i < 7; i++) {
        PyObject *descriptor = PyTuple_GET_ITEM(descriptors, i);
        if (i == 3)
            continue;
        if (i < 3 || (was != NULL && had[i - 4] == sets[i - 4]))
            values[i] = slot_value(descriptor, like);
        else
            values[i] = from_set(r, sets[i - 4]);
        ready = values[i] != NULL;
    }
    PyObject *position = ready ? make_slotted(maker, values) : NULL;
    for (int i = 0; i < 7; i++)
        if (i != 3)
            Py_XDECREF(values[i]);
    Py_DECREF(maker);
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
    Py_INCREF(maker);                   /* held: the allocation or a descriptor may run code that drops it */
    PyObject *descriptors = PyTuple_GET_ITEM(maker, 1);
    PyObject *made = PyBaseObject_Type.tp_new((PyTypeObject *)PyTuple_GET_ITEM(maker, 0), no_args, NULL);
    for (Py_ssize_t i = 0; made != NULL && i < PyTuple_GET_SIZE(descriptors); i++) {
        PyObject *descriptor = PyTuple_GET_ITEM(descriptors, i);
        PyObject **slot = slot_in(descriptor, made);
        if (slot != NULL)
            Py_XSETREF(*slot, Py_XNewRef(values[i]));
        else if (Py_TYPE(descriptor)->tp_descr_set(descriptor, made, values[i]) < 0)
            Py_CLEAR(made);
    }
    Py_DECREF(maker);
    return made;
}

/* (table[square] for each of the `len` squares) as a new tuple of ints (table: a Rules' number or bit_of);
 * NULL with the error set, the tuple let go, when an int cannot be made. */
PyObject *squares_tuple(const int *table, const int8_t *squares, int len) {
    PyObject *tuple = PyTuple_New(len);
    for (int i = 0; tuple != NULL && i < len; i++) {
        PyObject *item = PyLong_FromLong(table[(int)squares[i]]);
        if (item == NULL)
            Py_CLEAR(tuple);
        else
            PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

PyObject *make_move(const Rules *r, const Record *rec) {
    PyObject *start = PyLong_FromLong(r->number[(int)rec->start]);
    PyObject *path = start == NULL ? NULL : squares_tuple(r->number, rec->path, rec->len);
    PyObject *captured = path == NULL ? NULL : squares_tuple(r->number, rec->caps, rec->len);
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

/* What pieces() answers is left out of the cyclic garbage collector's walks (untracked):
 * frozensets of square numbers and pairs of them hold ints alone, so they are in no cycle. */
static PyObject *untracked(PyObject *made) {
    if (made != NULL)
        PyObject_GC_UnTrack(made);
    return made;
}

/* The square numbers of `set` in a new frozenset, untracked. */
static PyObject *squares_of(const Rules *r, u128 set) {
    PyObject *squares = PyFrozenSet_New(NULL);
    while (squares != NULL && set) {
        int sq = lowest(set);
        set &= set - 1;
        PyObject *number = PyLong_FromLong(r->number[sq]);
        if (number == NULL || PySet_Add(squares, number) < 0)
            Py_CLEAR(squares);
        Py_XDECREF(number);
    }
    return untracked(squares);
}

/* The frozenset of `men` (kings_set 0) or of `kings` (1) of a kept answer with those, else a new one. */
static PyObject *kept_squares(const Rules *r, u128 set, int kings_set) {
    for (int i = 0; i < PIECES_KEPT; i++) {
        PyObject *answer = r->pieces[i].answer;
        if (answer != NULL && (kings_set ? r->pieces[i].kings : r->pieces[i].men) == set)
            return Py_NewRef(PyTuple_GET_ITEM(answer, kings_set));
    }
    return squares_of(r, set);
}

/* pieces(side, kings) -> (men, kings) of a side as frozensets of square numbers: `side` its
 * bitboard, `kings` the position's.  The last PIECES_KEPT answers are kept and given again for
 * the same ints, or the same men and kings (their sets too, in a new answer with one of them): along a game the
 * side that did not move keeps its answer.  The Python twin keeps its sets in a dict instead
 * (twin: pdn_tools.rules.movegen.Position.pieces). */
PyObject *Rules_pieces(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "pieces takes a side's bitboard and the kings'");
        return NULL;
    }
    for (int i = 0; i < PIECES_KEPT; i++)        /* the same ints: a position made after another */
        if (self->pieces[i].side == args[0] && self->pieces[i].all_kings == args[1])  /* keeps them */
            return Py_NewRef(self->pieces[i].answer);
    u128 side, kings;
    if (to_set(self, args[0], &side) < 0 || to_set(self, args[1], &kings) < 0)
        return NULL;
    kings &= side;
    u128 men = side & ~kings;
    for (int i = 0; i < PIECES_KEPT; i++)
        if (self->pieces[i].answer != NULL && self->pieces[i].men == men && self->pieces[i].kings == kings)
            return Py_NewRef(self->pieces[i].answer);
    PyObject *men_set = kept_squares(self, men, 0);
    PyObject *kings_set = men_set == NULL ? NULL : kept_squares(self, kings, 1);
    PyObject *answer = kings_set == NULL ? NULL : untracked(PyTuple_Pack(2, men_set, kings_set));
    Py_XDECREF(men_set);
    Py_XDECREF(kings_set);
    if (answer == NULL)
        return NULL;
    int at = self->next_pieces;
    self->next_pieces = (at + 1) % PIECES_KEPT;
    self->pieces[at].men = men;
    self->pieces[at].kings = kings;
    Py_XSETREF(self->pieces[at].answer, Py_NewRef(answer));
    Py_XSETREF(self->pieces[at].side, Py_NewRef(args[0]));
    Py_XSETREF(self->pieces[at].all_kings, Py_NewRef(args[1]));
    return answer;
}

/* Position.pieces itself on the compiled core (twin: pdn_tools.rules.movegen.Position.pieces):
 * the method pieces_method makes reads the position's slots through the member descriptors
 * movegen hands it (its tables, its sides' bitboards and kings'; the tables' compiled core)
 * and answers as Rules_pieces, with no Python code run; a position on the pure engine, of a
 * subclass, or a call with other arguments goes to the Python method it replaces. */
static struct {
    PyObject *tables, *white, *black, *kings, *core, *method;
} position_slots;

/* What the slot `descriptor` of `object` holds (borrowed), NULL when it is not a plain slot of
 * the object's own class or is unset. */
static PyObject *slot_held(PyObject *descriptor, PyObject *object) {
    PyObject **slot = slot_in(descriptor, object);
    return slot == NULL ? NULL : *slot;
}

static PyObject *position_pieces(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *tables = slot_held(position_slots.tables, self);
    PyObject *core = tables == NULL ? NULL : slot_held(position_slots.core, tables);
    if (nargs != 1 || kwnames != NULL || core == NULL || !Py_IS_TYPE(core, &RulesType)) {
        PyObject *bound = PyMethod_New(position_slots.method, self);
        PyObject *answer = bound == NULL ? NULL : PyObject_Vectorcall(bound, args, nargs, kwnames);
        Py_XDECREF(bound);
        return answer;
    }
    PyObject *white_name = turn_name(0), *black_name = turn_name(1);
    int white = args[0] == white_name, black = args[0] == black_name;
    Py_INCREF(core);                    /* the comparison may run a colour's __eq__, which may drop the tables' core */
    if (!white && !black && (white_name == NULL || black_name == NULL
                             || (white = PyObject_RichCompareBool(args[0], white_name, Py_EQ)) < 0
                             || (!white && (black = PyObject_RichCompareBool(args[0], black_name, Py_EQ)) < 0))) {
        Py_DECREF(core);
        return NULL;
    }
    if (!white && !black) {             /* no side: the Python method says so (ValueError) */
        Py_DECREF(core);
        PyObject *bound = PyMethod_New(position_slots.method, self);
        PyObject *answer = bound == NULL ? NULL : PyObject_Vectorcall(bound, args, nargs, kwnames);
        Py_XDECREF(bound);
        return answer;
    }
    PyObject *bitboards[2] = {slot_held(white ? position_slots.white : position_slots.black, self),
                              slot_held(position_slots.kings, self)};
    PyObject *answer = NULL;
    if (bitboards[0] == NULL || bitboards[1] == NULL)
        PyErr_SetString(PyExc_AttributeError, "pieces: the position's pieces are not set");
    else {                              /* held: its allocations may run a finalizer that sets the slots */
        Py_INCREF(bitboards[0]);
        Py_INCREF(bitboards[1]);
        answer = Rules_pieces((Rules *)core, bitboards, 2);
        Py_DECREF(bitboards[0]);
        Py_DECREF(bitboards[1]);
    }
    Py_DECREF(core);
    return answer;
}

static PyMethodDef position_pieces_def = {
    "pieces", (PyCFunction)(void (*)(void))position_pieces, METH_FASTCALL | METH_KEYWORDS,
    "pieces($self, colour, /)\n--\n\n(men, kings) of `colour` ('W' or 'B') as square numbers."};

/* pieces_method(position class, (descriptors of its slots _rl, _white, _black, _kings), the
 * descriptor of the tables' slot core, the Python method) -> the method, for the class. */
PyObject *pieces_method(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 4 || !PyType_Check(args[0]) || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != 4
        || !PyCallable_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "pieces_method(class, (_rl, _white, _black, _kings), core, method)");
        return NULL;
    }
    PyObject *descriptors[5] = {PyTuple_GET_ITEM(args[1], 0), PyTuple_GET_ITEM(args[1], 1),
                                PyTuple_GET_ITEM(args[1], 2), PyTuple_GET_ITEM(args[1], 3), args[2]};
    for (int i = 0; i < 5; i++)
        if (!Py_IS_TYPE(descriptors[i], &PyMemberDescr_Type)) {
            PyErr_SetString(PyExc_TypeError, "pieces_method: the slots' member descriptors");
            return NULL;
        }
    Py_XSETREF(position_slots.tables, Py_NewRef(descriptors[0]));
    Py_XSETREF(position_slots.white, Py_NewRef(descriptors[1]));
    Py_XSETREF(position_slots.black, Py_NewRef(descriptors[2]));
    Py_XSETREF(position_slots.kings, Py_NewRef(descriptors[3]));
    Py_XSETREF(position_slots.core, Py_NewRef(descriptors[4]));
    Py_XSETREF(position_slots.method, Py_NewRef(args[3]));
    return PyDescr_NewMethod((PyTypeObject *)args[0], &position_pieces_def);
}

/* Lets the kept answers go (Rules_clear). */
void forget_pieces(Rules *r) {
    for (int i = 0; i < PIECES_KEPT; i++) {
        Py_CLEAR(r->pieces[i].answer);
        Py_CLEAR(r->pieces[i].side);
        Py_CLEAR(r->pieces[i].all_kings);
    }
}

/* names_in(names, out): the names of the squares `names` gives (None: their numbers; else a tuple
 * whose item k is the text of square number k, at most four printable ASCII characters, none that
 * JSON would escape: they are written as they are). */
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
        for (Py_ssize_t i = 0; i < out->len[number]; i++) {
            char ch = out->text[number][i];
            if (ch < '!' || ch == '"' || ch == '\\' || ch == 127) {     /* written in JSON and FEN as it is */
                PyErr_SetString(PyExc_ValueError, "names: a square's name holds a space, quote, backslash "
                                                  "or control character");
                return -1;
            }
        }
    }
    return 0;
}

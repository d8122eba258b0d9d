/* Position and Move objects read and made by the compiled run replay (twin:
 * pdn_tools.rules.movegen.Position, pdn_tools.rules.movegen.Move). */
#include "_replay.h"
#include <structmember.h>

/* Positions and Moves are built here as their classes would build them: both are slotted
 * classes (Position's __slots__, a slots=True frozen dataclass), so each field has a fixed
 * offset in the object, found by name in the type's member table. */
static Py_ssize_t slot_offset(PyTypeObject *type, const char *name) {
    for (PyTypeObject *t = type; t != NULL; t = t->tp_base)
        for (PyMemberDef *m = t->tp_members; m != NULL && m->name != NULL; m++)
            if (m->type == T_OBJECT_EX && strcmp(m->name, name) == 0)
                return m->offset;
    return -1;
}

/* The offsets of `names` in `type`; -1 with TypeError when one is missing. */
int layout(PyTypeObject *type, const char *const *names, int count, Py_ssize_t *offsets) {
    for (int i = 0; i < count; i++) {
        offsets[i] = slot_offset(type, names[i]);
        if (offsets[i] < 0) {
            PyErr_Format(PyExc_TypeError, "run: %s has no slot %s", type->tp_name, names[i]);
            return -1;
        }
    }
    return 0;
}

/* A new object of `type` holding `values` (new references, stolen) in the slots at `offsets`. */
PyObject *slotted(PyTypeObject *type, const Py_ssize_t *offsets, PyObject **values, int count) {
    for (int i = 0; i < count; i++)
        if (values[i] == NULL) {
            for (int j = 0; j < count; j++)
                Py_XDECREF(values[j]);
            return NULL;
        }
    PyObject *obj = type->tp_alloc(type, 0);
    if (obj == NULL) {
        for (int j = 0; j < count; j++)
            Py_DECREF(values[j]);
        return NULL;
    }
    for (int i = 0; i < count; i++)
        SLOT(obj, offsets[i]) = values[i];
    return obj;
}

int read_position(const Rules *r, const Positions *p, PyObject *position, Seen *out) {
    if (Py_TYPE(position) != p->type) {
        PyErr_SetString(PyExc_TypeError, "run_text: a position of another type");
        return -1;
    }
    for (int i = 0; i < P_FIELDS; i++)
        if (SLOT(position, p->at[i]) == NULL) {
            PyErr_SetString(PyExc_TypeError, "run_text: the position is not complete");
            return -1;
        }
    PyObject *turn = SLOT(position, p->at[P_TURN]);
    out->turn = PyUnicode_Check(turn) && PyUnicode_CompareWithASCIIString(turn, "B") == 0;
    out->count = 0;
    if (to_set(r, SLOT(position, p->at[P_WHITE]), &out->white) < 0
        || to_set(r, SLOT(position, p->at[P_BLACK]), &out->black) < 0
        || to_set(r, SLOT(position, p->at[P_KINGS]), &out->kings) < 0)
        return -1;
    return 0;
}

PyObject *make_position(const Rules *r, const Positions *p, const Seen *s) {
    PyObject *fields[P_FIELDS] = {
        Py_NewRef(p->variant), Py_NewRef(p->turns[s->turn]), Py_NewRef(p->rl),
        from_set(r, s->white), from_set(r, s->black), from_set(r, s->kings), Py_NewRef(p->ctr)};
    return slotted(p->type, p->at, fields, P_FIELDS);
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

/* Compiled move core: capture generation with every capture law, quiet moves and perft for
 * every variant, driven by the tables and rule switches tables._Rules derives from a Variant.
 *
 * One generator serves all variants: the board is a set of squares in an unsigned 128-bit
 * set, with per-square rays in the eight absolute directions of tables.  A square's index is
 * its padded bit (tables' layout) when the board fits in 128 bits, so whole sets shift one
 * step in a direction at once ("bulk" counting, as the pure engine does); on the 12x12 board
 * (168 padded bits) it is the square number - 1 and everything goes square by square.  The
 * Python side keeps its own bitboards (padded bits); this module converts at its boundary and
 * answers in that layout, in exactly the order the pure generator produces, so both engines
 * give the same records.
 *
 * This file holds the Rules type, its conversions and the module; the rest is in one file per
 * Python module mirrored: _captures.c (generation, laws), _movegen.c (quiet moves, perft),
 * _steps.c, _positions.c, _draws.c and _replay.c (run replay, see _replay.h), _search.c.
 */
#include "_replay.h"

/* ---- conversion at the Python boundary ------------------------------------------------- */

/* A Frisian counter between the padded layout (bit << 3 | n) and squares (sq << 3 | n). */
int counter_in(const Rules *r, long ctr) {
    if (ctr <= 0 || (ctr >> 3) >= MAX_BITS)
        return 0;
    int sq = r->sq_of_bit[ctr >> 3];
    return sq < 0 ? 0 : (sq << 3) | (int)(ctr & 7);
}

static PyObject *record_tuple(const Rules *r, const Record *rec) {
    PyObject *path = squares_tuple(r->bit_of, rec->path, rec->len);
    PyObject *caps = path == NULL ? NULL : squares_tuple(r->bit_of, rec->caps, rec->len);
    PyObject *capm = caps == NULL ? NULL : from_set(r, rec->capm);
    PyObject *record = capm == NULL ? NULL : Py_BuildValue("(iOOOOO)", r->bit_of[(int)rec->start], path, caps,
                                                           rec->promotes ? Py_True : Py_False,
                                                           rec->with_king ? Py_True : Py_False, capm);
    Py_XDECREF(path);
    Py_XDECREF(caps);
    Py_XDECREF(capm);
    return record;
}

static PyObject *records_list(const Rules *r, const Records *recs) {
    PyObject *list = PyList_New(recs->count);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < recs->count; i++) {
        PyObject *item = record_tuple(r, &recs->items[i]);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

int side_args(Rules *r, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, int *ci,
                     u128 *own, u128 *opp, u128 *kings) {
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "expected %zd arguments, got %zd", want, nargs);
        return -1;
    }
    long colour = PyLong_AsLong(args[0]);
    if (colour == -1 && PyErr_Occurred())
        return -1;
    if (colour != 0 && colour != 1) {
        PyErr_SetString(PyExc_ValueError, "colour index must be 0 or 1");
        return -1;
    }
    *ci = (int)colour;
    if (to_set(r, args[1], own) < 0 || to_set(r, args[2], opp) < 0 || to_set(r, args[3], kings) < 0)
        return -1;
    return 0;
}

/* ---- the Rules type (twin: pdn_tools.rules.tables._Rules) -------------------------------- */

/* Reads a sequence of at most `limit` integers in 0..bound-1 into `out`; `what` names one in errors. */
static int read_ints(PyObject *seq, long bound, int *out, Py_ssize_t *count, Py_ssize_t limit,
                     const char *what) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of integers");
    if (fast == NULL)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "too many values: a %s list holds at most %zd", what, limit);
        return -1;
    }
    /* __index__ runs Python code, which may shorten a list (PySequence_Fast's own): its length read again */
    Py_ssize_t i = 0;
    for (; i < len && i < PySequence_Fast_GET_SIZE(fast); i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v < 0 || v >= bound) {
            Py_DECREF(fast);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "a %s is out of range 0..%ld", what, bound - 1);
            return -1;
        }
        out[i] = (int)v;
    }
    *count = i;
    Py_DECREF(fast);
    return 0;
}

static int read_dirs(PyObject *seq, int *dirs, int *count, int limit) {
    Py_ssize_t n;
    if (read_ints(seq, 8, dirs, &n, limit, "direction") < 0)
        return -1;
    *count = (int)n;
    return 0;
}

static int read_squares(PyObject *seq, int n, int *out, Py_ssize_t *count, Py_ssize_t limit) {
    return read_ints(seq, n, out, count, limit, "square index");
}

/* Rules(bits, rays, promo, man_jumps, man_steps, king_steps, king_jumps, switches, makers)
 *   bits: padded bit of each square (dense index = square number - 1)
 *   rays: 8 directions x squares -> dense squares along the ray, nearest first
 *   promo: (White's crowning squares, Black's) as dense indices
 *   man_jumps, man_steps: per colour, absolute directions in the pure engine's order
 *   switches: (flying, land_behind, immediate, reverse, passing, men_take_kings, law, limit)
 *   makers: (position_like, position_pieces, Move): how positions and moves are made and read;
 *     position_like is a slot maker (_positions.c) of 7 slots, the first 3 copied from a position,
 *     Move one of 4 (start, path, captured, promotes) */
static int make_rules(Rules *self, PyObject *args, PyObject *kwds) {
    PyObject *bits, *rays, *promo, *man_jumps, *man_steps, *king_steps, *king_jumps, *makers[3];
    int sw[8];
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Rules takes no keyword arguments");
        return -1;
    }
    memset(self->named, -1, sizeof self->named);
    if (!PyArg_ParseTuple(args, "OOOOOOO(iiiiiiii)(OOO)", &bits, &rays, &promo, &man_jumps, &man_steps,
                          &king_steps, &king_jumps, &sw[0], &sw[1], &sw[2], &sw[3], &sw[4], &sw[5],
                          &sw[6], &sw[7], &makers[0], &makers[1], &makers[2]))
        return -1;
    if (!PyCallable_Check(makers[1])) {
        PyErr_SetString(PyExc_TypeError, "Rules: the makers must be callable");
        return -1;
    }
    if (slot_maker_in(makers[0], 7) < 0 || slot_maker_in(makers[2], 4) < 0)
        return -1;
    Py_XSETREF(self->position_like, Py_NewRef(makers[0]));
    Py_XSETREF(self->position_pieces, Py_NewRef(makers[1]));
    Py_XSETREF(self->move_type, Py_NewRef(makers[2]));
    Py_ssize_t n = PySequence_Size(bits);
    if (n < 1 || n > MAX_SQ) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a board has 1 to 72 squares");
        return -1;
    }
    self->n = (int)n;
    int tmp[MAX_SQ], dense_bit[MAX_SQ], idx[MAX_SQ];
    Py_ssize_t count;
    if (read_squares(bits, MAX_BITS, dense_bit, &count, MAX_SQ) < 0)
        return -1;
    if (count < n) {                    /* a list shortened as it was read, or a length not its own */
        PyErr_SetString(PyExc_ValueError, "bits: a padded bit for each square");
        return -1;
    }
    int top = 0;
    for (int sq = 0; sq < self->n; sq++)
        if (dense_bit[sq] > top)
            top = dense_bit[sq];
    self->bulk = top < MAX_IDX;
    memset(self->sq_of_bit, -1, sizeof self->sq_of_bit);
    self->valid = 0;
    for (int sq = 0; sq < self->n; sq++) {
        idx[sq] = self->bulk ? dense_bit[sq] : sq;
        self->bit_of[idx[sq]] = dense_bit[sq];
        self->number[idx[sq]] = sq + 1;
        self->index_of[sq + 1] = idx[sq];
        self->sq_of_bit[dense_bit[sq]] = (int8_t)idx[sq];
        self->valid |= BIT(idx[sq]);
    }
    self->nbytes = top / 8 + 1;
    int k = 0;
    for (int bit = 0; bit <= top; bit++)
        if (self->sq_of_bit[bit] >= 0)
            self->order[k++] = self->sq_of_bit[bit];
    for (int i = 1; i < k; i++)
        if (self->order[i] < self->order[i - 1]) {    /* indices are bits, or squares by bit */
            PyErr_SetString(PyExc_ValueError, "a board of more than 128 bits gives its squares by bit");
            return -1;
        }
    if (PySequence_Size(rays) != 8) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "rays must have 8 directions");
        return -1;
    }
    for (int d = 0; d < 8; d++) {
        PyObject *per_square = PySequence_GetItem(rays, d);
        if (per_square == NULL)
            return -1;
        if (PySequence_Size(per_square) != n) {
            Py_DECREF(per_square);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a ray table must cover every square");
            return -1;
        }
        self->shift[d] = 0;
        for (int sq = 0; sq < self->n; sq++) {
            PyObject *ray = PySequence_GetItem(per_square, sq);
            int failed = ray == NULL || read_squares(ray, self->n, tmp, &count, MAX_RAY) < 0;
            Py_XDECREF(ray);
            if (failed) {
                Py_DECREF(per_square);
                return -1;
            }
            self->raylen[d][idx[sq]] = (uint8_t)count;
            for (Py_ssize_t i = 0; i < count; i++)
                self->ray[d][idx[sq]][i] = (int8_t)idx[tmp[i]];
            if (count)
                self->shift[d] = idx[tmp[0]] - idx[sq];
        }
        Py_DECREF(per_square);
    }
    for (int ci = 0; ci < 2; ci++) {
        PyObject *squares = PySequence_GetItem(promo, ci);
        int failed = squares == NULL || read_squares(squares, self->n, tmp, &count, MAX_SQ) < 0;
        Py_XDECREF(squares);
        if (failed)
            return -1;
        self->promo[ci] = 0;
        for (Py_ssize_t i = 0; i < count; i++)
            self->promo[ci] |= BIT(idx[tmp[i]]);
        PyObject *jumps = PySequence_GetItem(man_jumps, ci);
        failed = jumps == NULL || read_dirs(jumps, self->man_jump[ci], &self->n_man_jump[ci], 8) < 0;
        Py_XDECREF(jumps);
        if (failed)
            return -1;
        PyObject *steps = PySequence_GetItem(man_steps, ci);
        failed = steps == NULL || read_dirs(steps, self->man_step[ci], &self->n_man_step[ci], 8) < 0;
        Py_XDECREF(steps);
        if (failed)
            return -1;
    }
    for (int ci = 0; ci < 2; ci++)
        for (int i = 0; i < self->n; i++) {
            int sq = self->order[i];
            self->jump_over[ci][sq] = 0;
            for (int i = 0; i < self->n_man_jump[ci]; i++) {
                int d = self->man_jump[ci][i];
                if (self->raylen[d][sq] >= 2)
                    self->jump_over[ci][sq] |= BIT(self->ray[d][sq][0]);
            }
        }
    if (read_dirs(king_steps, self->king_step, &self->n_king_step, 8) < 0
        || read_dirs(king_jumps, self->king_jump, &self->n_king_jump, 8) < 0)
        return -1;
    self->flying = sw[0];
    self->land_behind = sw[1];
    self->immediate = sw[2];
    self->reverse = sw[3];
    self->passing = sw[4];
    self->men_take_kings = sw[5];
    self->law = sw[6];
    self->limit = sw[7];
    if (self->law < LAW_FREE || self->law > LAW_KING) {
        PyErr_SetString(PyExc_ValueError, "unknown capture law");
        return -1;
    }
    return 0;
}

/* A Rules is made whole here, or not at all, and never changes after: perft and search read its tables
 * with the GIL let go, and every method runs Python code (makers, __index__, signal handlers) that could
 * otherwise make it again under them.  Unseen by the garbage collector (gc.get_objects) while the tables
 * are read, which runs Python code. */
static PyObject *Rules_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    Rules *self = (Rules *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    PyObject_GC_UnTrack(self);
    if (make_rules(self, args, kwds) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    PyObject_GC_Track(self);
    return (PyObject *)self;
}

/* Rules(...) calls __init__ once after Rules_new: it passes; any later call is refused. */
static int Rules_init(Rules *self, PyObject *args, PyObject *kwds) {
    (void)args, (void)kwds;
    if (self->initialised) {
        PyErr_SetString(PyExc_TypeError, "a Rules cannot be made again: its tables are set once, by Rules(...) "
                                         "(make a new Rules)");
        return -1;
    }
    self->initialised = 1;
    return 0;
}

static PyObject *Rules_has_capture(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci;
    u128 own, opp, kings;
    if (side_args(self, args, nargs, 4, &ci, &own, &opp, &kings) < 0)
        return NULL;
    return PyBool_FromLong(has_capture(self, ci, own, opp, kings));
}

/* The arguments (ci, own, opp, kings, counter) of a side and its king-move counter, the counter
 * in squares (counter_in). */
int side_counter_args(Rules *r, PyObject *const *args, Py_ssize_t nargs, int *ci, u128 *own,
                             u128 *opp, u128 *kings, int *ctr) {
    if (side_args(r, args, nargs, 5, ci, own, opp, kings) < 0)
        return -1;
    long value = PyLong_AsLong(args[4]);
    if (value == -1 && PyErr_Occurred())
        return -1;
    *ctr = counter_in(r, value);
    return 0;
}

/* has_move(ci, own, opp, kings, counter) -> whether the side has a capture or a quiet move */
static PyObject *Rules_has_move(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci, ctr;
    u128 own, opp, kings;
    if (side_counter_args(self, args, nargs, &ci, &own, &opp, &kings, &ctr) < 0)
        return NULL;
    return PyBool_FromLong(has_capture(self, ci, own, opp, kings)
                           || quiet_moves_fast(self, ci, own, opp, kings, ctr, NULL, 0, 1) > 0);
}

/* capture_records(ci, own, opp, kings, starts, law) -> records in the pure engine's form */
static PyObject *Rules_capture_records(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci;
    u128 own, opp, kings, starts = ~(u128)0;
    if (side_args(self, args, nargs, 6, &ci, &own, &opp, &kings) < 0)
        return NULL;
    if (args[4] != Py_None && to_set(self, args[4], &starts) < 0)
        return NULL;
    int law = PyObject_IsTrue(args[5]);
    if (law < 0)
        return NULL;
    Records recs = {NULL, 0, 0, 0};
    capture_records(self, ci, own, opp, kings, starts, &recs);
    if (law && !recs.failed)
        apply_law(self, &recs, kings);
    PyObject *result = recs.failed ? PyErr_NoMemory() : records_list(self, &recs);
    records_free(&recs);
    return result;
}

/* legal_records(ci, own, opp, kings) -> lawful captures, [] when none */
static PyObject *Rules_legal_records(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    int ci;
    u128 own, opp, kings;
    if (side_args(self, args, nargs, 4, &ci, &own, &opp, &kings) < 0)
        return NULL;
    Records recs = {NULL, 0, 0, 0};
    legal_records(self, ci, own, opp, kings, &recs);
    PyObject *result = recs.failed ? PyErr_NoMemory() : records_list(self, &recs);
    records_free(&recs);
    return result;
}

static PyMethodDef Rules_methods[] = {
    {"run_text", (PyCFunction)(void (*)(void))Rules_run_text, METH_FASTCALL,
     "run_text(text, offset, position, seen, since, quiet, limits[, record, quiet_move_of, ply_maker, run, "
     "number]): a MoveRun's moves (and each ply played, in `record`)"},
    {"write_run", (PyCFunction)(void (*)(void))Rules_write_run, METH_FASTCALL,
     "write_run(text, offset, position, number, last, names, form, extra): a MoveRun's plies written as "
     "convert writes them (json, fen, short or full)"},
    {"annotate_line", (PyCFunction)(void (*)(void))Rules_annotate_line, METH_FASTCALL, "annotate's main line"},
    {"find_run", (PyCFunction)(void (*)(void))Rules_find_run, METH_FASTCALL,
     "find_run(text, offset, position, number, last, wanted): a MoveRun played until a position"},
    {"name_squares", (PyCFunction)Rules_name_squares, METH_O,
     "name_squares(numbers): the square each written number 0..99 names, or None"},
    {"run", (PyCFunction)(void (*)(void))Rules_run, METH_FASTCALL,
     "run(elements, index, position, known, kinds, quiet_move_of): a main-line run"},
    {"has_capture", (PyCFunction)(void (*)(void))Rules_has_capture, METH_FASTCALL,
     "has_capture(ci, own, opp, kings): whether the side owning `own` must capture"},
    {"has_move", (PyCFunction)(void (*)(void))Rules_has_move, METH_FASTCALL,
     "has_move(ci, own, opp, kings, counter) -> whether the side has a legal move"},
    {"capture_records", (PyCFunction)(void (*)(void))Rules_capture_records, METH_FASTCALL,
     "capture_records(ci, own, opp, kings, starts, law): complete captures as records"},
    {"legal_records", (PyCFunction)(void (*)(void))Rules_legal_records, METH_FASTCALL,
     "legal_records(ci, own, opp, kings): the captures the law allows, [] when none"},
    {"quiet_moves", (PyCFunction)(void (*)(void))Rules_quiet_moves, METH_FASTCALL,
     "quiet_moves(ci, own, opp, kings, counter): (from bit, to bit) of each quiet move"},
    {"perft", (PyCFunction)(void (*)(void))Rules_perft, METH_FASTCALL,
     "perft(ci, own, opp, kings, counter, opponent counter, depth, keep): leaf nodes"},
    {"choices", (PyCFunction)(void (*)(void))Rules_choices, METH_FASTCALL,
     "choices(ci, own, opp, kings, counter): legal moves, captures differing only in order counted once"},
    {"pieces", (PyCFunction)(void (*)(void))Rules_pieces, METH_FASTCALL,
     "pieces(side, kings): (men, kings) of a side as frozensets of square numbers"},
    {"fen", (PyCFunction)(void (*)(void))Rules_fen, METH_FASTCALL,
     "fen(white, black, kings, black_to_move): the position's canonical FEN in square numbers"},
    {"zobrist", (PyCFunction)(void (*)(void))Rules_zobrist, METH_FASTCALL,
     "zobrist(white, black, kings, black_to_move): the position's Zobrist hash"},
    {"search", (PyCFunction)(void (*)(void))Rules_search, METH_FASTCALL,
     "search(ci, own, opp, kings, counter, opponent counter, first depth, depth, nodes, king value, extensions, "
     "stop): (score, line, nodes, depth done or -1)"},
    {NULL, NULL, 0, NULL},
};

static int Rules_traverse(Rules *self, visitproc visit, void *arg) {
    Py_VISIT(self->position_like);
    Py_VISIT(self->position_pieces);
    Py_VISIT(self->move_type);
    return 0;
}

static int Rules_clear(Rules *self) {
    Py_CLEAR(self->position_like);
    Py_CLEAR(self->position_pieces);
    Py_CLEAR(self->move_type);
    forget_pieces(self);
    return 0;
}

static void Rules_dealloc(Rules *self) {
    PyObject_GC_UnTrack(self);
    Rules_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pdn_tools.rules._core.Rules",
    .tp_doc = "A variant's tables and rule switches for the compiled move core.",
    .tp_basicsize = sizeof(Rules),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Rules_new,
    .tp_traverse = (traverseproc)Rules_traverse,
    .tp_clear = (inquiry)Rules_clear,
    .tp_dealloc = (destructor)Rules_dealloc,
    .tp_init = (initproc)Rules_init,
    .tp_methods = Rules_methods,
};

static PyMethodDef core_functions[] = {
    {"moves_hint", (PyCFunction)(void (*)(void))moves_hint, METH_FASTCALL,
     "moves_hint(text, wanted): (moves, highest square number or -1) of a run's first moves"},
    {"pieces_method", (PyCFunction)(void (*)(void))pieces_method, METH_FASTCALL,
     "pieces_method(class, slots, core, method): Position.pieces answered by the core"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "Compiled move core of pdn_tools.rules.movegen.", -1, core_functions,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&RulesType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL)
        return NULL;
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(module, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType);
        Py_DECREF(module);
        return NULL;
    }
    if (PyModule_AddIntConstant(module, "LAW_FREE", LAW_FREE) < 0
        || PyModule_AddIntConstant(module, "LAW_COUNT", LAW_COUNT) < 0
        || PyModule_AddIntConstant(module, "LAW_COUNT_KINGS", LAW_COUNT_KINGS) < 0
        || PyModule_AddIntConstant(module, "LAW_ITALIAN", LAW_ITALIAN) < 0
        || PyModule_AddIntConstant(module, "LAW_FRISIAN", LAW_FRISIAN) < 0
        || PyModule_AddIntConstant(module, "LAW_KING", LAW_KING) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

/* The compiled core's replay of single notated moves and of a main-line run of Python elements. */
#include "_replay.h"

/* ---- one notated move -------------------------------------------------------------------- */
/* twin: pdn_tools.rules.steps.quiet_step, pdn_tools.rules.steps.capture_step */

/* The quiet step from `sb` to `eb` if the piece there may make it (no Frisian limit). */
int quiet_step(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int sb, int eb,
                      int *promotes) {
    u128 empty = empty_squares(r, own, opp);
    if (!HAS(own, sb) || !HAS(empty, eb))
        return 0;
    int found = 0;
    if (HAS(kings, sb)) {
        for (int j = 0; j < r->n_king_step && !found; j++) {
            int d = r->king_step[j];
            int len = r->flying ? r->raylen[d][sb] : (r->raylen[d][sb] > 0);
            for (int t = 0; t < len && HAS(empty, r->ray[d][sb][t]); t++)
                if (r->ray[d][sb][t] == eb) {
                    found = 1;
                    break;
                }
        }
        *promotes = 0;
    } else {
        for (int j = 0; j < r->n_man_step[ci] && !found; j++) {
            int d = r->man_step[ci][j];
            found = r->raylen[d][sb] && r->ray[d][sb][0] == eb;
        }
        *promotes = HAS(r->promo[ci], eb);
    }
    return found && !has_capture(r, ci, own, opp, kings);
}

/* A man's single jump from `sb` to `eb` with no jump to follow and no other jump from `sb`
 * (which could come back to `eb` over other pieces), as steps._single_jump decides it (1, with the jumped square in *mid), else 0: the generator decides. */
static int single_jump(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int sb, int eb,
                       int *mid) {
    int d = -1;
    for (int j = 0; j < r->n_man_jump[ci] && d < 0; j++) {
        int dj = r->man_jump[ci][j];
        if (r->raylen[dj][sb] >= 2 && r->ray[dj][sb][1] == eb)
            d = dj;
    }
    if (d < 0)
        return 0;
    int m = r->ray[d][sb][0];
    u128 prey = r->men_take_kings ? opp : opp & ~kings;
    u128 free = empty_squares(r, own, opp) | BIT(sb) | (r->immediate ? BIT(m) : 0);
    if (!HAS(prey, m) || !HAS(free, eb))
        return 0;
    for (int j = 0; j < r->n_man_jump[ci]; j++) {
        int dj = r->man_jump[ci][j];
        if (r->raylen[dj][eb] < 2)
            continue;
        int over = r->ray[dj][eb][0], land = r->ray[dj][eb][1];
        if (HAS(prey, over) && over != m && HAS(free, land))
            return 0;
    }
    for (int j = 0; j < r->n_man_jump[ci]; j++) {     /* another first jump may come back to eb */
        int dj = r->man_jump[ci][j];
        if (dj == d || r->raylen[dj][sb] < 2)
            continue;
        int over = r->ray[dj][sb][0], land = r->ray[dj][sb][1];
        if (HAS(prey, over) && HAS(free, land))
            return 0;
    }
    *mid = m;
    return 1;
}

/* The one lawful capture from `sb` to `eb` into *out (1), else 0: none, or several taking
 * different pieces. */
static int capture_step(const Rules *r, int ci, u128 own, u128 opp, u128 kings, int sb, int eb,
                        Records *recs, Record *out) {
    if (!HAS(own, sb))
        return 0;
    recs->count = 0;
    if (r->law == LAW_FREE) {
        int mid;
        if (!HAS(kings, sb) && !(r->passing && HAS(r->promo[ci], eb))
            && single_jump(r, ci, own, opp, kings, sb, eb, &mid)) {
            out->start = (int8_t)sb;
            out->len = 1;
            out->path[0] = (int8_t)eb;
            out->caps[0] = (int8_t)mid;
            out->promotes = (int8_t)HAS(r->promo[ci], eb);
            out->with_king = 0;
            out->capm = BIT(mid);
            return 1;
        }
        capture_records(r, ci, own, opp, kings, BIT(sb), recs);
    } else {
        legal_records(r, ci, own, opp, kings, recs);
    }
    const Record *first = NULL;
    for (Py_ssize_t i = 0; i < recs->count; i++) {
        const Record *rec = &recs->items[i];
        if (rec->start != sb || rec->path[rec->len - 1] != eb)
            continue;
        if (first == NULL)
            first = rec;
        else if (rec->capm != first->capm)
            return 0;
    }
    if (first == NULL)
        return 0;
    *out = *first;
    return 1;
}

/* capture_step, then its effect on the pieces (own, opp, kings updated): 1 when played (*out
 * holds the capture), 0 when it leaves the move to the caller, -1 out of memory (error set). */
int play_capture_step(const Rules *r, int ci, u128 *own, u128 *opp, u128 *kings, int sb, int eb,
                             Records *recs, Record *out) {
    int found = capture_step(r, ci, *own, *opp, *kings, sb, eb, recs, out);
    if (recs->failed) {
        PyErr_NoMemory();
        return -1;
    }
    if (found)
        after_capture(out, own, opp, kings);
    return found;
}

/* ---- a run of the main line -------------------------------------------------------------- */
/* twin: pdn_tools.rules.steps.run, pdn_tools.play.main_line._Line.follow */

/* The square number of a square text from the replayer's cache, else 0 (not cached yet, or
 * not a square): the caller then resolves the move itself. */
static int known_square(PyObject *known, PyObject *text) {
    PyObject *number = PyDict_GetItemWithError(known, text);
    if (number == NULL || !PyLong_Check(number))
        return 0;
    long n = PyLong_AsLong(number);
    return n > 0 && n < 1000 ? (int)n : 0;
}

/* run(elements, index, position, known, kinds, quiet_move_of)
 *   -> (index of the first element left to the caller, [(element, move, after, king moved)])
 * Plays the main line from elements[index] while each element is a move number, comment or NAG
 * (skipped) or a notated move of two cached squares that steps.quiet_step / capture_step
 * would play, with the same answers.  kinds = (notated move type, skipped types...);
 * known maps square texts to numbers (the replayer's cache); quiet_move_of maps
 * from bit << 9 | to bit << 1 | promotes to the precomputed quiet Move.  Captures' Moves and
 * the positions after are made by the Rules' makers (_positions.c), like `position`. */
PyObject *Rules_run(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    static PyObject *squares_name = NULL, *capture_name = NULL;
    if (squares_name == NULL) {
        squares_name = PyUnicode_InternFromString("squares");
        capture_name = PyUnicode_InternFromString("capture");
        if (squares_name == NULL || capture_name == NULL)
            return NULL;
    }
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "run takes 6 arguments");
        return NULL;
    }
    PyObject *elements = args[0], *position = args[2], *known = args[3], *kinds = args[4];
    PyObject *quiet = args[5];
    if (!PyList_Check(elements) || !PyDict_Check(known) || !PyTuple_Check(kinds)
        || PyTuple_GET_SIZE(kinds) < 1 || !PyDict_Check(quiet)) {
        PyErr_SetString(PyExc_TypeError, "run: bad argument types");
        return NULL;
    }
    Py_ssize_t index = PyLong_AsSsize_t(args[1]);
    if (index == -1 && PyErr_Occurred())
        return NULL;
    if (index < 0) {
        PyErr_SetString(PyExc_ValueError, "run: a negative index");
        return NULL;
    }
    Seen now;
    if (read_position(self, position, &now) < 0)
        return NULL;
    int ci = now.turn;
    u128 own = ci ? now.black : now.white, opp = ci ? now.white : now.black, kings = now.kings;
    PyTypeObject *notated = (PyTypeObject *)PyTuple_GET_ITEM(kinds, 0);
    PyObject *plies = PyList_New(0);
    if (plies == NULL)
        return NULL;
    Records recs = {NULL, 0, 0, 0};
    PyObject *element = NULL;           /* held: reading its squares runs Python code, which may change the list */
    for (; index < PyList_GET_SIZE(elements); index++) {
        Py_XSETREF(element, Py_NewRef(PyList_GET_ITEM(elements, index)));
        PyTypeObject *kind = Py_TYPE(element);
        if (kind != notated) {
            int skipped = 0;
            for (Py_ssize_t k = 1; k < PyTuple_GET_SIZE(kinds) && !skipped; k++)
                skipped = (PyObject *)kind == PyTuple_GET_ITEM(kinds, k);
            if (skipped)
                continue;
            break;
        }
        PyObject *squares = PyObject_GetAttr(element, squares_name);
        if (squares == NULL)
            goto error;
        int start = 0, end = 0;
        if (PyTuple_Check(squares) && PyTuple_GET_SIZE(squares) == 2) {
            start = known_square(known, PyTuple_GET_ITEM(squares, 0));
            end = known_square(known, PyTuple_GET_ITEM(squares, 1));
        }
        Py_DECREF(squares);
        if (PyErr_Occurred())
            goto error;
        if (start <= 0 || end <= 0 || start > self->n || end > self->n)
            break;
        PyObject *flag = PyObject_GetAttr(element, capture_name);
        if (flag == NULL)
            goto error;
        int capture = PyObject_IsTrue(flag);
        Py_DECREF(flag);
        if (capture < 0)
            goto error;
        int sb = self->index_of[start], eb = self->index_of[end];
        int king = HAS(kings, sb);
        PyObject *move;
        if (!capture) {
            int promotes;
            if (!quiet_step(self, ci, own, opp, kings, sb, eb, &promotes))
                break;
            PyObject *key = PyLong_FromLong(self->bit_of[sb] << 9 | self->bit_of[eb] << 1 | promotes);
            if (key == NULL)
                goto error;
            move = PyDict_GetItemWithError(quiet, key);
            Py_DECREF(key);
            if (move == NULL) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_KeyError, "run: no precomputed quiet move");
                goto error;
            }
            Py_INCREF(move);
            after_quiet(sb, eb, king, promotes, &own, &kings);
        } else {
            Record rec;
            int played = play_capture_step(self, ci, &own, &opp, &kings, sb, eb, &recs, &rec);
            if (played < 0)
                goto error;
            if (!played)
                break;
            move = make_move(self, &rec);
            if (move == NULL)
                goto error;
        }
        Seen next = {ci ? opp : own, ci ? own : opp, kings, ci ^ 1, 0};
        PyObject *after = make_position(self, position, &next);
        PyObject *answer = after == NULL ? NULL : PyTuple_Pack(4, element, move, after, king ? Py_True : Py_False);
        Py_DECREF(move);
        Py_XDECREF(after);
        if (answer == NULL || PyList_Append(plies, answer) < 0) {
            Py_XDECREF(answer);
            goto error;
        }
        Py_DECREF(answer);
        u128 swap = own;
        own = opp;
        opp = swap;
        ci ^= 1;
    }
    Py_XDECREF(element);
    records_free(&recs);
    return Py_BuildValue("(nN)", index, plies);
error:
    Py_XDECREF(element);
    records_free(&recs);
    Py_DECREF(plies);
    return NULL;
}

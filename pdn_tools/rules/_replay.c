/* The compiled core's replay of a run of moves kept as text (a MoveRun), and its hint. */
#include "_replay.h"
#include "../text/_scan.h"

/* ---- a run of the main line as text ------------------------------------------------------ */
/* twin: pdn_tools.rules.steps.run_text, pdn_tools.play.main_line._Line._text */

/* name_squares(numbers): numbers[k] is the square number the text of k names in this variant
 * (variant.parse_square(str(k))), or None; at most MAX_NAMED entries. */
PyObject *Rules_name_squares(Rules *self, PyObject *numbers) {
    PyObject *fast = PySequence_Fast(numbers, "name_squares: expected a sequence");
    if (fast == NULL)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (count > MAX_NAMED) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "name_squares: at most 100 numbers");
        return NULL;
    }
    memset(self->named, -1, sizeof self->named);
    /* __index__ runs Python code, which may shorten a list (PySequence_Fast's own): its length read again */
    for (Py_ssize_t k = 0; k < count && k < PySequence_Fast_GET_SIZE(fast); k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, k);
        if (item == Py_None)
            continue;
        long number = PyLong_AsLong(item);
        if (number == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        if (number >= 1 && number <= self->n)
            self->named[k] = (int8_t)self->index_of[number];
    }
    Py_DECREF(fast);
    Py_RETURN_NONE;
}

/* Whether the space at text[j] is the one a separator may have after it (`1- 7`): a move goes on. */
static int separator_space(const char *text, Py_ssize_t len, Py_ssize_t j) {
    return text[j] == ' ' && j > 0 && (text[j - 1] == '-' || text[j - 1] == 'x') && j + 1 < len &&
           text[j + 1] >= '0' && text[j + 1] <= '9';
}

/* The next item of a run at `*pos` (white space skipped): 0 at the end, 1 a move number
 * (digits then dots; a move may follow at once, `1.33-29`), 2 a move with its squares in
 * squares[] (*count of them, at least two) and *capture, 3 what is not a run's move;
 * *pos is left at the item's start, *end after it (as model.MoveRun.item_at). */
int next_item(const char *text, Py_ssize_t len, Py_ssize_t *pos, Py_ssize_t *end,
              int *squares, int *count, int *capture) {
    Py_ssize_t i = *pos;
    while (i < len && run_space(text[i]))
        i++;
    *pos = i;
    if (i == len)
        return 0;
    Py_ssize_t j = i;
    while (j < len && text[j] >= '0' && text[j] <= '9')
        j++;
    if (j < len && text[j] == '.') {
        while (j < len && text[j] == '.')
            j++;
        *end = j;
        return 1;
    }
    /* One pass: the item's end found (a separator's space, `1- 7`, is in it) as its squares are read. */
    int n = 0, taken = 0, bad = 0, value = 0, digits = 0;
    for (j = i; j < len; j++) {
        char ch = text[j];
        if (ch >= '0' && ch <= '9') {
            if (digits < 3)
                value = value * 10 + (ch - '0');
            digits++;
        } else if (ch == '-' || ch == 'x') {
            if (digits == 0 || digits > 2 || n >= MAX_PATH)
                bad = 1;
            else
                squares[n++] = value;
            taken |= ch == 'x';
            value = digits = 0;
            if (j + 1 < len && separator_space(text, len, j + 1))
                j++;
        } else if (run_space(ch)) {
            break;
        } else {
            bad = 1;                     /* not a run's move: left to the caller */
        }
    }
    *end = j;
    if (bad || digits == 0 || digits > 2 || n >= MAX_PATH)
        return 3;
    squares[n++] = value;
    *count = n;
    *capture = taken;
    return n >= 2 ? 2 : 3;
}

/* The squares written (numbers) as squares of this board, in place; 0 when one is none. */
int named_squares(const Rules *r, int *squares, int count) {
    for (int i = 0; i < count; i++) {
        if (squares[i] >= MAX_NAMED || r->named[squares[i]] < 0)
            return 0;
        squares[i] = r->named[squares[i]];
    }
    return 1;
}

/* The next move of a run that the core plays, from `*pos` (move numbers skipped): 1 with its
 * squares as squares of this board in squares[] (*count, *capture), *pos at its start and *end
 * after it; 0 when the run ends or its next item is left to the caller (*pos at that item). */
int next_move(const Rules *r, const char *text, Py_ssize_t len, Py_ssize_t *pos, Py_ssize_t *end,
              int *squares, int *count, int *capture) {
    for (;;) {
        *end = *pos;
        *count = *capture = 0;
        int kind = next_item(text, len, pos, end, squares, count, capture);
        if (kind != 1)
            return kind == 2 && named_squares(r, squares, *count) && (*count <= 2 || *capture);
        *pos = *end;
    }
}

/* The capture `squares` (start, landing squares in between, end; at least three) stands for,
 * as replay.resolve finds it: a lawful capture from the start to the end on whose landing
 * squares the squares in between lie, in order; NULL when none does or several taking
 * different pieces do (resolve then decides, and explains). */
static const Record *landing_capture(const Rules *r, int ci, u128 own, u128 opp, u128 kings,
                                     const int *squares, int count, Records *recs) {
    recs->count = 0;
    legal_records(r, ci, own, opp, kings, recs);
    const Record *first = NULL;
    for (Py_ssize_t i = 0; i < recs->count; i++) {
        const Record *rec = &recs->items[i];
        if (rec->start != squares[0] || rec->path[rec->len - 1] != squares[count - 1])
            continue;
        int at = 0, wanted = 1;
        for (; wanted < count - 1; wanted++) {           /* each in order on path[:-1] */
            while (at < rec->len - 1 && rec->path[at] != squares[wanted])
                at++;
            if (at == rec->len - 1)
                break;
            at++;
        }
        if (wanted < count - 1)
            continue;
        if (first == NULL)
            first = rec;
        else if (rec->capm != first->capm)
            return NULL;
    }
    return first;
}

/* Plays the move `squares` (count of them; `capture` when written with a capture separator) on
 * own/opp/kings as run_text and write_run both do: a capture through given landing squares that
 * landing_capture finds alone, a quiet step, or a capture step (its record in `rec`, a quiet
 * step's promotion in `promotes`).  1 when played, 0 when the move is left to the caller, -1 on
 * an error (set). */
int play_item(const Rules *r, int ci, u128 *own, u128 *opp, u128 *kings, const int *squares, int count,
             int capture, Records *recs, Record *rec, int *promotes) {
    int sb = squares[0], eb = squares[count - 1];
    if (count > 2) {
        const Record *found = landing_capture(r, ci, *own, *opp, *kings, squares, count, recs);
        if (recs->failed) {
            PyErr_NoMemory();
            return -1;
        }
        if (found == NULL)
            return 0;
        *rec = *found;
        after_capture(rec, own, opp, kings);
        return 1;
    }
    if (!capture) {
        int king = HAS(*kings, sb);
        if (!quiet_step(r, ci, *own, *opp, *kings, sb, eb, promotes))
            return 0;
        after_quiet(sb, eb, king, *promotes, own, kings);
        return 1;
    }
    return play_capture_step(r, ci, own, opp, kings, sb, eb, recs, rec);
}

/* The plies run_text records when asked (its last five arguments): each made by the ply slot
 * maker it is given (main_line._PLY_MAKER; twin: pdn_tools.play.main_line.Ply) and appended to
 * `list`. */
typedef struct {
    PyObject *list, *quiet, *maker, *run; /* borrowed: the record, quiet_move_of, the maker, the MoveRun */
    PyObject *last;                      /* the position before the next ply (a new reference) */
    long number;                         /* of the last ply recorded */
} Plies;

static int plies_in(Plies *out, PyObject *const *args, PyObject *position) {
    if (args[0] == Py_None)
        return 0;
    if (!PyList_Check(args[0]) || !PyDict_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "run_text: bad record arguments");
        return -1;
    }
    if (args[2] != Py_None && slot_maker_in(args[2], 8) < 0)
        return -1;
    out->number = PyLong_AsLong(args[4]);
    if (out->number == -1 && PyErr_Occurred())
        return -1;
    out->list = args[0];
    out->quiet = args[1];
    out->maker = args[2];
    out->run = args[3];
    out->last = Py_NewRef(position);
    return 0;
}

/* The Move of a ply: a capture's `rec`, else the quiet move from square sb to eb. */
static PyObject *ply_move(const Rules *r, const Plies *plies, const Record *rec, int sb, int eb, int promotes) {
    if (rec == NULL) {
        PyObject *key = PyLong_FromLong(r->bit_of[sb] << 9 | r->bit_of[eb] << 1 | promotes);
        if (key == NULL)
            return NULL;
        PyObject *move = PyDict_GetItemWithError(plies->quiet, key);
        Py_DECREF(key);
        if (move == NULL && !PyErr_Occurred())
            PyErr_SetString(PyExc_KeyError, "run_text: no precomputed quiet move");
        return Py_XNewRef(move);
    }
    return make_move(r, rec);
}

/* Appends the Ply of one ply played (its move at text[start:end]) to the record. */
static int record_ply(const Rules *r, Plies *plies, Py_ssize_t start, Py_ssize_t end,
                      const Record *rec, int sb, int eb, int promotes, const Seen *before, const Seen *after) {
    PyObject *move = ply_move(r, plies, rec, sb, eb, promotes);
    if (move != NULL && plies->maker == Py_None) {      /* the moves alone */
        int failed = PyList_Append(plies->list, move) < 0;
        Py_DECREF(move);
        return failed ? -1 : 0;
    }
    PyObject *position = move == NULL ? NULL : make_position_after(r, plies->last, before, after);
    PyObject *number = position == NULL ? NULL : PyLong_FromLong(plies->number + 1);
    PyObject *from = number == NULL ? NULL : PyLong_FromSsize_t(start);
    PyObject *to = from == NULL ? NULL : PyLong_FromSsize_t(end);
    PyObject *ply = NULL;
    if (to != NULL) {
        PyObject *values[8] = {number, move, plies->last, position, plies->run, from, to, Py_None};
        ply = make_slotted(plies->maker, values);
    }
    Py_XDECREF(move);
    Py_XDECREF(number);
    Py_XDECREF(from);
    Py_XDECREF(to);
    if (ply == NULL) {
        Py_XDECREF(position);
        return -1;
    }
    plies->number++;
    Py_SETREF(plies->last, position);
    int failed = PyList_Append(plies->list, ply) < 0;
    Py_DECREF(ply);
    return failed ? -1 : 0;
}

/* run_text(text, offset, position, seen, since, quiet, limits)
 *   -> (offset, plies, position before the last ply, position after it, since, quiet)
 * Plays the moves of a MoveRun's text from `offset` while each is a two-square move that
 * steps.quiet_step / capture_step would play or a capture through given squares that
 * replay.resolve finds alone (landing_capture), skipping move numbers, and counts them as
 * DrawTracker.update would (seen, since, quiet: its fields, seen updated in place; seen None
 * when it counts no more; limits = (repetitions, repetition stops, quiet limit or 0, quiet
 * stops, men go back, the materials of the endings or None: draws.ending_materials)).
 * Stops at the first move it leaves to the caller (offset = where that move starts;
 * len(text) when the run is played).  Positions are made like `position` by the Rules'
 * makers (_positions.c): only the last two, and the tracker's when they changed.
 *
 * run_text(..., limits, record, quiet_move_of, ply_maker, run, number): the same, and each
 * ply played is appended to the list `record` as the slot maker ply_maker makes it from
 * (number, move, before, after, run, start, end, None), numbered on from `number`, its move at
 * text[start:end] of `run`; quiet moves are those of quiet_move_of (see Rules_run).  With
 * ply_maker None each ply's Move alone is appended (no position made). */
PyObject *Rules_run_text(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7 && nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "run_text takes 7 or 12 arguments");
        return NULL;
    }
    Plies record;
    memset(&record, 0, sizeof record);
    PyObject *text_obj = args[0], *position = args[2], *seen = args[3], *since = args[4];
    if (!PyUnicode_Check(text_obj) || !PyUnicode_IS_ASCII(text_obj)) {
        PyErr_SetString(PyExc_TypeError, "run_text: the text must be an ASCII str");
        return NULL;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(text_obj);
    const char *text = (const char *)PyUnicode_DATA(text_obj);
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred())
        return NULL;
    if (pos < 0 || pos > len) {
        PyErr_SetString(PyExc_ValueError, "run_text: offset out of the text");
        return NULL;
    }
    Seen now, before;
    if (read_position(self, position, &now) < 0)
        return NULL;
    Counters c;
    memset(&c, 0, sizeof c);
    Records recs = {NULL, 0, 0, 0};
    PyObject *result = NULL, *new_since = NULL, *after_obj = NULL, *before_obj = NULL;
    if ((nargs == 12 && plies_in(&record, args + 7, position) < 0)
        || counters_in(self, &c, seen, since, args[5], args[6]) < 0)
        goto done;
    before = now;
    long plies = 0;
    for (;;) {
        Py_ssize_t end;
        int squares[MAX_PATH], count, capture;
        if (self->limit || !next_move(self, text, len, &pos, &end, squares, &count, &capture))
            break;                                      /* a king-move limit: Python counts */
        int sb = squares[0], eb = squares[count - 1];
        int ci = now.turn;
        u128 own = ci ? now.black : now.white, opp = ci ? now.white : now.black, kings = now.kings;
        int king = HAS(kings, sb);
        Record rec;                      /* a capture's, for the record */
        int promotes = 0;
        int played = play_item(self, ci, &own, &opp, &kings, squares, count, capture, &recs, &rec, &promotes);
        if (played < 0)
            goto done;
        if (!played)
            break;
        Seen next = {ci ? opp : own, ci ? own : opp, kings, ci ^ 1, 0};
        int stop = count_ply(&c, &next, king, capture);
        if (stop < 0)
            goto done;
        if (stop)
            break;
        if (record.list != NULL && record_ply(self, &record, pos, end, capture ? &rec : NULL, sb, eb,
                                              promotes, &now, &next) < 0)
            goto done;
        before = now;
        now = next;
        plies++;
        pos = end;
    }
    if (counters_out(self, position, &c, seen, since, &new_since) < 0)
        goto done;
    if (plies) {
        before_obj = make_position(self, position, &before);
        after_obj = before_obj == NULL ? NULL : make_position(self, position, &now);
        if (after_obj == NULL)
            goto done;
    } else {
        before_obj = Py_NewRef(Py_None);
        after_obj = Py_NewRef(Py_None);
    }
    result = Py_BuildValue("(nlOOOl)", pos, plies, before_obj, after_obj, new_since, c.quiet);
done:
    Py_XDECREF(record.last);
    Py_XDECREF(before_obj);
    Py_XDECREF(after_obj);
    Py_XDECREF(new_since);
    PyMem_Free(c.seen.items);
    records_free(&recs);
    return result;
}

/* moves_hint(text, wanted) -> (moves, highest square number or -1) over the first `wanted`
 * moves of a MoveRun's text (twin: pdn_tools.play.variant_choice.run_hint). */
PyObject *moves_hint(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyUnicode_IS_ASCII(args[0])) {
        PyErr_SetString(PyExc_TypeError, "moves_hint(text: ASCII str, wanted: int)");
        return NULL;
    }
    long wanted = PyLong_AsLong(args[1]);
    if (wanted == -1 && PyErr_Occurred())
        return NULL;
    const char *text = (const char *)PyUnicode_DATA(args[0]);
    Py_ssize_t len = PyUnicode_GET_LENGTH(args[0]), pos = 0;
    long moves = 0, top = -1;
    while (moves < wanted) {
        Py_ssize_t end = pos;
        int squares[MAX_PATH], count = 0, capture = 0;
        int kind = next_item(text, len, &pos, &end, squares, &count, &capture);
        if (kind == 0)
            break;
        if (kind == 3) {
            PyErr_SetString(PyExc_ValueError, "moves_hint: not a run of moves");
            return NULL;
        }
        if (kind == 2) {
            moves++;
            for (int i = 0; i < count; i++)
                if (squares[i] > top)
                    top = squares[i];
        }
        pos = end;
    }
    return Py_BuildValue("(ll)", moves, top);
}

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
    for (Py_ssize_t k = 0; k < count; k++) {
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
static int next_item(const char *text, Py_ssize_t len, Py_ssize_t *pos, Py_ssize_t *end,
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
    while (j < len && (!run_space(text[j]) || (j > i && separator_space(text, len, j))))
        j++;
    *end = j;
    *count = 0;
    *capture = 0;
    int value = 0, digits = 0;
    for (Py_ssize_t k = i; k <= j; k++) {
        char ch = k < j ? text[k] : '-';
        if (ch == ' ')                   /* a separator's space */
            continue;
        if (ch >= '0' && ch <= '9' && digits < 3) {
            value = value * 10 + (ch - '0');
            digits++;
            continue;
        }
        if ((ch != '-' && ch != 'x') || digits == 0 || digits > 2 || *count >= MAX_PATH)
            return 3;                    /* not a run's move: left to the caller */
        squares[(*count)++] = value;
        *capture |= ch == 'x' && k < j;
        value = digits = 0;
    }
    return *count >= 2 ? 2 : 3;
}

/* The squares written (numbers) as squares of this board, in place; 0 when one is none. */
static int named_squares(const Rules *r, int *squares, int count) {
    for (int i = 0; i < count; i++) {
        if (squares[i] >= MAX_NAMED || r->named[squares[i]] < 0)
            return 0;
        squares[i] = r->named[squares[i]];
    }
    return 1;
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
                      const Record *rec, int sb, int eb, int promotes, const Seen *after) {
    PyObject *move = ply_move(r, plies, rec, sb, eb, promotes);
    if (move != NULL && plies->maker == Py_None) {      /* the moves alone */
        int failed = PyList_Append(plies->list, move) < 0;
        Py_DECREF(move);
        return failed ? -1 : 0;
    }
    PyObject *position = move == NULL ? NULL : make_position(r, plies->last, after);
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
        Py_ssize_t end = pos;
        int squares[MAX_PATH], count = 0, capture = 0;
        int kind = next_item(text, len, &pos, &end, squares, &count, &capture);
        if (kind == 0 || kind == 3 || self->limit)      /* a king-move limit: Python counts */
            break;
        if (kind == 1) {
            pos = end;
            continue;
        }
        if (!named_squares(self, squares, count) || (count > 2 && !capture))
            break;
        int sb = squares[0], eb = squares[count - 1];
        int ci = now.turn;
        u128 own = ci ? now.black : now.white, opp = ci ? now.white : now.black, kings = now.kings;
        int king = HAS(kings, sb);
        Record rec;                      /* a capture's, for the record */
        int promotes = 0;
        if (count > 2) {
            const Record *found = landing_capture(self, ci, own, opp, kings, squares, count, &recs);
            if (recs.failed) {
                PyErr_NoMemory();
                goto done;
            }
            if (found == NULL)
                break;
            rec = *found;
            after_capture(&rec, &own, &opp, &kings);
        } else if (!capture) {
            if (!quiet_step(self, ci, own, opp, kings, sb, eb, &promotes))
                break;
            after_quiet(sb, eb, king, promotes, &own, &kings);
        } else {
            int played = play_capture_step(self, ci, &own, &opp, &kings, sb, eb, &recs, &rec);
            if (played < 0)
                goto done;
            if (!played)
                break;
        }
        Seen next = {ci ? opp : own, ci ? own : opp, kings, ci ^ 1, 0};
        int stop = count_ply(&c, &next, king, capture);
        if (stop < 0)
            goto done;
        if (stop)
            break;
        if (record.list != NULL && record_ply(self, &record, pos, end, capture ? &rec : NULL, sb, eb,
                                              promotes, &next) < 0)
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
    PyMem_Free(recs.items);
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

/* ---- a run's plies written as convert writes them ---------------------------------------- */

/* Text the core writes, growing. */
typedef struct {
    char *data;
    Py_ssize_t len, size;
} Written;

/* Room for `need` more characters at the end of `out` (NULL, MemoryError set, when none). */
static char *room(Written *out, Py_ssize_t need) {
    if (out->len + need > out->size) {
        Py_ssize_t size = 2 * out->size + need;
        char *data = PyMem_Realloc(out->data, (size_t)size);
        if (data == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        out->data = data;
        out->size = size;
    }
    return out->data + out->len;
}

/* Copies `len` characters of `text` to `at`; returns the end. */
static char *put(char *at, const char *text, Py_ssize_t len) {
    memcpy(at, text, (size_t)len);
    return at + len;
}

/* Writes squares (`count` of them, the first `start` when it is not -1) as a JSON array. */
static char *json_squares(const Rules *r, const Names *names, int start, const int8_t *squares, int count,
                          char *at) {
    *at++ = '[';
    if (start >= 0)
        at = write_square(r, names, start, 1, at);
    for (int i = 0; i < count; i++) {
        if (i > 0 || start >= 0) {
            *at++ = ',';
            *at++ = ' ';
        }
        at = write_square(r, names, squares[i], 1, at);
    }
    *at++ = ']';
    return at;
}

/* What write_run writes of each ply: a JSON move object (its text as written, or as a style writes
 * it), a FEN line after a prefix, or the move as written in a style (`extra` its capture separator),
 * captures in full or short. */
enum { FORM_JSON, FORM_FEN, FORM_SHORT, FORM_FULL, FORM_JSON_SHORT, FORM_JSON_FULL };

typedef struct {
    int kind;
    Names names;
    const char *extra;                   /* the FEN lines' prefix or the moves' separator (UTF-8) */
    Py_ssize_t extra_len;
} Form;

/* Writes a move (from sb to eb, or the capture `rec`) as a style writes it: start and end squares
 * joined by "-", a capture's by the separator, every landing square when in full or `ambiguous`. */
static char *write_move(const Rules *r, const Form *form, const Record *rec, int sb, int eb, int ambiguous,
                        char *at) {
    at = write_square(r, &form->names, rec ? rec->start : sb, 0, at);
    if (rec == NULL)
        return write_square(r, &form->names, eb, 0, put(at, "-", 1));
    int full = form->kind == FORM_FULL || form->kind == FORM_JSON_FULL || ambiguous;
    for (int i = full ? 0 : rec->len - 1; i < rec->len; i++)
        at = write_square(r, &form->names, rec->path[i], 0, put(at, form->extra, form->extra_len));
    return at;
}

/* Writes one ply played (number `number`, written text[start:end], from `sb` to `eb` or the
 * capture `rec`, leaving `after`) in its form, after ", " (JSON) or " " (moves) unless first. */
static int write_ply(const Rules *r, const Form *form, Written *out, long number, const char *text,
                     Py_ssize_t start, Py_ssize_t end, const Record *rec, int sb, int eb, int ambiguous,
                     const Seen *after) {
    char *at = room(out, form->extra_len * MAX_PATH + (end - start) + FEN_SIZE + 2 * MAX_PATH * 10 + 128);
    if (at == NULL)
        return -1;
    if (form->kind == FORM_FEN) {
        at = put(put(at, form->extra, form->extra_len), "\t", 1);
        at = write_fen(r, after, &form->names, put(write_number(number, at), "\t", 1));
        *at++ = '\n';
    } else if (form->kind == FORM_JSON || form->kind >= FORM_JSON_SHORT) {
        int8_t path[1] = {(int8_t)eb};
        at = put(out->len ? put(at, ", ", 2) : at, "{\"ply\": ", 8);
        at = put(write_number(number, at), ", \"text\": \"", 11);
        at = form->kind == FORM_JSON ? put(at, text + start, end - start) : write_move(r, form, rec, sb, eb, ambiguous, at);
        at = json_squares(r, &form->names, rec ? rec->start : sb, rec ? rec->path : path, rec ? rec->len : 1,
                          put(at, "\", \"path\": ", 11));
        at = json_squares(r, &form->names, -1, rec ? rec->caps : path, rec ? rec->len : 0,
                          put(at, ", \"captured\": ", 14));
        at = put(write_fen(r, after, &form->names, put(at, ", \"fen\": \"", 10)), "\"}", 2);
    } else {
        at = write_move(r, form, rec, sb, eb, ambiguous, out->len ? put(at, " ", 1) : at);
    }
    out->len = at - out->data;
    return 0;
}

/* Whether a capture from rec's start to its end may take other pieces (notation.ambiguous). */
static int ambiguous_capture(const Rules *r, int ci, u128 own, u128 opp, u128 kings, const Record *rec,
                             Records *recs) {
    recs->count = 0;
    legal_records(r, ci, own, opp, kings, recs);
    for (Py_ssize_t i = 0; i < recs->count; i++) {
        const Record *other = &recs->items[i];
        if (other->start == rec->start && other->path[other->len - 1] == rec->path[rec->len - 1]
            && other->capm != rec->capm)
            return 1;
    }
    return 0;
}

static int form_in(const Rules *r, PyObject *const *args, Form *form) {
    static const char *const kinds[] = {"json", "fen", "short", "full", "json-short", "json-full"};
    const char *kind = PyUnicode_Check(args[1]) ? PyUnicode_AsUTF8(args[1]) : NULL;
    form->kind = -1;
    for (int k = 0; kind != NULL && k < 6; k++)
        if (strcmp(kind, kinds[k]) == 0)
            form->kind = k;
    if (form->kind < 0 || (form->kind == FORM_JSON) != (args[2] == Py_None)
        || (args[2] != Py_None && !PyUnicode_Check(args[2]))) {
        PyErr_SetString(PyExc_ValueError, "write_run: form json (extra None), fen (extra the prefix), short, "
                                          "full, json-short or json-full (extra the separator)");
        return -1;
    }
    form->extra = "";
    form->extra_len = 0;
    if (args[2] != Py_None && (form->extra = PyUnicode_AsUTF8AndSize(args[2], &form->extra_len)) == NULL)
        return -1;
    if (form->kind != FORM_FEN && form->extra_len > 8) {
        PyErr_SetString(PyExc_ValueError, "write_run: a separator of at most 8 bytes");
        return -1;
    }
    return names_in(r, args[0], &form->names);
}

/* write_run(text, offset, position, number, last, names, form, extra)
 *   -> (offset, plies, position after the last ply or None, written)
 * Plays a MoveRun's text from `offset` as run_text does (counting no draw), numbering the plies
 * on from `number` up to `last`, and writes each ply played in `form`: "json", the objects of
 * convert --to jsonl's moves, `{"ply": …, "text": …, "path": […], "captured": […], "fen": …}`
 * joined by ", " (extra None); "fen", a line `extra<TAB>ply<TAB>FEN` each; "short" or "full",
 * the moves as convert's styles write them (notation.move_text: captures with every landing
 * square in full, or when ambiguous), joined by " ", a capture's squares by `extra`;
 * "json-short" or "json-full", the JSON objects with the moves' texts so rewritten.  Squares
 * are written as numbers (`names` None) or as names[number].  Stops at the first move it leaves
 * (offset = where it starts) or after ply `last`. */
PyObject *Rules_write_run(Rules *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8 || !PyUnicode_Check(args[0]) || !PyUnicode_IS_ASCII(args[0])) {
        PyErr_SetString(PyExc_TypeError, "write_run(text: ASCII str, offset, position, number, last, names, "
                                         "form, extra)");
        return NULL;
    }
    const char *text = (const char *)PyUnicode_DATA(args[0]);
    Py_ssize_t len = PyUnicode_GET_LENGTH(args[0]), pos = PyLong_AsSsize_t(args[1]);
    long number = PyLong_AsLong(args[3]), last = PyLong_AsLong(args[4]), first = number;
    Form form;
    Seen now;
    if (PyErr_Occurred() || form_in(self, args + 5, &form) < 0 || read_position(self, args[2], &now) < 0)
        return NULL;
    if (pos < 0 || pos > len) {
        PyErr_SetString(PyExc_ValueError, "write_run: offset out of the text");
        return NULL;
    }
    Written out = {NULL, 0, 0};
    Records recs = {NULL, 0, 0, 0};
    PyObject *result = NULL;
    while (number < last && !self->limit) {
        Py_ssize_t end = pos;
        int squares[MAX_PATH], count = 0, capture = 0;
        int kind = next_item(text, len, &pos, &end, squares, &count, &capture);
        if (kind == 1) {
            pos = end;
            continue;
        }
        if (kind != 2 || !named_squares(self, squares, count) || (count > 2 && !capture))
            break;
        int sb = squares[0], eb = squares[count - 1], ci = now.turn, promotes = 0, ambiguous = 0;
        u128 own = ci ? now.black : now.white, opp = ci ? now.white : now.black, kings = now.kings;
        Record rec;
        if (count > 2) {
            const Record *found = landing_capture(self, ci, own, opp, kings, squares, count, &recs);
            if (recs.failed) {
                PyErr_NoMemory();
                goto done;
            }
            if (found == NULL)
                break;
            rec = *found;
            after_capture(&rec, &own, &opp, &kings);
        } else if (!capture) {
            if (!quiet_step(self, ci, own, opp, kings, sb, eb, &promotes))
                break;
            after_quiet(sb, eb, HAS(kings, sb), promotes, &own, &kings);
        } else {
            int played = play_capture_step(self, ci, &own, &opp, &kings, sb, eb, &recs, &rec);
            if (played < 0)
                goto done;
            if (!played)
                break;
        }
        if (capture && (form.kind == FORM_SHORT || form.kind == FORM_JSON_SHORT)) {
            ambiguous = ambiguous_capture(self, ci, ci ? now.black : now.white, ci ? now.white : now.black,
                                          now.kings, &rec, &recs);
            if (recs.failed) {
                PyErr_NoMemory();
                goto done;
            }
        }
        Seen next = {ci ? opp : own, ci ? own : opp, kings, ci ^ 1, 0};
        if (write_ply(self, &form, &out, number + 1, text, pos, end, capture ? &rec : NULL, sb, eb, ambiguous,
                      &next) < 0)
            goto done;
        now = next;
        number++;
        pos = end;
    }
    PyObject *after = number > first ? make_position(self, args[2], &now) : Py_NewRef(Py_None);
    PyObject *written = after == NULL ? NULL : PyUnicode_DecodeUTF8(out.data, out.len, "strict");
    if (written != NULL)
        result = Py_BuildValue("(nlNN)", pos, number - first, after, written);
    else
        Py_XDECREF(after);
done:
    PyMem_Free(out.data);
    PyMem_Free(recs.items);
    return result;
}

/* The compiled core's writing of a run's plies as convert writes them (a MoveRun played as
 * _replay.c plays it). */
#include "_replay.h"

/* ---- a run's plies written as convert writes them ---------------------------------------- */
/* twin: pdn_tools.commands.convert._core_plies, pdn_tools.play.notation.move_text */

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

/* Writes square number `number` at `at` as itself or its name (`quoted` between double quotes, as
 * JSON writes a string); returns the end. */
static inline char *write_named(const Names *names, int number, int quoted, char *at) {
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

/* Writes square `sq` at `at` (see write_named). */
static inline char *write_square(const Rules *r, const Names *names, int sq, int quoted, char *at) {
    return write_named(names, r->number[sq], quoted, at);
}

/* write_side for any board: the squares sorted by their numbers first. */
static char *write_sorted_side(const Rules *r, u128 pieces, u128 kings, const Names *names, char *at) {
    int keys[MAX_SQ], count = 0;            /* 2 * number + 1 for a king, in increasing order */
    for (u128 left = pieces; left; left &= left - 1) {
        int sq = lowest(left), key = 2 * r->number[sq] + HAS(kings, sq), i = count++;
        for (; i > 0 && keys[i - 1] > key; i--)
            keys[i] = keys[i - 1];
        keys[i] = key;
    }
    for (int i = 0; i < count; i++) {
        if (i)
            *at++ = ',';
        if (keys[i] & 1)
            *at++ = 'K';
        at = write_named(names, keys[i] >> 1, 0, at);
    }
    return at;
}

/* Writes the squares of one side (`pieces`, its kings `kings`) as a canonical FEN section does, after
 * its colour: in increasing order of their numbers, a king's after `K`, joined by ","; returns the
 * end.  The squares are taken from the set lowest index first, which is the order of their numbers
 * on the boards known: written as they come while it is (else sorted first, write_sorted_side). */
static char *write_side(const Rules *r, u128 pieces, u128 kings, const Names *names, char *at) {
    char *start = at;
    int last = -1;
    for (u128 left = pieces; left; left &= left - 1) {
        int sq = lowest(left), number = r->number[sq];
        if (number < last)
            return write_sorted_side(r, pieces, kings, names, start);
        last = number;
        if (at != start)
            *at++ = ',';
        if (HAS(kings, sq))
            *at++ = 'K';
        at = write_named(names, number, 0, at);
    }
    return at;
}

/* Writes the canonical FEN of `s` at `at` (at most FEN_SIZE characters; twin:
 * pdn_tools.rules.fen.write_fen): the side to move, then each side's squares (write_side);
 * returns the end. */
char *write_fen(const Rules *r, const Seen *s, const Names *names, char *at) {
    u128 sides[2] = {s->white & r->valid, s->black & r->valid};
    *at++ = s->turn ? 'B' : 'W';
    for (int side = 0; side < 2; side++) {
        *at++ = ':';
        *at++ = side ? 'B' : 'W';
        at = write_side(r, sides[side], s->kings, names, at);
    }
    return at;
}

/* Makes the texts of `last`'s squares: each after a comma, `K` first for a king, as write_side writes
 * them; ordered when the squares, lowest index first, come in the order of their numbers. */
static void square_texts(const Rules *r, const Names *names, Sections *last) {
    int previous = -1;
    last->ordered = 1;
    for (int sq = 0; sq < MAX_IDX; sq++) {
        if (!HAS(r->valid, sq))
            continue;
        int number = r->number[sq];
        if (number < previous || (names->on && names->len[number] > SQUARE_TEXT - 2))
            last->ordered = 0;
        previous = number;
        for (int king = 0; king < 2 && last->ordered; king++) {
            char *text = last->square[king][sq], *at = text;
            *at++ = ',';
            if (king)
                *at++ = 'K';
            last->square_len[king][sq] = (uint8_t)(write_named(names, number, 0, at) - text);
        }
    }
    last->squares = 1;
}

/* write_fen, each side's section copied from `last` when its pieces are the same (kept there), else
 * made of its squares' texts (write_side when their order is not their numbers'). */
char *write_fen_again(const Rules *r, const Seen *s, const Names *names, Sections *last, char *at) {
    if (!last->squares)
        square_texts(r, names, last);
    *at++ = s->turn ? 'B' : 'W';
    for (int side = 0; side < 2; side++) {
        u128 pieces = (side ? s->black : s->white) & r->valid, kings = s->kings & pieces;
        *at++ = ':';
        if (last->kept[side] && last->pieces[side] == pieces && last->kings[side] == kings) {
            *at++ = side ? 'B' : 'W';
            at = put(at, last->text[side], last->len[side]);
            continue;
        }
        char *end = at + 1;
        if (last->ordered) {             /* each square's text after a comma, the first comma where the
                                            colour goes */
            end = at;
            for (u128 left = pieces; left; left &= left - 1) {
                int sq = lowest(left), king = HAS(kings, sq);
                memcpy(end, last->square[king][sq], SQUARE_TEXT);
                end += last->square_len[king][sq];
            }
            if (end == at)
                end++;
        } else {
            end = write_side(r, pieces, kings, names, end);
        }
        *at++ = side ? 'B' : 'W';
        last->len[side] = end - at;
        memcpy(last->text[side], at, (size_t)(end - at));
        last->pieces[side] = pieces;
        last->kings[side] = kings;
        last->kept[side] = 1;
        at = end;
    }
    return at;
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
                     const Seen *after, Sections *last) {
    char *at = room(out, form->extra_len * MAX_PATH + (end - start) + FEN_SIZE + 2 * MAX_PATH * 10 + 128);
    if (at == NULL)
        return -1;
    if (form->kind == FORM_FEN) {
        at = put(put(at, form->extra, form->extra_len), "\t", 1);
        at = write_fen_again(r, after, &form->names, last, put(write_number(number, at), "\t", 1));
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
        at = put(write_fen_again(r, after, &form->names, last, put(at, ", \"fen\": \"", 10)), "\"}", 2);
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
    long number = PyErr_Occurred() ? 0 : PyLong_AsLong(args[3]);      /* no __index__ run with an error set */
    long last = PyErr_Occurred() ? 0 : PyLong_AsLong(args[4]), first = number;
    Form form;
    Seen now;
    if (PyErr_Occurred() || form_in(self, args + 5, &form) < 0 || read_position(self, args[2], &now) < 0)
        return NULL;
    if (pos < 0 || pos > len || number < 0) {
        PyErr_SetString(PyExc_ValueError, "write_run: offset out of the text or a negative ply number");
        return NULL;
    }
    Written out = {NULL, 0, 0};
    Records recs = {NULL, 0, 0, 0};
    Sections sections;
    sections.kept[0] = sections.kept[1] = sections.squares = 0;
    PyObject *result = NULL;
    while (number < last && !self->limit) {
        Py_ssize_t end;
        int squares[MAX_PATH], count, capture;
        if (!next_move(self, text, len, &pos, &end, squares, &count, &capture))
            break;
        int sb = squares[0], eb = squares[count - 1], ci = now.turn, promotes = 0, ambiguous = 0;
        u128 own = ci ? now.black : now.white, opp = ci ? now.white : now.black, kings = now.kings;
        Record rec;
        int played = play_item(self, ci, &own, &opp, &kings, squares, count, capture, &recs, &rec, &promotes);
        if (played < 0)
            goto done;
        if (!played)
            break;
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
                      &next, &sections) < 0)
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
    records_free(&recs);
    return result;
}
